/** The terminal table printed at the end of `cpsim load`: one row per scenario, then what failed. */
import { formatBytes, formatMicros, type LoadReport } from "./load-report.ts";
import { renderTextTable, type TextColumn } from "./text-table.ts";

const COLUMNS: TextColumn[] = [
  { header: "scenario", flex: true, min: 10 },
  { header: "model" },
  { header: "req", align: "right", flex: true, optional: true, min: 7 },
  { header: "req/s", align: "right" },
  { header: "p50", align: "right" },
  { header: "p90", align: "right", flex: true, optional: true, min: 6 },
  { header: "p99", align: "right" },
  { header: "p99.9", align: "right", flex: true, optional: true, min: 6 },
  { header: "max", align: "right", flex: true, optional: true, min: 8 },
  { header: "bytes/s", align: "right", flex: true, optional: true, min: 8 },
  { header: "errors", align: "right" },
  { header: "429", align: "right" },
  { header: "checks", align: "right", flex: true, optional: true, min: 6 },
  { header: "result" },
];

export function renderLoadTable(report: LoadReport, width = 120): string {
  const rows = report.scenarios.map((s) => {
    const passes = s.checks.reduce((a, c) => a + c.passes, 0);
    const total = passes + s.checks.reduce((a, c) => a + c.fails, 0);
    const errors = Object.values(s.errors).reduce((a, b) => a + b, 0);
    return [
      s.name,
      s.model === "open" ? `open ${s.rate}/s` : s.model,
      String(s.requests),
      s.rps.toFixed(0),
      formatMicros(s.latency.p50Us),
      formatMicros(s.latency.p90Us),
      formatMicros(s.latency.p99Us),
      formatMicros(s.latency.p999Us),
      formatMicros(s.latency.maxUs),
      `${formatBytes(s.bytesPerSecond)}`,
      String(errors),
      String(s.rateLimited),
      total === 0 ? "-" : `${((passes / total) * 100).toFixed(total === passes ? 0 : 2)}%`,
      s.passed ? "ok" : "FAIL",
    ];
  });
  const lines = [renderTextTable(COLUMNS, rows, width)];
  for (const s of report.scenarios) {
    for (const t of s.thresholds) if (!t.ok) lines.push(`  ${s.name}: threshold ${t.metric} ${t.expression} failed (actual ${t.actual === undefined ? "none" : +t.actual.toFixed(4)})`);
    for (const c of s.checks) if (c.fails > 0) lines.push(`  ${s.name}: check "${c.name}" failed ${c.fails} of ${c.passes + c.fails}${c.detail ? ` (${c.detail})` : ""}`);
    if (s.first429) lines.push(`  ${s.name}: ${s.rateLimited} answers were 429; the ${s.first429.window} window ran out ${(s.first429.atMs / 1000).toFixed(1)} s in`);
    if (s.model === "open" && (s.late > 0 || s.unsent > 0)) lines.push(`  ${s.name}: the generator sent ${s.late} request(s) late and ${s.unsent} not at all (their latency counts from the intended time; many mean the generator or this machine was the limit)`);
    for (const n of s.notes) lines.push(`  ${s.name}: ${n}`);
  }
  if (report.baseline) {
    for (const r of report.baseline.regressions) {
      lines.push(`  regression: ${r.scenario} ${r.figure} ${+r.current.toFixed(1)} vs baseline ${+r.baseline.toFixed(1)} (${r.worsePct.toFixed(1)}% worse, limit ${report.baseline.maxRegressionPct}%)`);
    }
    if (report.baseline.missing.length) lines.push(`  not in the baseline (not compared): ${report.baseline.missing.join(", ")}`);
  }
  lines.push(report.passed ? "load: passed" : `load: FAILED; reproduce with: ${report.reproduce}`);
  return lines.join("\n") + "\n";
}
