/** The planner's terminal summary: per point and endpoint, every figure with its interval, then the checks and notes. */
import { dur, est, num, usd } from "./plan-format.ts";
import type { PlanEndpointFigures, PlanPoint, PlanReport } from "./plan-report.ts";

function paramsText(p: PlanPoint): string {
  const entries = Object.entries(p.params);
  return entries.length === 0 ? "" : entries.map(([k, v]) => `${k}=${v}`).join(" ");
}

function endpointLines(e: PlanEndpointFigures): string[] {
  const j = e.jobs;
  const c = e.config;
  const d = (x: PlanEndpointFigures["delayMs"]) =>
    `p50 ${est(x.p50, dur)}  p90 ${est(x.p90, dur)}  p99 ${est(x.p99, dur)}  mean ${est(x.mean, dur)}  max ${est(x.max, dur)}`;
  const unfinished = j.unfinishedQueued.mean + j.unfinishedRunning.mean;
  return [
    `  ${e.endpoint}: ${c.gpuCount}× ${c.gpuTypeIds.join(" | ")}, workers ${c.workersMin}..${c.workersMax}, ${c.scaler}, idle timeout ${dur(c.idleTimeoutMs)}`,
    `    jobs       ${est(j.submitted)} submitted per seed: completed ${est(j.completed)}, failed ${est(j.failed)}, timed out ${est(j.timedOut)}, ` +
      `cancelled ${est(j.cancelled)}, expired ${est(j.expired)}, unfinished at the horizon ${est(j.unfinishedQueued)} queued + ${est(j.unfinishedRunning)} running` +
      (unfinished > 0 ? ` (age p50 ${est(e.unfinishedAgeMs.p50, dur)}, oldest ${est(e.unfinishedAgeMs.max, dur)})` : ""),
    `    delay      ${d(e.delayMs)}  (${num(e.delayMs.mean.n > 0 ? (100 * (j.completed.mean + j.failed.mean + j.timedOut.mean + j.unfinishedRunning.mean)) / Math.max(1, j.submitted.mean) : 0)}% of jobs started)`,
    ...(j.unfinishedQueued.mean > 0 ? [`    delay, all ${d(e.delayAllMs)}  (jobs still queued counted by their age so far)`] : []),
    `    execution  ${d(e.executionMs)}`,
    `    cold start ${est(e.coldStarts.count)} per seed, p99 ${est(e.coldStarts.p99Ms, dur)}; placement failures ${est(e.placementFailures)}`,
    `    workers    mean ${est(e.workers.mean)}, max ${est(e.workers.max)}; queue mean ${est(e.queue.mean)}, max ${est(e.queue.max)}; throttled ${est(e.throttledWorkerMinutes)} worker-minutes`,
    `    held by    ${e.limit === null ? "nothing: no job waited" : e.limit.text}`,
    `    cost       ${est(e.costUsd, usd)} for ${est(e.gpuSeconds)} GPU-seconds; ${e.costPer1000 === null ? "no job completed" : `${est(e.costPer1000, usd)} per 1,000 jobs`}`,
  ];
}

export function renderPlanSummary(r: PlanReport): string {
  const seeds = r.seeds.length === 1 ? `seed ${r.seeds[0]}` : `${r.seeds.length} seeds (${r.seeds[0]}..${r.seeds[r.seeds.length - 1]})`;
  const lines = [
    `cpsim plan: ${r.scenario}, ${seeds}, ${r.hours} virtual hours${r.warmupMinutes > 0 ? ` (first ${r.warmupMinutes} min left out)` : ""}`,
    `  figures per seed: mean [95% interval across seeds]; ${r.percentileResolution}`,
  ];
  for (const p of r.points) {
    const params = paramsText(p);
    if (r.points.length > 1 || params !== "") {
      lines.push("", `point ${p.index + 1}/${r.points.length}: ${params}${p.slo === undefined ? "" : p.slo.pass ? "  (meets the SLO)" : "  (misses the SLO)"}`);
    } else lines.push("");
    for (const e of p.endpoints) lines.push(...endpointLines(e));
  }
  if (r.find !== null) lines.push("", `find: ${r.find.text}`);
  if (r.checks.length > 0) {
    lines.push("", "cross-checks:");
    for (const c of r.checks) lines.push(`  ${c.ok === true ? "ok  " : c.ok === false ? "WARN" : "n/a "} ${c.endpoint}${r.points.length > 1 ? ` (point ${c.point + 1})` : ""}: ${c.message}`);
  }
  // A failed check is a "warning:" note too (for JSON readers); here it was printed once already, as WARN above.
  const notes = r.checks.length > 0 ? r.notes.filter((n) => !n.startsWith("warning:")) : r.notes;
  if (notes.length > 0) lines.push("", ...notes.map((n) => `note: ${n}`));
  return lines.join("\n") + "\n";
}
