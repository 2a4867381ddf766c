/**
 * A property's bound against a real-time target is a bound on the target's pace, not on the
 * suite's own pacing. Under a small quota (the real platform's example: 60 a minute) the rules
 * running side by side share it, and a property's requests spend most of their time held back
 * for a window to reset: a wall-clock bound then cut the pod lifecycle model short before its
 * first verdict (13 rules unjudged at 60 a minute). Working time is wall time less the time the
 * check's requests spent waiting for quota (Client.pacedMs); --max-duration stays wall time.
 *
 * fast-check's own `interruptAfterTimeLimit` counts wall time, so this plugin does what it does
 * (an interrupted run is a precondition failure that stops the property, and a run already past
 * the bound is not started) on the working clock.
 */
import fc from "fast-check";

/** Milliseconds of working time: a clock that stands still while the client's requests wait for quota. */
export type WorkingNow = () => number;

export function workingNow(client: { readonly pacedMs: number }, wallNow: () => number = Date.now): WorkingNow {
  return () => wallNow() - client.pacedMs;
}

/** The most pacingGapMs gives: a minute window's reset and a margin. */
export const PACING_GAP_CAP_MS = 90_000;

/**
 * How far apart two reads of one check may land because of the rate limit: the longest wait for
 * quota the run has seen (a fixed minute window spent early holds every request to its reset),
 * at most PACING_GAP_CAP_MS. A set-up that must be seen in a state while reads are that far
 * apart (a job running, a stream with its first chunk) lasts longer by this much; 0 until a wait.
 */
export function pacingGapMs(client: { readonly longestRateLimitWaitMs: number }): number {
  return Math.min(PACING_GAP_CAP_MS, Math.max(0, client.longestRateLimitWaitMs));
}

/** The longest the timer sleeps before it looks again (a wait for quota may have moved the bound). */
const RECHECK_MAX_MS = 60_000;

/**
 * fast-check's time limit on the working clock: the property stops drawing runs (and the run in
 * progress is interrupted) once `limitMs` of working time has passed since the check began, or at
 * `wallDeadline` (Date.now() ms; --max-duration), whichever comes first.
 */
export function interruptAfterWorkingTime(limitMs: number, now: WorkingNow, wallDeadline = Number.POSITIVE_INFINITY): fc.Plugin<unknown> {
  return () => {
    const until = now() + limitMs;
    const left = () => Math.min(until - now(), wallDeadline - Date.now());
    let timer: ReturnType<typeof setTimeout> | undefined;
    let fire = () => {};
    const interrupted = new Promise<fc.PreconditionFailure>((resolve) => {
      fire = () => resolve(new fc.PreconditionFailure(true));
    });
    const arm = () => {
      const ms = left();
      if (ms <= 0) return fire();
      timer = setTimeout(arm, Math.min(RECHECK_MAX_MS, Math.max(1, ms)));
    };
    arm();
    return {
      decorateRun: (nested) => (value) => {
        if (left() <= 0) return new fc.PreconditionFailure(true);
        const out = nested(value);
        return out !== null && "then" in out ? Promise.race([out, interrupted]) : out;
      },
      afterAll: () => clearTimeout(timer),
    };
  };
}
