/**
 * The proxy's report files: report.json and report.html hold every finding of both sides;
 * junit.xml (and the --junit copy) follows --fail-on, as the exit code does: a rule fails there
 * only by the findings of the sides the gate counts, and a rule whose findings are all of the
 * other side passes, its reason saying how many were left out and where they are.
 */
import { summarize, type ConformanceReport, type RuleResult } from "../../reports/conformance-report.ts";
import { writeConformanceReports, type WrittenReports } from "../../reports/write-reports.ts";
import { gatedSides } from "./exit-code.ts";
import type { FailOn } from "./options.ts";

/** The report as the gate sees it: failures of the sides --fail-on does not count are left out. */
export function gatedReport(report: ConformanceReport, failOn: FailOn): ConformanceReport {
  const sides = gatedSides(failOn);
  const rules = report.rules.map((r): RuleResult => {
    if (r.status !== "fail") return r;
    const counted = r.failures.filter((f) => sides.includes(f.side ?? "target"));
    if (counted.length === r.failures.length) return r;
    const left = r.failures.length - counted.length;
    const note = `${left}${r.reason ? "+" : ""} finding(s) of a side --fail-on ${failOn} does not count (see report.json)`;
    if (counted.length > 0) return { ...r, failures: counted, reason: note };
    return { ...r, status: "pass", failures: [], reason: note };
  });
  return { ...report, rules, summary: summarize(rules, report.targetErrors.length) };
}

export async function writeProxyReports(report: ConformanceReport, options: { readonly dir: string; readonly junit?: string; readonly failOn: FailOn }): Promise<WrittenReports> {
  return writeConformanceReports(report, { dir: options.dir, ...(options.junit !== undefined ? { junit: options.junit } : {}), junitReport: gatedReport(report, options.failOn) });
}
