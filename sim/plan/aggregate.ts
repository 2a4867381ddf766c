/**
 * Seeds → report: each figure becomes a mean with its 95% Student t interval across seeds, the
 * time series become means per step, the limit that held each queue is named, and the Erlang C and
 * Little's law cross-checks are judged. Pure: the same seed results give the same report, byte for
 * byte, however they were computed (one process, worker threads, or shards merged).
 */
import type { PlanCheck, PlanEndpointFigures, PlanEstimate, PlanPoint, PlanReport } from "../../reports/plan-report.ts";
import { coarseBinMs, RESOLUTION } from "./log-histogram.ts";
import type { Dist, EndpointSeedResult, SeedResult } from "./seed-result.ts";
import { erlangC, erlangCMeanWait, estimate, tidy } from "./stats.ts";

/** Jobs that must wait per seed, by Erlang C, before a mean wait is judged (rarer waits make per-seed means too skewed for a t interval). */
const MIN_WAITING_JOBS = 200;

export interface ReportMeta {
  readonly scenario: string;
  readonly description: string;
  readonly seeds: readonly number[];
  readonly hours: number;
  readonly warmupMinutes: number;
  readonly sweep: PlanReport["sweep"];
  /** Parameter values of each point, by point index. */
  readonly pointParams: ReadonlyArray<Readonly<Record<string, number>>>;
}

const LIMIT_TEXT = {
  gpuStock: "GPU stock (workers throttled: no free GPUs of the endpoint's types)",
  coldStart: "cold starts (workers starting)",
  workerCap: "the worker cap",
  scaler: "the scaler (below workersMax, no worker starting)",
} as const;

function distEstimate(ds: readonly Dist[]) {
  return {
    mean: estimate(ds.map((d) => d.mean)),
    p50: estimate(ds.map((d) => d.p50)),
    p90: estimate(ds.map((d) => d.p90)),
    p99: estimate(ds.map((d) => d.p99)),
    max: estimate(ds.map((d) => d.max)),
  };
}

function endpointFigures(rs: readonly EndpointSeedResult[], stepS: number, warmupS: number): PlanEndpointFigures {
  const e = (f: (r: EndpointSeedResult) => number): PlanEstimate => estimate(rs.map(f));
  const heldBy = {
    gpuStock: e((r) => r.heldBy.gpuStock),
    coldStart: e((r) => r.heldBy.coldStart),
    workerCap: e((r) => r.heldBy.workerCap),
    scaler: e((r) => r.heldBy.scaler),
  };
  const total = heldBy.gpuStock.mean + heldBy.coldStart.mean + heldBy.workerCap.mean + heldBy.scaler.mean;
  let limit: PlanEndpointFigures["limit"] = null;
  if (total > 0) {
    const [name, est] = (Object.entries(heldBy) as Array<[keyof typeof heldBy, PlanEstimate]>).reduce((a, b) => (b[1].mean > a[1].mean ? b : a));
    const share = tidy(est.mean / total);
    const cfg = rs[0].config;
    const detail = name === "workerCap" ? ` (workersMax ${cfg.workersMax})` : name === "gpuStock" ? ` (${cfg.gpuTypeIds.join(", ")})` : "";
    limit = { name, share, text: `${Math.round(share * 100)}% of the waiting happened at ${LIMIT_TEXT[name]}${detail}` };
  }
  const costs = rs.map((r) => r.costPer1000).filter((x): x is number => x !== null);
  const len = Math.min(...rs.map((r) => r.series.queued.length));
  const meanAt = (pick: (r: EndpointSeedResult) => number[]) =>
    Array.from({ length: len }, (_, i) => tidy(rs.reduce((a, r) => a + pick(r)[i], 0) / rs.length));
  const bins = new Map<number, number>();
  for (const r of rs) for (const [b, c] of r.delayBins) bins.set(b, (bins.get(b) ?? 0) + c);
  return {
    endpoint: rs[0].endpoint,
    config: rs[0].config,
    jobs: {
      submitted: e((r) => r.submitted),
      completed: e((r) => r.completed),
      failed: e((r) => r.failed),
      timedOut: e((r) => r.timedOut),
      cancelled: e((r) => r.cancelled),
      expired: e((r) => r.expired),
      unfinishedQueued: e((r) => r.unfinished.queued),
      unfinishedRunning: e((r) => r.unfinished.running),
    },
    unfinishedAgeMs: { p50: e((r) => r.unfinished.ageMs.p50), max: e((r) => r.unfinished.ageMs.max) },
    delayMs: distEstimate(rs.map((r) => r.delayMs)),
    delayAllMs: distEstimate(rs.map((r) => r.delayAllMs)),
    executionMs: distEstimate(rs.map((r) => r.executionMs)),
    coldStarts: { count: e((r) => r.coldStarts.count), p99Ms: e((r) => r.coldStarts.p99Ms) },
    placementFailures: e((r) => r.placementFailures),
    throttledWorkerMinutes: e((r) => r.throttledWorkerMinutes),
    gpuSeconds: e((r) => r.gpuSeconds),
    costUsd: e((r) => r.costUsd),
    costPer1000: costs.length === 0 ? null : estimate(costs),
    queue: { mean: e((r) => r.queue.mean), max: e((r) => r.queue.max) },
    workers: { mean: e((r) => r.workers.mean), max: e((r) => r.workers.max) },
    heldBy,
    limit,
    series: { stepS, startS: warmupS, queued: meanAt((r) => r.series.queued), workers: meanAt((r) => r.series.workers), throttled: meanAt((r) => r.series.throttled) },
    delayHistogram: [...bins.entries()].sort((a, b) => a[0] - b[0]).map(([b, c]) => [tidy(coarseBinMs(b)), c] as [number, number]),
  };
}

