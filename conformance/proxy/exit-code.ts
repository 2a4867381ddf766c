/**
 * The gate at the stop, by --fail-on (whose findings count: the target's, the client's, either
 * side's, none) and --fail-severity (error, or warnings too): 1 when such a finding was made,
 * else 0. A rule fails on a side when one of its kept failures is that side's: the judge keeps
 * the first failures of each side apart, so a side's failures are never crowded out by the other's.
 */
import type { ConformanceReport, RuleResult } from "../../reports/conformance-report.ts";
import type { FailOn, FailSeverity } from "./options.ts";

export function gatedSides(failOn: FailOn): readonly string[] {
  return failOn === "any" ? ["target", "client"] : failOn === "never" ? [] : [failOn];
}

/** Whether this rule's failures fail the gate. */
export function ruleGated(rule: RuleResult, failOn: FailOn, severity: FailSeverity = "error"): boolean {
  if (rule.status !== "fail" || (severity === "error" && rule.severity !== "error")) return false;
  const sides = gatedSides(failOn);
  // A failure without a side is the target's (conform's failures are).
  return rule.failures.some((f) => sides.includes(f.side ?? "target"));
}

export function proxyExitCode(report: ConformanceReport, failOn: FailOn, severity: FailSeverity = "error"): number {
  return report.rules.some((r) => ruleGated(r, failOn, severity)) ? 1 : 0;
}
