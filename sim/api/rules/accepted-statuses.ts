/**
 * Which statuses a target may answer a violation of `rule` with, under a conformance profile.
 * Lenient follows the spec alone (any 4xx where it is silent, or what choices.md says the
 * lenient profile accepts); strict also requires the emulator's documented choice.
 */
import type { Rule } from "./rule.ts";

export type Profile = "lenient" | "strict";

/** A list of statuses, or "any-4xx" when the rule leaves the status open. */
export type AcceptedStatuses = readonly number[] | "any-4xx";

export function acceptedStatuses(rule: Rule, profile: Profile): AcceptedStatuses {
  const lenient = rule.specStatuses ?? rule.lenientStatuses ?? "any-4xx";
  if (profile === "lenient") return lenient;
  return rule.strictStatuses ?? lenient;
}

export function statusAccepted(rule: Rule, profile: Profile, status: number): boolean {
  const accepted = acceptedStatuses(rule, profile);
  return accepted === "any-4xx" ? status >= 400 && status < 500 : accepted.includes(status);
}
