/**
 * The pauses of a wait against a real-time target: from about 100 ms, growing by half each time
 * up to a ceiling, until the wait's bound is spent. A fast target is answered at once, a slow
 * one is not polled needlessly, and every wait ends. Against the emulator's control API the
 * waits advance virtual time instead (free), so these are for real time only.
 */

export const FIRST_PAUSE_MS = 100;
export const DEFAULT_MAX_PAUSE_MS = 2_000;

/** The pauses for a wait of at most `budgetMs`, ceiling `maxPauseMs`; they add up to the budget at most. */
export function adaptivePauses(budgetMs: number, maxPauseMs = DEFAULT_MAX_PAUSE_MS): number[] {
  const out: number[] = [];
  let total = 0;
  for (let step = FIRST_PAUSE_MS; total < budgetMs && out.length < 10_000; step = Math.min(maxPauseMs, Math.round(step * 1.5))) {
    const pause = Math.min(step, budgetMs - total);
    out.push(pause);
    total += pause;
  }
  return out;
}

/** A wait's bound in words, for skip reasons: "2 min of real time", "10 min of virtual time". */
export function describeWait(ms: number, virtual: boolean): string {
  const amount = ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
  return `${amount} of ${virtual ? "virtual" : "real"} time`;
}
