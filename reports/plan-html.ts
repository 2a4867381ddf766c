/**
 * The planner's report.html: the figures as tables and vega-lite charts (time series of queue and
 * workers, delay distributions, sweep curves with 95% bands) rendered to SVG here, so the page
 * needs no script, font or network to show them.
 */
import type * as vl from "vega-lite";
import { escapeHtml } from "./escape.ts";
import { dur, est, num, usd } from "./plan-format.ts";
import type { PlanEndpointFigures, PlanEstimate, PlanPoint, PlanReport } from "./plan-report.ts";
import { vegaLiteToSvg as svg } from "./vega-svg.ts";

/** At most this many points get their own time-series and delay charts. */
const CHARTED_POINTS = 6;

function timeSeries(e: PlanEndpointFigures): vl.TopLevelSpec {
  const s = e.series;
  const values: Array<{ minute: number; series: string; value: number }> = [];
  s.queued.forEach((q, i) => {
    const minute = Number(((s.startS + i * s.stepS) / 60).toFixed(3));
    values.push({ minute, series: "queued jobs", value: q }, { minute, series: "workers with GPUs", value: s.workers[i] }, { minute, series: "throttled workers", value: s.throttled[i] });
  });
  // One row per series, each with its own y scale: a queue of thousands would flatten the workers.
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: `${e.endpoint}: queue and workers over time (mean across seeds)`,
    data: { values },
    facet: { row: { field: "series", type: "nominal", title: null, sort: ["queued jobs", "workers with GPUs", "throttled workers"] } },
    spec: {
      width: 620,
      height: 90,
      mark: { type: "line", interpolate: "step-after" },
      encoding: {
        x: { field: "minute", type: "quantitative", title: "virtual minutes" },
        y: { field: "value", type: "quantitative", title: null },
        color: { field: "series", type: "nominal", legend: null },
      },
    },
    resolve: { scale: { y: "independent" } },
  };
}

function delayChart(e: PlanEndpointFigures): vl.TopLevelSpec {
  // Coarse bins are quarter-octaves: each bar spans [ms, ms * 2^(1/4)).
  const values = e.delayHistogram.map(([ms, count]) => ({ ms: Math.max(ms, 0.5), end: Math.max(ms, 0.5) * 2 ** 0.25, count }));
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: `${e.endpoint}: queue delay distribution (all seeds)`,
    width: 620,
    height: 160,
    data: { values },
    mark: { type: "rect" },
    encoding: {
      x: { field: "ms", type: "quantitative", scale: { type: "log" }, title: "delay, ms (log; bins of 2^¼; below 1 ms shown at 0.5)" },
      x2: { field: "end" },
      y: { field: "count", type: "quantitative", title: "jobs" },
      y2: { datum: 0 },
    },
  };
}

function sweepChart(param: string, points: readonly PlanPoint[], endpoint: string, title: string, pick: (e: PlanEndpointFigures) => PlanEstimate | null): vl.TopLevelSpec {
  const values = points.flatMap((p) => {
    const e = p.endpoints.find((x) => x.endpoint === endpoint);
    const x = p.params[param];
    const m = e === undefined ? null : pick(e);
    return m === null || x === undefined ? [] : [{ x, mean: m.mean, lo: m.lo ?? m.mean, hi: m.hi ?? m.mean }];
  });
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: `${endpoint}: ${title} by ${param} (line: mean, band: 95% interval)`,
    width: 300,
    height: 180,
    data: { values },
    encoding: { x: { field: "x", type: "quantitative", title: param } },
    layer: [
      { mark: { type: "area", opacity: 0.25 }, encoding: { y: { field: "lo", type: "quantitative", title }, y2: { field: "hi" } } },
      { mark: { type: "line", point: true }, encoding: { y: { field: "mean", type: "quantitative" } } },
    ],
  };
}

