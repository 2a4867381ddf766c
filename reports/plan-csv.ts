/** The planner's CSV: one row per point and endpoint; every estimate as mean, lo and hi columns (lo/hi empty with one seed). */
import type { PlanEndpointFigures, PlanEstimate, PlanReport } from "./plan-report.ts";

const METRICS: ReadonlyArray<[string, (e: PlanEndpointFigures) => PlanEstimate | null]> = [
  ["submitted", (e) => e.jobs.submitted],
  ["completed", (e) => e.jobs.completed],
  ["failed", (e) => e.jobs.failed],
  ["timed_out", (e) => e.jobs.timedOut],
  ["cancelled", (e) => e.jobs.cancelled],
  ["expired", (e) => e.jobs.expired],
  ["unfinished_queued", (e) => e.jobs.unfinishedQueued],
  ["unfinished_running", (e) => e.jobs.unfinishedRunning],
  ["unfinished_age_max_ms", (e) => e.unfinishedAgeMs.max],
  ...(["p50", "p90", "p99", "mean", "max"] as const).map((s): [string, (e: PlanEndpointFigures) => PlanEstimate] => [`delay_${s}_ms`, (e) => e.delayMs[s]]),
  ...(["p50", "p90", "p99", "mean", "max"] as const).map((s): [string, (e: PlanEndpointFigures) => PlanEstimate] => [`delay_all_${s}_ms`, (e) => e.delayAllMs[s]]),
  ...(["p50", "p90", "p99", "mean", "max"] as const).map((s): [string, (e: PlanEndpointFigures) => PlanEstimate] => [`execution_${s}_ms`, (e) => e.executionMs[s]]),
  ["cold_starts", (e) => e.coldStarts.count],
  ["cold_start_p99_ms", (e) => e.coldStarts.p99Ms],
  ["placement_failures", (e) => e.placementFailures],
  ["throttled_worker_minutes", (e) => e.throttledWorkerMinutes],
  ["gpu_seconds", (e) => e.gpuSeconds],
  ["cost_usd", (e) => e.costUsd],
  ["cost_per_1000_usd", (e) => e.costPer1000],
  ["queue_mean", (e) => e.queue.mean],
  ["queue_max", (e) => e.queue.max],
  ["workers_mean", (e) => e.workers.mean],
  ["workers_max", (e) => e.workers.max],
];

function cell(v: string | number | null): string {
  if (v === null) return "";
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function renderPlanCsv(r: PlanReport): string {
  const params = [...new Set(r.points.flatMap((p) => Object.keys(p.params)))];
  const header = ["point", ...params, "endpoint", "limit", ...METRICS.flatMap(([m]) => [m, `${m}_lo`, `${m}_hi`])];
  const rows = [header.map(cell).join(",")];
  for (const p of r.points) {
    for (const e of p.endpoints) {
      const values = METRICS.flatMap(([, f]) => {
        const x = f(e);
        return x === null ? [null, null, null] : [x.mean, x.lo, x.hi];
      });
      rows.push([p.index, ...params.map((k) => p.params[k] ?? null), e.endpoint, e.limit?.name ?? null, ...values].map(cell).join(","));
    }
  }
  return rows.join("\n") + "\n";
}
