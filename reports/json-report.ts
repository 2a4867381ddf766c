/** report.json: the run's data as it is, the input of `--baseline` on a later run. */
import type { ConformanceReport } from "./conformance-report.ts";

export function renderJsonReport(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
