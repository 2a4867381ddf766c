/**
 * The run's verdict in one phrase, the same on the terminal, in the JUnit file and on the HTML
 * badge: "PASSED (n of m rules judged)", so a thin run (a missing key, an unreachable area)
 * never reads as a full one, and a run below the coverage floor fails.
 */
import type { ConformanceReport } from "./conformance-report.ts";

export type VerdictKind = "pass" | "fail" | "error";

export interface Verdict {
  readonly kind: VerdictKind;
  /** "PASSED (149 of 187 rules judged)". */
  readonly text: string;
  /** Whether the judged share is below the floor. */
  readonly belowCoverage: boolean;
}

export function judgedCounts(report: ConformanceReport): { judged: number; of: number; pct: number } {
  const judged = report.coverage.rules.checked;
  const of = report.coverage.rules.selected ?? report.coverage.rules.total;
  return { judged, of, pct: of > 0 ? (100 * judged) / of : 100 };
}

export function verdict(report: ConformanceReport): Verdict {
  const { judged, of, pct } = judgedCounts(report);
  const floor = report.coverage.rules.minCoverage;
  const belowCoverage = floor !== undefined && pct < floor;
  const counted = `${judged} of ${of} rules judged`;
  const s = report.summary;
  // A failed rule of severity "warning" is reported but does not fail the run (as the exit code
  // says); the count of failed rules is the same as on the counts line, warnings named within it.
  const warnings = failedWarnings(report);
  const failing = s.failed - warnings;
  const ofThem = warnings > 0 ? `, ${warnings} of them ${warnings === 1 ? "a warning" : "warnings"}` : "";
  if (failing > 0) return { kind: "fail", text: `FAILED (${s.failed} failed${ofThem}; ${counted})`, belowCoverage };
  if (s.targetErrors > 0) return { kind: "error", text: `TARGET ERRORS (${s.targetErrors}; ${counted})`, belowCoverage };
  if (belowCoverage) return { kind: "fail", text: `FAILED (only ${counted}, ${Math.floor(pct)}% < --min-coverage ${floor}%)`, belowCoverage };
  return { kind: "pass", text: `PASSED (${counted}${warnings > 0 ? `; ${warnings} failed as ${warnings === 1 ? "a warning, which does" : "warnings, which do"} not fail the run` : ""})`, belowCoverage };
}

/** Failed rules of severity "warning": counted among the failed, but they do not fail the run. */
export function failedWarnings(report: ConformanceReport): number {
  return report.rules.filter((r) => r.status === "fail" && r.severity === "warning").length;
}
