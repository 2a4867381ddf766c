/**
 * report.html of `cpsim load`: the summary table, latency over time, answers per second by status
 * and the latency distribution of every scenario (vega-lite charts rendered to SVG when the report
 * is written, so the page needs no script and no network), then each scenario's checks,
 * thresholds and per-second series. The chart code is loaded only when a report is rendered.
 */
import type { TopLevelSpec } from "vega-lite";
import { escapeHtml as h } from "./escape.ts";
import { formatBytes, formatMicros, statusClasses, type LoadReport, type LoadScenarioResult } from "./load-report.ts";

/** Rows of a scenario's per-second table shown in the page (the JSON report and --out hold them all). */
const MAX_TABLE_SECONDS = 600;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#1d2430;padding:0 16px}
h1{font-size:22px}h2{font-size:18px;margin-top:32px}h3{font-size:15px}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{padding:4px 8px;border-bottom:1px solid #dde3ea;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}.ok{color:#17803d}.fail{color:#b42318;font-weight:600}
.verdict{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff}.verdict.ok{background:#17803d;color:#fff}.verdict.fail{background:#b42318;color:#fff}
.charts{display:flex;flex-wrap:wrap;gap:16px}.charts figure{margin:0}dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}dt{color:#5b6776}dd{margin:0}
`;

const SCRIPT = `document.body.setAttribute("data-ready", "true");`;

function latencyOverTime(report: LoadReport): TopLevelSpec {
  const values = report.scenarios.flatMap((s) =>
    // A second without answers has no latency to draw (0 would read as "fast").
    s.series.filter((r) => r.requests > 0).flatMap((r) => [
      { scenario: s.name, t: r.t, stat: "p50", ms: r.p50Us / 1000 },
      { scenario: s.name, t: r.t, stat: "p99", ms: r.p99Us / 1000 },
    ]),
  );
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: "Latency over time (per second)",
    width: 480,
    height: 240,
    data: { values },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "t", type: "quantitative", title: "seconds since the scenario started" },
      y: { field: "ms", type: "quantitative", title: "latency (ms)", scale: { type: "symlog" } },
      color: { field: "scenario", type: "nominal" },
      strokeDash: { field: "stat", type: "nominal" },
    },
  };
}

function answersOverTime(report: LoadReport): TopLevelSpec {
  const values = report.scenarios.flatMap((s) =>
    s.series.flatMap((r) => [
      { scenario: s.name, t: r.t, series: "answers", n: r.requests },
      { scenario: s.name, t: r.t, series: "429", n: r.s429 ?? 0 },
      { scenario: s.name, t: r.t, series: "errors", n: r.failed ?? r.errors },
    ]),
  );
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: "Answers, 429s and errors per second",
    width: 480,
    height: 240,
    data: { values },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "t", type: "quantitative", title: "seconds since the scenario started" },
      y: { field: "n", type: "quantitative", title: "per second" },
      color: { field: "scenario", type: "nominal" },
      strokeDash: { field: "series", type: "nominal" },
    },
  };
}

function distribution(report: LoadReport): TopLevelSpec {
  // Percentiles on a "nines" axis: x = -log10(1 - p/100), so 90, 99, 99.9 are evenly spaced.
  const values = report.scenarios.flatMap((s) =>
    s.percentiles.filter((p) => p.percentile < 100).map((p) => ({ scenario: s.name, nines: -Math.log10(1 - p.percentile / 100), percentile: p.percentile, ms: p.us / 1000 })),
  );
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: "Latency distribution (HDR percentiles)",
    width: 480,
    height: 240,
    data: { values },
    mark: { type: "line", interpolate: "step-after" },
    encoding: {
      x: { field: "nines", type: "quantitative", title: "percentile (1 = p90, 2 = p99, 3 = p99.9)" },
      y: { field: "ms", type: "quantitative", title: "latency (ms)", scale: { type: "symlog" } },
      color: { field: "scenario", type: "nominal" },
    },
  };
}

function summaryTable(report: LoadReport): string {
  const row = (s: LoadScenarioResult) => {
    if (s.skipped) return `<tr data-scenario="${h(s.name)}"><td>${h(s.name)}</td><td colspan="15">${h(`skipped: ${s.skipped}`)}</td><td>skipped</td></tr>`;
    const errors = s.failed ?? Object.values(s.errors).reduce((a, b) => a + b, 0);
    const c = statusClasses(s.statuses);
    return `<tr data-scenario="${h(s.name)}"><td>${h(s.name)}</td><td>${h(s.model === "open" ? `open ${s.rate}/s` : s.model)}</td><td>${s.requests}</td><td>${s.rps.toFixed(0)}</td><td>${h(formatMicros(s.latency.p50Us))}</td><td>${h(formatMicros(s.latency.p90Us))}</td><td>${h(formatMicros(s.latency.p99Us))}</td><td>${h(formatMicros(s.latency.p999Us))}</td><td>${h(formatMicros(s.latency.maxUs))}</td><td>${h(formatBytes(s.bytesPerSecond))}/s</td><td>${c.s2xx + c.s3xx}</td><td>${c.s4xx}</td><td>${c.s5xx}</td><td>${c.s429}</td><td>${errors}</td><td class="${s.passed ? "ok" : "fail"}">${s.passed ? "ok" : "FAIL"}</td></tr>`;
  };
  return `<table id="summary"><thead><tr><th>scenario</th><th>model</th><th>requests</th><th>req/s</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>bytes</th><th>2xx</th><th>4xx</th><th>5xx</th><th>429</th><th>errors</th><th>result</th></tr></thead><tbody>${report.scenarios.map(row).join("")}</tbody></table>`;
}

function secondsTable(s: LoadScenarioResult): string {
  if (s.series.length === 0) return "";
  const rows = s.series
    .slice(0, MAX_TABLE_SECONDS)
    .map((r) => `<tr><td>${r.t}</td><td>${r.requests}</td><td>${r.s2xx ?? "-"}</td><td>${r.s4xx ?? "-"}</td><td>${r.s5xx ?? "-"}</td><td>${r.s429 ?? "-"}</td><td>${r.failed ?? r.errors}</td><td>${h(formatMicros(r.p50Us))}</td><td>${r.p90Us === undefined ? "-" : h(formatMicros(r.p90Us))}</td><td>${h(formatMicros(r.p99Us))}</td><td>${h(formatMicros(r.maxUs))}</td></tr>`)
    .join("");
  const more = s.series.length > MAX_TABLE_SECONDS ? `<p>${s.series.length - MAX_TABLE_SECONDS} more seconds in report.json.</p>` : "";
  return `<details class="seconds"><summary>per second (${s.series.length})</summary><table><thead><tr><th>t (s)</th><th>answers</th><th>2xx</th><th>4xx</th><th>5xx</th><th>429</th><th>errors</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr></thead><tbody>${rows}</tbody></table>${more}</details>`;
}

function details(s: LoadScenarioResult): string {
  if (s.skipped) return `<section class="scenario" id="scenario-${h(s.name)}"><h3>${h(s.name)} <span class="verdict">skipped</span></h3><p>${h(s.description)}</p><p>${h(s.skipped)}</p></section>`;
  const checks = s.checks
    .map((c) => `<tr><td>${h(c.name)}</td><td>${c.passes}</td><td class="${c.fails ? "fail" : "ok"}">${c.fails}</td><td>${h(c.detail ?? "")}</td></tr>`)
    .join("");
  const thresholds = s.thresholds
    .map((t) => `<tr><td>${h(t.metric)}</td><td>${h(t.expression)}</td><td>${t.actual === undefined ? "-" : h(String(+t.actual.toFixed(4)))}</td><td class="${t.ok ? "ok" : "fail"}">${t.ok ? "ok" : "FAIL"}</td></tr>`)
    .join("");
  const statuses = Object.entries(s.statuses).map(([k, v]) => `${h(k)}: ${v}`).join(", ");
  const errors = Object.entries(s.errors).filter(([, v]) => v > 0).map(([k, v]) => `${h(k)}: ${v}`).join(", ") || "none";
  const rl = s.first429 ? `<dt>rate limited</dt><dd>${s.rateLimited} answers were 429; the ${h(s.first429.window)} window ran out ${(s.first429.atMs / 1000).toFixed(1)} s in</dd>` : "";
  const model = s.model === "open" ? `open model at ${s.rate} req/s (latency from the intended send time); ${s.late} sent late, ${s.unsent} not sent` : s.model === "closed" ? `closed model, ${s.connections} connections × pipelining ${s.pipelining}` : "k6";
  return `<section class="scenario" id="scenario-${h(s.name)}"><h3>${h(s.name)} <span class="verdict ${s.passed ? "ok" : "fail"}">${s.passed ? "passed" : "failed"}</span></h3><p>${h(s.description)}</p>
<dl><dt>model</dt><dd>${h(model)}</dd><dt>statuses</dt><dd>${statuses || "none"}</dd><dt>errors</dt><dd>${errors}</dd>${rl}${s.notes.map((n) => `<dt>note</dt><dd>${h(n)}</dd>`).join("")}</dl>
<table><thead><tr><th>check</th><th>passes</th><th>fails</th><th>detail</th></tr></thead><tbody>${checks}</tbody></table>
<table><thead><tr><th>threshold</th><th>expression</th><th>actual</th><th>result</th></tr></thead><tbody>${thresholds}</tbody></table>${secondsTable(s)}</section>`;
}

function baselineSection(report: LoadReport): string {
  const b = report.baseline;
  if (!b) return "";
  const fig = (name: string, v: number) => (name.endsWith("_us") ? formatMicros(v) : String(+v.toFixed(1)));
  const all = (b.comparisons ?? [])
    .map((c) => {
      const pct = Number.isFinite(c.changePct) ? `${c.changePct >= 0 ? "+" : ""}${c.changePct.toFixed(1)}%` : "new";
      const verdict = !c.judged ? "not judged" : c.regressed ? "REGRESSED" : "ok";
      return `<tr><td>${h(c.scenario)}</td><td>${h(c.figure)}</td><td>${h(fig(c.figure, c.baseline))}</td><td>${h(fig(c.figure, c.current))}</td><td>${h(pct)}</td><td class="${c.regressed ? "fail" : "ok"}">${verdict}</td></tr>`;
    })
    .join("");
  const rows = b.regressions.map((r) => `<tr><td>${h(r.scenario)}</td><td>${h(r.figure)}</td><td>${+r.baseline.toFixed(1)}</td><td>${+r.current.toFixed(1)}</td><td class="fail">${r.worsePct.toFixed(1)}%</td></tr>`).join("");
  const compared = all ? `<table id="comparisons"><thead><tr><th>scenario</th><th>figure</th><th>baseline</th><th>now</th><th>change</th><th>result</th></tr></thead><tbody>${all}</tbody></table>` : "";
  return `<h2>Baseline</h2><p>Compared with ${h(b.file)}; a figure more than ${b.maxRegressionPct}% worse fails the run.</p>${compared}${rows ? `<table id="regressions"><thead><tr><th>scenario</th><th>figure</th><th>baseline</th><th>now</th><th>worse by</th></tr></thead><tbody>${rows}</tbody></table>` : "<p class=\"ok\">No regression.</p>"}`;
}

export async function renderLoadHtml(report: LoadReport): Promise<string> {
  // Loaded here, not at the top: importing the package must not load vega (see reports/vega-svg.ts).
  const { vegaLiteToSvg } = await import("./vega-svg.ts");
  const [overTime, answers, dist] = await Promise.all([vegaLiteToSvg(latencyOverTime(report)), vegaLiteToSvg(answersOverTime(report)), vegaLiteToSvg(distribution(report))]);
  const verdict = report.passed ? `<span class="verdict ok">PASSED</span>` : `<span class="verdict fail">FAILED</span>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><title>cpsim load report</title><style>${STYLE}</style></head>
<body><h1>cpsim load ${verdict}</h1>
<dl><dt>target</dt><dd>${h(report.target.baseUrl)}${report.target.embedded ? " (embedded emulator)" : ""}</dd><dt>engine</dt><dd>${h(report.engine)}</dd><dt>seed</dt><dd>${report.seed}</dd><dt>started</dt><dd>${h(report.startedAt)}</dd><dt>tool</dt><dd>${h(report.tool)} ${h(report.version)}</dd><dt>reproduce</dt><dd><code>${h(report.reproduce)}</code></dd>${(report.targetRead ?? []).map((n) => `<dt>target read</dt><dd>${h(n)}</dd>`).join("")}</dl>
<h2>Summary</h2>${summaryTable(report)}
<h2>Charts</h2><div class="charts"><figure id="latency-over-time">${overTime}</figure><figure id="answers-over-time">${answers}</figure><figure id="latency-distribution">${dist}</figure></div>
${baselineSection(report)}
<h2>Scenarios</h2>${report.scenarios.map(details).join("\n")}
<script>${SCRIPT}</script></body></html>
`;
}
