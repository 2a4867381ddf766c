/**
 * Waiting for the target's time to pass. Against the emulator's control API, virtual time is
 * advanced at once (a run stays fast and replays exactly); against any other target the check
 * waits in real time, bounded by the caller.
 */
import type { CheckContext } from "../../check.ts";

/** The most one advance or sleep may ask for: a limit on everything. */
export const MAX_ADVANCE_MS = 7 * 24 * 3600 * 1000;

export async function advance(ctx: CheckContext, ms: number): Promise<void> {
  const amount = Math.max(0, Math.min(MAX_ADVANCE_MS, Math.round(ms)));
  if (ctx.controlApi) {
    await ctx.client.request({ method: "POST", url: new URL("/_sim/clock/advance", ctx.target.rest).href, json: { ms: amount } });
    return;
  }
  await new Promise((resolve) => setTimeout(resolve, amount));
}

/**
 * Polls `probe` until it returns a value, advancing time by `stepMs` between tries, at most
 * `maxSteps` times; undefined when it never did.
 */
export async function until<T>(ctx: CheckContext, probe: () => Promise<T | undefined>, stepMs: number, maxSteps: number): Promise<T | undefined> {
  for (let i = 0; i <= maxSteps; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    if (i < maxSteps) await advance(ctx, stepMs);
  }
  return undefined;
}
