/**
 * Waiting for the target's time to pass. Against the emulator's control API, virtual time is
 * advanced at once (a run stays fast and replays exactly); against any other target the check
 * waits in real time, bounded by the caller.
 */
import type { CheckContext } from "../../check.ts";
import { adaptivePauses } from "./poll.ts";

/** The most one advance or sleep may ask for: a limit on everything. */
export const MAX_ADVANCE_MS = 7 * 24 * 3600 * 1000;

/**
 * Lets `ms` pass. Once the check is over (`ctx.signal`: a run its time bound cut goes on
 * unawaited) it does nothing: the clock is the next check's, and a wait ends at once.
 */
export async function advance(ctx: CheckContext, ms: number): Promise<void> {
  const amount = Math.max(0, Math.min(MAX_ADVANCE_MS, Math.round(ms)));
  if (ctx.signal.aborted) return;
  if (ctx.controlApi) {
    await ctx.client.request({ method: "POST", url: new URL("/_sim/clock/advance", ctx.target.rest).href, json: { ms: amount } });
    return;
  }
  // Never past the run's bound (--max-duration): the wait just ends sooner and the check sees less.
  await pause(Math.min(amount, Math.max(0, ctx.deadline - Date.now())), ctx.signal);
}

/** A real pause of `ms`, ended early when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Whether a wait of the check should stop: the check is over, or (real time) the run's bound is spent. */
export const waitIsOver = (ctx: CheckContext): boolean => ctx.signal.aborted || (!ctx.controlApi && Date.now() >= ctx.deadline);

/**
 * Polls `probe` until it returns a value; undefined when it never did within `stepMs × maxSteps`.
 * With the control API each pause advances virtual time by `stepMs`; in real time the pauses
 * start at about 100 ms and grow (support/poll.ts), with the same bound in all, and end at the
 * run's deadline.
 */
export async function until<T>(ctx: CheckContext, probe: () => Promise<T | undefined>, stepMs: number, maxSteps: number): Promise<T | undefined> {
  const pauses = ctx.controlApi ? Array<number>(maxSteps).fill(stepMs) : adaptivePauses(stepMs * maxSteps, Math.min(stepMs, 2_000));
  for (let i = 0; i <= pauses.length; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    if (i === pauses.length || waitIsOver(ctx)) return undefined;
    await advance(ctx, pauses[i]!);
  }
  return undefined;
}
