/** Live progress: one line per rule as it finishes, so a long run shows where it is. */
import type { RuleResult } from "../reports/conformance-report.ts";
import { formatDuration } from "../reports/format.ts";

export function progressLine(index: number, total: number, result: RuleResult): string {
  const width = String(total).length;
  const tag = result.status.toUpperCase().padEnd(5);
  const note = result.status === "fail" ? `  ${result.failures.length} failure(s)` : result.reason ? `  (${result.reason})` : "";
  return `[${String(index).padStart(width)}/${total}] ${tag} ${result.id}  ${formatDuration(result.durationMs)}${note}\n`;
}
