/**
 * Which statuses a rule accepts under the run's profile: the spec's own where it states one;
 * where it is silent, any 4xx (lenient) or the emulator's documented choice (strict).
 */
import { acceptedStatuses, statusAccepted } from "../../../sim/api/rules/index.ts";
import type { CheckContext } from "../../check.ts";

export function accepts(ctx: CheckContext, status: number): boolean {
  return statusAccepted(ctx.rule, ctx.options.profile, status);
}

/** The accepted statuses in words, for a failure's "expected". */
export function acceptedText(ctx: CheckContext): string {
  const a = acceptedStatuses(ctx.rule, ctx.options.profile);
  return a === "any-4xx" ? "a 4xx status" : a.length === 1 ? `status ${a[0]}` : `one of ${a.join(", ")}`;
}
