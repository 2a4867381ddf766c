/** The terminal table printed at the end of `cpsim load`: one row per scenario, then what failed. */
import { formatBytes, formatMicros, statusClasses, type LoadComparison, type LoadReport } from "./load-report.ts";
import { renderTextTable, type TextColumn } from "./text-table.ts";

const COLUMNS: TextColumn[] = [
  { header: "scenario", flex: true, min: 10 },
  { header: "model", flex: true, min: 6 },
  { header: "req", align: "right", flex: true, optional: true, min: 7 },
  { header: "req/s", align: "right" },
  { header: "p50", align: "right" },
  { header: "p90", align: "right", flex: true, optional: true, min: 6 },
  { header: "p99", align: "right" },
  { header: "p99.9", align: "right", flex: true, optional: true, min: 6 },
  { header: "max", align: "right", flex: true, optional: true, min: 8 },
  { header: "bytes/s", align: "right", flex: true, optional: true, min: 8 },
  { header: "2xx", align: "right" },
  { header: "4xx", align: "right" },
  { header: "5xx", align: "right" },
  { header: "429", align: "right" },
  { header: "errors", align: "right" },
  { header: "checks", align: "right", flex: true, optional: true, min: 6 },
  { header: "result" },
];

export function renderLoadTable(report: LoadReport, width = 120): string {
  const rows = report.scenarios.map((s) => {
    if (s.skipped) return [s.name, "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "skipped"];
    const passes = s.checks.reduce((a, c) => a + c.passes, 0);
    const total = passes + s.checks.reduce((a, c) => a + c.fails, 0);
    // Every unexpected status and every request without an answer (older reports: the latter only).
    const errors = s.failed ?? Object.values(s.errors).reduce((a, b) => a + b, 0);
    const cls = statusClasses(s.statuses);
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
      String(cls.s2xx + cls.s3xx),
      String(cls.s4xx),
      String(cls.s5xx),
      String(cls.s429),
      String(errors),
      total === 0 ? "-" : `${((passes / total) * 100).toFixed(total === passes ? 0 : 2)}%`,
      s.passed ? "ok" : "FAIL",
    ];
  });
  const lines = [renderTextTable(COLUMNS, rows, width)];
  for (const s of report.scenarios) {
    if (s.skipped) {
      lines.push(`  ${s.name}: skipped: ${s.skipped}`);
      continue;
    }
    for (const t of s.thresholds) if (!t.ok) lines.push(`  ${s.name}: threshold ${t.metric} ${t.expression} failed (actual ${t.actual === undefined ? "none" : +t.actual.toFixed(4)})`);
    for (const c of s.checks) if (c.fails > 0) lines.push(`  ${s.name}: check "${c.name}" failed ${c.fails} of ${c.passes + c.fails}${c.detail ? ` (${c.detail})` : ""}`);
    if (s.first429) lines.push(`  ${s.name}: ${s.rateLimited} answers were 429; the ${s.first429.window} window ran out ${(s.first429.atMs / 1000).toFixed(1)} s in`);
    if (s.model === "open" && (s.late > 0 || s.unsent > 0)) lines.push(`  ${s.name}: the generator sent ${s.late} request(s) late and ${s.unsent} not at all (their latency counts from the intended time; many mean the generator or this machine was the limit)`);
    for (const n of s.notes) lines.push(`  ${s.name}: ${n}`);
  }
  if (report.baseline) {
    const b = report.baseline;
    if (b.comparisons?.length) {
      lines.push(`  against the baseline ${b.file} (a figure more than ${b.maxRegressionPct}% worse fails):`);
      for (const c of b.comparisons) lines.push(`    ${comparisonLine(c)}`);
    }
    for (const r of b.regressions) {
      lines.push(`  regression: ${r.scenario} ${r.figure} ${+r.current.toFixed(1)} vs baseline ${+r.baseline.toFixed(1)} (${r.worsePct.toFixed(1)}% worse, limit ${b.maxRegressionPct}%)`);
    }
    if (report.baseline.missing.length) lines.push(`  not in the baseline (not compared): ${report.baseline.missing.join(", ")}`);
  }
  if (report.scenarios.length > 0 && report.scenarios.every((s) => s.skipped)) lines.push("  every scenario was skipped: nothing was measured against this target");
  lines.push(report.passed ? "load: passed" : `load: FAILED; reproduce with: ${report.reproduce}`);
  return lines.join("\n") + "\n";
}

function figure(name: string, v: number): string {
  return name.endsWith("_us") ? formatMicros(v) : `${+v.toFixed(1)}`;
}

/** `run-small p99_us 1.90 ms (baseline 1.00 ms, +90.0%) REGRESSED`, for every figure compared. */
function comparisonLine(c: LoadComparison): string {
  const pct = Number.isFinite(c.changePct) ? `${c.changePct >= 0 ? "+" : ""}${c.changePct.toFixed(1)}%` : "new";
  const verdict = !c.judged ? "not judged (open model: the rate is set, not measured)" : c.regressed ? "REGRESSED" : "ok";
  return `${c.scenario} ${c.figure} ${figure(c.figure, c.current)} (baseline ${figure(c.figure, c.baseline)}, ${pct}) ${verdict}`;
}
