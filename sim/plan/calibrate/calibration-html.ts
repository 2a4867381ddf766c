/**
 * The calibration's HTML report: the fitted values with their intervals and sources, the run-time
 * histogram with the fitted family's expected counts, its Q-Q plot, and delay percentiles by load
 * level (measured points, predicted medians with their 95% band), drawn offline as SVG by vega-lite.
 */
import type { TopLevelSpec } from "vega-lite";
import { escapeHtml } from "../../../reports/escape.ts";
import { HTML_STYLE } from "../../../reports/html-assets.ts";
import { vegaLiteToSvg } from "../../../reports/vega-svg.ts";
import type { Scenario } from "../scenario.ts";
import type { Calibration } from "./calibrate.ts";
import { measuredPercentiles } from "./calibrate.ts";
import { cdfOf, quantileOf } from "./distributions.ts";
import type { JobMeasurement } from "./measurement.ts";
import { predict } from "./predict.ts";
import { percentiles } from "./sample-stats.ts";
import type { UslFit } from "./usl.ts";

function histogramSpec(runTimes: number[], c: Calibration, s: Scenario): TopLevelSpec {
  const dist = s.endpoints?.[0]?.executionMs;
  const [lo, hi] = percentiles(runTimes, [0, 0.995]);
  const bins = 40;
  const width = Math.max((hi - lo) / bins, 1e-9);
  const counts = new Array<number>(bins).fill(0);
  for (const x of runTimes) if (x <= hi) counts[Math.min(bins - 1, Math.floor((x - lo) / width))]++;
  const cdf = dist !== undefined ? cdfOf(dist) : undefined;
  const values = counts.map((n, i) => {
    const a = lo + i * width;
    return { ms: a + width / 2, measured: n, fitted: cdf !== undefined ? runTimes.length * (cdf(a + width) - cdf(a)) : null };
  });
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: `Run times: ${runTimes.length} jobs, fitted ${c.runTimes[0]?.chosen ?? ""}`,
    width: 480,
    height: 220,
    data: { values },
    layer: [
      { mark: { type: "bar", opacity: 0.6 }, encoding: { x: { field: "ms", type: "quantitative", title: "run time, ms" }, y: { field: "measured", type: "quantitative", title: "jobs" } } },
      { mark: { type: "line", color: "#cf222e" }, encoding: { x: { field: "ms", type: "quantitative" }, y: { field: "fitted", type: "quantitative" } } },
    ],
  };
}

function qqSpec(runTimes: number[], s: Scenario): TopLevelSpec {
  const dist = s.endpoints?.[0]?.executionMs;
  const sorted = [...runTimes].sort((a, b) => a - b);
  const n = sorted.length;
  const step = Math.max(1, Math.floor(n / 200));
  const values: Array<{ fitted: number; measured: number }> = [];
  if (dist !== undefined) for (let i = 0; i < n; i += step) values.push({ fitted: quantileOf(dist, (i + 0.5) / n), measured: sorted[i] });
  const top = Math.max(...values.map((v) => Math.max(v.fitted, v.measured)), 1);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: "Q-Q: measured run times against the fitted distribution",
    width: 300,
    height: 300,
    layer: [
      { data: { values }, mark: { type: "point", filled: true, size: 12 }, encoding: { x: { field: "fitted", type: "quantitative", title: "fitted quantile, ms" }, y: { field: "measured", type: "quantitative", title: "measured quantile, ms" } } },
      { data: { values: [{ a: 0 }, { a: top }] }, mark: { type: "line", color: "#6e7781" }, encoding: { x: { field: "a", type: "quantitative" }, y: { field: "a", type: "quantitative" } } },
    ],
  };
}

