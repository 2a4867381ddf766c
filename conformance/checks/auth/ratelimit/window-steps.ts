/**
 * Comparing the windows of two answers to the same user: how much each window's remaining count
 * fell between them, and whether the window may have reset in between (then nothing follows).
 * `t` is whole seconds, rounded either way, so a reset is possible once the time between the
 * answers reaches t - 1 seconds; against the emulator's manual clock no time passes at all.
 * Before `t` a window may still give some quota back: the spec does not say which moment a
 * sliding window calls its reset, and one whose `t` names the whole quota's return lets `r` rise
 * a bucket at a time before it. So `r` rising is never a fault (`gaveBack`), and a window that
 * stayed while the others fell by one may have given one back as the request counted.
 */
import type { LimitMember } from "./read-rate-limit.ts";

export interface WindowStep {
  readonly name: string;
  readonly before: number;
  readonly after: number;
  /** Whether the window may have reset between the two answers. */
  readonly mayHaveReset: boolean;
  /** Whether r rose (the window gave quota back, before its reset or at it). */
  readonly gaveBack: boolean;
  readonly resetBefore?: number;
}

export function windowSteps(before: ReadonlyMap<string, LimitMember>, after: ReadonlyMap<string, LimitMember>, elapsedMs: number): WindowStep[] {
  const steps: WindowStep[] = [];
  for (const [name, b] of before) {
    const a = after.get(name);
    if (a?.remaining === undefined || b.remaining === undefined) continue;
    const mayHaveReset = b.reset === undefined || elapsedMs >= (b.reset - 1) * 1000;
    steps.push({ name, before: b.remaining, after: a.remaining, mayHaveReset, gaveBack: a.remaining > b.remaining, ...(b.reset !== undefined ? { resetBefore: b.reset } : {}) });
  }
  return steps;
}

export function describeStep(s: WindowStep): string {
  return `"${s.name}" went from r=${s.before} to r=${s.after}${s.resetBefore !== undefined ? ` (t=${s.resetBefore} s before)` : ""}`;
}
