/**
 * Whether this run has seen the target give rate-limit quota back before a window's `t` ran out
 * (`r` rising, or one window staying while another counts, while no reset was possible), as a
 * sliding window does whose `t` names the whole quota's return, or one that counts the previous
 * window at a falling weight. Windows are the target's, one algorithm for every user: a rise seen
 * with one key stands for the other too.
 */
import type { CheckContext } from "../../../check.ts";
import type { WindowStep } from "./window-steps.ts";

const seen = new WeakMap<object, true>();

/**
 * Notes the steps between two answers to one key (windowSteps): a window whose r rose, or stayed
 * while another fell by one (a request counted as room came back), no reset being possible.
 */
export function noteGiveBack(ctx: CheckContext, steps: readonly WindowStep[]): void {
  const live = steps.filter((s) => !s.mayHaveReset);
  const rose = live.some((s) => s.gaveBack);
  const stayedWhileCounted = live.some((s) => s.after === s.before) && live.some((s) => s.before - s.after === 1);
  if (rose || stayedWhileCounted) seen.set(ctx.options, true);
}

export function givesBackEarly(ctx: CheckContext): boolean {
  return seen.has(ctx.options);
}
