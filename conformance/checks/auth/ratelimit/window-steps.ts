/**
 * Comparing the windows of two answers to the same user: how much each window's remaining count
 * fell between them, and whether the window may have reset in between (then nothing follows).
 * `t` is whole seconds, rounded either way, so a reset is possible once the time between the
 * answers reaches t - 1 seconds; against the emulator's manual clock no time passes at all.
 */
import type { LimitMember } from "./read-rate-limit.ts";

export interface WindowStep {
  readonly name: string;
  readonly before: number;
  readonly after: number;
  /** Whether the window may have reset between the two answers. */
  readonly mayHaveReset: boolean;
  readonly resetBefore?: number;
}

export function windowSteps(before: ReadonlyMap<string, LimitMember>, after: ReadonlyMap<string, LimitMember>, elapsedMs: number): WindowStep[] {
  const steps: WindowStep[] = [];
  for (const [name, b] of before) {
    const a = after.get(name);
    if (a?.remaining === undefined || b.remaining === undefined) continue;
    const mayHaveReset = b.reset === undefined || elapsedMs >= (b.reset - 1) * 1000;
    steps.push({ name, before: b.remaining, after: a.remaining, mayHaveReset, ...(b.reset !== undefined ? { resetBefore: b.reset } : {}) });
  }
  return steps;
}

export function describeStep(s: WindowStep): string {
  return `"${s.name}" went from r=${s.before} to r=${s.after}${s.resetBefore !== undefined ? ` (t=${s.resetBefore} s before)` : ""}`;
}
