// What every plan must satisfy for the model to execute it; checked in tests for each handler,
// and cheap enough for the model to assert on every plan it receives.

import type { HandlerPlan } from "./types.ts";

/** The ways a plan breaks the HandlerPlan contract; empty when it is well formed. */
export function planViolations(plan: HandlerPlan): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(plan.durationMs) || plan.durationMs < 0) problems.push(`durationMs ${plan.durationMs} is not a non-negative integer`);
  if (plan.kind === "fail" && typeof plan.error !== "string") problems.push("error is not a string");
  let last = 0;
  for (const [i, e] of (plan.stream ?? []).entries()) {
    if (!Number.isInteger(e.atMs) || e.atMs < 0) problems.push(`emission ${i}: atMs ${e.atMs} is not a non-negative integer`);
    if (e.atMs < last) problems.push(`emission ${i}: atMs ${e.atMs} is before the previous emission (${last})`);
    if (e.atMs > plan.durationMs) problems.push(`emission ${i}: atMs ${e.atMs} is after the end (${plan.durationMs})`);
    last = e.atMs;
  }
  return problems;
}
