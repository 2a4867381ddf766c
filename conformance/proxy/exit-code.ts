/** The exit code at shutdown, by --fail-on: 1 when a finding of that severity or worse was made (on either side), else 0. */
import type { ConformanceReport } from "../../reports/conformance-report.ts";
import type { FailOn } from "./options.ts";

export function proxyExitCode(report: ConformanceReport, failOn: FailOn): number {
  if (failOn === "never") return 0;
  const failed = report.rules.filter((r) => r.status === "fail");
  const counts = failOn === "warning" ? failed : failed.filter((r) => r.severity === "error");
  return counts.length > 0 ? 1 : 0;
}
