/**
 * The terminal summary printed at the end of a run: one row per rule (rule, result, time and a
 * note), then the counts, the wall time and the request rate, and how to replay each failure.
 */
import type { ConformanceReport, RuleResult } from "./conformance-report.ts";
import { formatDuration, plural, requestsPerSecond } from "./format.ts";
import { renderTextTable, type TextColumn } from "./text-table.ts";

export interface SummaryTableOptions {
  /** Terminal width in characters (default 100). */
  readonly width?: number;
}

const COLUMNS: readonly TextColumn[] = [
  { header: "Rule", flex: true, min: 20 },
  { header: "Result" },
  { header: "Time", align: "right" },
  { header: "Note", flex: true, optional: true, min: 12 },
];

function note(rule: RuleResult): string {
  if (rule.status === "fail") return `${plural(rule.failures.length, "failure")}: ${rule.failures[0]?.evidence.expected ?? ""}`;
  return rule.reason ?? "";
}

export function renderSummaryTable(report: ConformanceReport, options: SummaryTableOptions = {}): string {
  const width = Math.max(40, options.width ?? 100);
  const rows = report.rules.map((r) => [r.id, r.status.toUpperCase(), formatDuration(r.durationMs), note(r)]);
  const s = report.summary;
  const rate = requestsPerSecond(report.requests, report.wallTimeMs);
  const lines = [
    renderTextTable(COLUMNS, rows, width),
    `${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.known} known` +
      (s.targetErrors ? `, ${plural(s.targetErrors, "target error")}` : ""),
    `coverage: ${report.coverage.rules.checked}/${report.coverage.rules.total} rules checked` +
      transitionsLine(report),
    `wall time ${formatDuration(report.wallTimeMs)}, ${plural(report.requests, "request")}, ${rate.toFixed(1)} requests/s`,
  ];
  for (const e of report.targetErrors) {
    lines.push(`target error${e.ruleId ? ` in ${e.ruleId}` : ""}: ${e.code}: ${e.message}`);
  }
  for (const r of report.rules) {
    const command = r.status === "fail" ? r.failures[0]?.reproduction.command : undefined;
    if (command) lines.push(`reproduce ${r.id} with: ${command}`);
  }
  return lines.join("\n") + "\n";
}

function transitionsLine(report: ConformanceReport): string {
  const machines = [...new Set(report.coverage.transitions.map((t) => t.machine))];
  return machines
    .map((m) => {
      const all = report.coverage.transitions.filter((t) => t.machine === m);
      return `, ${all.filter((t) => t.exercised).length}/${all.length} ${m} transitions`;
    })
    .join("");
}