function checks(point: number, rs: readonly EndpointSeedResult[]): PlanCheck[] {
  const out: PlanCheck[] = [];
  const name = rs[0].endpoint;
  const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(1) : x.toPrecision(4));
  const interval = (est: PlanEstimate) => (est.lo === null || est.hi === null ? "no interval with 1 seed" : `95% interval [${fmt(est.lo)}, ${fmt(est.hi)}]`);
  const mmc = rs[0].mmc;
  const clean = rs.every((r) => r.throttledWorkerMinutes === 0 && r.expired === 0 && r.timedOut === 0 && r.failed === 0);
  if (mmc !== null && clean) {
    const expected = erlangCMeanWait(mmc.c, mmc.lambda, mmc.mu);
    const est = estimate(rs.map((r) => r.delayMs.mean / 1000));
    const waiting = erlangC(mmc.c, mmc.lambda / mmc.mu) * Math.min(...rs.map((r) => r.submitted));
    if (Number.isFinite(expected)) {
      const judged = est.lo !== null && est.hi !== null && waiting >= MIN_WAITING_JOBS;
      const ok = judged ? (est.lo as number) <= expected && expected <= (est.hi as number) : null;
      out.push({
        kind: "erlang-c",
        point,
        endpoint: name,
        ok,
        expected: tidy(expected),
        estimate: est,
        message:
          `M/M/${mmc.c} (λ ${fmt(mmc.lambda)}/s, μ ${fmt(mmc.mu)}/s): Erlang C mean wait ${fmt(expected)} s, simulated ${fmt(est.mean)} s, ${interval(est)}` +
          (ok === false ? ": outside the interval" : "") +
          (waiting < MIN_WAITING_JOBS ? `: not judged, only about ${Math.round(waiting)} jobs per seed wait (fewer than ${MIN_WAITING_JOBS}); run longer` : ""),
      });
    }
  }
  // Little's law on the queue: L = λW, each side averaged over seeds; the per-seed difference carries the interval.
  const L = estimate(rs.map((r) => r.little.L));
  const lw = rs.map((r) => r.little.lambda * r.little.W);
  const lambdaW = tidy(lw.reduce((a, b) => a + b, 0) / lw.length);
  const diff = estimate(rs.map((r, i) => r.little.L - lw[i]));
  if (L.mean > 0 || lambdaW > 0) {
    const tolerance = Math.max(0.02 * Math.max(L.mean, lambdaW), 0.005);
    const inInterval = diff.lo !== null && diff.hi !== null && diff.lo <= 0 && 0 <= diff.hi;
    const ok = inInterval || Math.abs(L.mean - lambdaW) <= tolerance;
    const backlog = rs.some((r) => r.unfinished.queued > 0.01 * r.submitted);
    out.push({
      kind: "little",
      point,
      endpoint: name,
      ok,
      expected: lambdaW,
      estimate: L,
      message:
        `Little's law: mean queue L ${fmt(L.mean)} (${interval(L)}) vs λW ${fmt(lambdaW)}` +
        (ok ? "" : backlog ? ": does not hold; the queue never drained (jobs still waiting at the horizon), so the system is not in steady state" : ": does not hold"),
    });
  }
  return out;
}

export function aggregate(meta: ReportMeta, results: readonly SeedResult[]): PlanReport {
  const byPoint = new Map<number, SeedResult[]>();
  for (const r of results) {
    let list = byPoint.get(r.point);
    if (list === undefined) byPoint.set(r.point, (list = []));
    list.push(r);
  }
  const points: PlanPoint[] = [];
  const allChecks: PlanCheck[] = [];
  for (const index of [...byPoint.keys()].sort((a, b) => a - b)) {
    const rs = (byPoint.get(index) as SeedResult[]).slice().sort((a, b) => a.seed - b.seed);
    const endpoints = rs[0].endpoints.map((_, k) => {
      const per = rs.map((r) => r.endpoints[k]);
      allChecks.push(...checks(index, per));
      return endpointFigures(per, rs[0].seriesStepS, meta.warmupMinutes * 60);
    });
    points.push({ index, params: meta.pointParams[index] ?? {}, endpoints });
  }
  const notes: string[] = [];
  const k = meta.seeds.length;
  if (k < 2) notes.push("1 seed: no confidence intervals (a figure from one run has no spread to judge); run --seeds 5 or more");
  else if (k < 5) notes.push(`${k} seeds: the 95% intervals are wide (Student t with ${k - 1} degrees of freedom); 5 or more seeds narrow them`);
  // Points are numbered from 1 wherever they are shown (the summary's "point 2/3", its cross-checks).
  for (const c of allChecks) if (c.ok === false) notes.push(`warning: ${c.endpoint}${points.length > 1 ? ` (point ${c.point + 1})` : ""}: ${c.message}`);
  return {
    tool: "cpsim plan",
    scenario: meta.scenario,
    description: meta.description,
    seeds: meta.seeds,
    hours: meta.hours,
    warmupMinutes: meta.warmupMinutes,
    percentileResolution: `percentiles within ±${((RESOLUTION / 2) * 100).toFixed(2)}% of the exact value (exact below 2.048 ms), never above the max; means, counts and max exact`,
    sweep: meta.sweep,
    find: null,
    points,
    checks: allChecks,
    notes,
  };
}