function figureRows(e: PlanEndpointFigures): string {
  const j = e.jobs;
  const row = (k: string, v: string) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`;
  const d = (x: PlanEndpointFigures["delayMs"]) => `p50 ${est(x.p50, dur)} · p90 ${est(x.p90, dur)} · p99 ${est(x.p99, dur)} · mean ${est(x.mean, dur)} · max ${est(x.max, dur)}`;
  return [
    row("jobs submitted", est(j.submitted)),
    row("completed / failed / timed out", `${est(j.completed)} / ${est(j.failed)} / ${est(j.timedOut)}`),
    row("cancelled / expired", `${est(j.cancelled)} / ${est(j.expired)}`),
    row("unfinished at the horizon", `${est(j.unfinishedQueued)} queued + ${est(j.unfinishedRunning)} running; oldest ${est(e.unfinishedAgeMs.max, dur)}`),
    row("delay (started jobs)", d(e.delayMs)),
    row("delay (every job, queued ones by age)", d(e.delayAllMs)),
    row("execution", d(e.executionMs)),
    row("cold starts", `${est(e.coldStarts.count)}, p99 ${est(e.coldStarts.p99Ms, dur)}`),
    row("placement failures", est(e.placementFailures)),
    row("workers (mean, max)", `${est(e.workers.mean)}, ${est(e.workers.max)}`),
    row("queue (mean, max)", `${est(e.queue.mean)}, ${est(e.queue.max)}`),
    row("throttled worker-minutes", est(e.throttledWorkerMinutes)),
    row("what held the queue", e.limit === null ? "nothing: no job waited" : e.limit.text),
    row("GPU-seconds", est(e.gpuSeconds)),
    row("cost", est(e.costUsd, usd)),
    row("cost per 1,000 jobs", e.costPer1000 === null ? "no job completed" : est(e.costPer1000, usd)),
  ].join("");
}

const STYLE = `
body { margin: 0; padding: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; max-width: 1100px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #d0d7de; } h3 { font-size: 15px; margin: 16px 0 6px; }
table { border-collapse: collapse; margin: 6px 0 12px; } th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #d0d7de; vertical-align: top; } th { background: #f6f8fa; font-weight: 500; }
.warn { color: #9a6700; } .ok { color: #1a7f37; } .chart svg { max-width: 100%; height: auto; } .charts { display: flex; flex-wrap: wrap; gap: 12px; }
.find { border: 1px solid #1a7f37; border-left-width: 4px; padding: 8px 12px; border-radius: 6px; }
`;

export async function renderPlanHtml(r: PlanReport): Promise<string> {
  const parts: string[] = [];
  const seeds = r.seeds.length === 1 ? `seed ${r.seeds[0]}` : `${r.seeds.length} seeds (${r.seeds[0]}..${r.seeds[r.seeds.length - 1]})`;
  parts.push(`<h1>cpsim plan: ${escapeHtml(r.scenario)}</h1>`);
  parts.push(`<p>${escapeHtml(r.description)}</p>`);
  parts.push(`<p>${escapeHtml(seeds)}, ${escapeHtml(r.hours)} virtual hours${r.warmupMinutes > 0 ? `, first ${escapeHtml(r.warmupMinutes)} minutes left out` : ""}. Figures per seed: mean [95% interval across seeds]. ${escapeHtml(r.percentileResolution)}.</p>`);
  if (r.find !== null) parts.push(`<p class="find" id="find">${escapeHtml(r.find.text)}</p>`);
  if (r.checks.length > 0 || r.notes.length > 0) {
    parts.push("<h2>Cross-checks and notes</h2><ul>");
    for (const c of r.checks) {
      const cls = c.ok === false ? "warn" : "ok";
      parts.push(`<li class="${cls}">${c.ok === false ? "warning: " : c.ok === null ? "" : "ok: "}${escapeHtml(c.endpoint)}: ${escapeHtml(c.message)}</li>`);
    }
    for (const n of r.notes) if (!n.startsWith("warning:")) parts.push(`<li>${escapeHtml(n)}</li>`);
    parts.push("</ul>");
  }
  const sweepParams = r.find !== null ? [r.find.param] : r.sweep.map((s) => s.param);
  if (sweepParams.length > 0 && r.points.length > 1) {
    parts.push("<h2>Sweep</h2>");
    for (const param of sweepParams) {
      for (const e of r.points[0].endpoints) {
        const charts = await Promise.all([
          svg(sweepChart(param, r.points, e.endpoint, "p99 delay, ms (every job)", (x) => x.delayAllMs.p99)),
          svg(sweepChart(param, r.points, e.endpoint, "cost per 1,000 jobs, USD", (x) => x.costPer1000)),
        ]);
        parts.push(`<div class="charts">${charts.map((c) => `<div class="chart">${c}</div>`).join("")}</div>`);
      }
    }
    const header = ["point", ...Object.keys(r.points[0].params), "endpoint", "p99 delay (every job)", "mean delay", "cost per 1,000", "workers mean", "held by", ...(r.find !== null ? ["SLO"] : [])];
    parts.push(`<table><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr>`);
    for (const p of r.points) {
      for (const e of p.endpoints) {
        const cells = [
          String(p.index + 1),
          ...Object.values(p.params).map(String),
          e.endpoint,
          est(e.delayAllMs.p99, dur),
          est(e.delayAllMs.mean, dur),
          e.costPer1000 === null ? "n/a" : est(e.costPer1000, usd),
          est(e.workers.mean),
          e.limit?.name ?? "-",
          ...(p.slo === undefined ? [] : [p.slo.pass ? "meets" : "misses"]),
        ];
        parts.push(`<tr>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`);
      }
    }
    parts.push("</table>");
  }
  for (const p of r.points.slice(0, CHARTED_POINTS)) {
    const params = Object.entries(p.params).map(([k, v]) => `${k}=${v}`).join(" ");
    parts.push(`<h2>${r.points.length > 1 ? `Point ${p.index + 1}: ${escapeHtml(params)}` : "Figures"}</h2>`);
    for (const e of p.endpoints) {
      const c = e.config;
      parts.push(`<h3 id="endpoint-${escapeHtml(e.endpoint)}-${p.index}">${escapeHtml(e.endpoint)}</h3>`);
      parts.push(`<p>${escapeHtml(`${c.gpuCount}× ${c.gpuTypeIds.join(" | ")}, workers ${c.workersMin}..${c.workersMax}, ${c.scaler}, idle timeout ${dur(c.idleTimeoutMs)}`)}</p>`);
      parts.push(`<table>${figureRows(e)}</table>`);
      const charts = await Promise.all([svg(timeSeries(e)), svg(delayChart(e))]);
      parts.push(`<div class="charts">${charts.map((ch) => `<div class="chart">${ch}</div>`).join("")}</div>`);
    }
  }
  if (r.points.length > CHARTED_POINTS) parts.push(`<p>${num(r.points.length - CHARTED_POINTS)} more points: see plan.json and plan.csv.</p>`);
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
    `<title>cpsim plan: ${escapeHtml(r.scenario)}</title><style>${STYLE}</style></head>`,
    "<body>",
    ...parts,
    '<script>document.body.setAttribute("data-ready", "true");</script>',
    "</body></html>",
    "",
  ].join("\n");
}