function delaySpec(s: Scenario, c: Calibration, ms: readonly JobMeasurement[]): TopLevelSpec {
  const base = c.measured.perSecond;
  const predicted = [0.5, 0.75, 1, 1.25, 1.5].flatMap((f) => {
    const p = predict({ scenario: s, label: s.name, traces: {} }, { perSecond: base * f, seed: c.seed, runs: 12 });
    return (["p50", "p90", "p99"] as const).map((k) => ({ rate: p.perSecond, percentile: k, median: p.delayMs[k].median, lo: p.delayMs[k].lo, hi: p.delayMs[k].hi }));
  });
  const measured = ms.flatMap((m) => {
    const d = measuredPercentiles([m]).delayMs;
    return (["p50", "p90", "p99"] as const).map((k) => ({ rate: m.offeredPerSecond, percentile: k, ms: d[k] }));
  });
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: "Queueing delay by load level: predicted (line, 95% band) and measured (points)",
    width: 480,
    height: 260,
    layer: [
      { data: { values: predicted }, mark: { type: "area", opacity: 0.15 }, encoding: { x: { field: "rate", type: "quantitative", title: "jobs/s" }, y: { field: "lo", type: "quantitative", title: "delay, ms" }, y2: { field: "hi" }, color: { field: "percentile", type: "nominal" } } },
      { data: { values: predicted }, mark: "line", encoding: { x: { field: "rate", type: "quantitative" }, y: { field: "median", type: "quantitative" }, color: { field: "percentile", type: "nominal" } } },
      { data: { values: measured }, mark: { type: "point", filled: true, size: 60 }, encoding: { x: { field: "rate", type: "quantitative" }, y: { field: "ms", type: "quantitative" }, color: { field: "percentile", type: "nominal" } } },
    ],
  };
}

function uslSpec(u: UslFit): TopLevelSpec {
  const maxN = Math.max(...u.points.map((p) => p.concurrency)) * 2;
  const curve = Array.from({ length: 60 }, (_, i) => {
    const n = 1 + ((maxN - 1) * i) / 59;
    return { n, x: (u.lambda * n) / (1 + u.sigma * (n - 1) + u.kappa * n * (n - 1)) };
  });
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: "Throughput by concurrency: USL fit, each count's median and the range of its rounds",
    width: 480,
    height: 240,
    layer: [
      { data: { values: curve }, mark: "line", encoding: { x: { field: "n", type: "quantitative", title: "concurrency" }, y: { field: "x", type: "quantitative", title: "requests/s" } } },
      { data: { values: u.points.map((p) => ({ n: p.concurrency, lo: p.min ?? p.throughput, hi: p.max ?? p.throughput })) }, mark: "rule", encoding: { x: { field: "n", type: "quantitative" }, y: { field: "lo", type: "quantitative" }, y2: { field: "hi" } } },
      { data: { values: u.points.map((p) => ({ n: p.concurrency, x: p.throughput })) }, mark: { type: "point", filled: true }, encoding: { x: { field: "n", type: "quantitative" }, y: { field: "x", type: "quantitative" } } },
    ],
  };
}

export async function renderCalibrationHtml(s: Scenario, c: Calibration, ms: readonly JobMeasurement[], usl?: UslFit): Promise<string> {
  const runTimes = ms.flatMap((m) => m.jobs).filter((j) => j.status === "COMPLETED" && j.executionMs !== undefined).map((j) => j.executionMs as number);
  const charts = [await vegaLiteToSvg(histogramSpec(runTimes, c, s)), await vegaLiteToSvg(qqSpec(runTimes, s)), await vegaLiteToSvg(delaySpec(s, c, ms))];
  if (usl !== undefined) charts.push(await vegaLiteToSvg(uslSpec(usl)));
  const rows = Object.entries(c.values)
    .map(([k, v]) => `<tr><td class="id">${escapeHtml(k)}</td><td><code>${escapeHtml(JSON.stringify(v.value))}</code></td><td class="num">${v.interval !== undefined ? escapeHtml(`${v.interval[0]} .. ${v.interval[1]}`) : ""}</td><td>${escapeHtml(v.source)}</td><td>${escapeHtml(v.method)}${v.note !== undefined ? `<br><small>${escapeHtml(v.note)}</small>` : ""}</td></tr>`)
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>cpsim calibration: ${escapeHtml(s.name)}</title><style>${HTML_STYLE}</style></head>
<body><h1>Calibration: ${escapeHtml(s.name)}</h1><p>${escapeHtml(s.description)}</p>
<h2>Fitted values</h2><table><thead><tr><th>value</th><th>fitted</th><th>95% interval</th><th>from</th><th>how</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>Charts</h2>
${charts.map((svg) => `<figure>${svg}</figure>`).join("\n")}
</body></html>
`;
}
