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
  // A failed rule of severity "warning" is reported but does not fail the run (as the exit code says).
  const failing = report.rules.filter((r) => r.status === "fail" && r.severity !== "warning").length;
  if (failing > 0) return { kind: "fail", text: `FAILED (${failing} failed; ${counted})`, belowCoverage };
  if (s.targetErrors > 0) return { kind: "error", text: `TARGET ERRORS (${s.targetErrors}; ${counted})`, belowCoverage };
  if (belowCoverage) return { kind: "fail", text: `FAILED (only ${counted}, ${Math.floor(pct)}% < --min-coverage ${floor}%)`, belowCoverage };
  return { kind: "pass", text: `PASSED (${counted})`, belowCoverage };
}
