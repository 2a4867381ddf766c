/**
 * `cpsim simulate`: run the platform model with a scenario's workload for some virtual hours and
 * summarize what happened: pods by status, jobs by status, queue delay and execution percentiles,
 * stock-outs, cost, the event count and the event-log hash (equal for equal seeds and inputs).
 */
import * as hdr from "hdr-histogram-js";
import { hours, minutes, type Micros } from "../core/index.ts";
import { loadCatalog, type Catalog } from "../catalog/index.ts";
import { Platform } from "../domain/platform.ts";
import { costPerHour, POD_STATUSES } from "../domain/pods/index.ts";
import { JOB_STATUSES, type JobTransition } from "../domain/serverless/index.ts";
import { installWorkload } from "./workload.ts";
import type { Scenario } from "./scenario.ts";

export interface SimulateOptions {
  readonly scenario: Scenario;
  readonly seed: number;
  /** Virtual hours; the scenario's own when absent. */
  readonly hours?: number;
  readonly catalog?: Catalog;
  /** Called about every virtual hour with the fraction done, for progress on long runs. */
  readonly onProgress?: (fraction: number) => void;
}

export interface Percentiles {
  readonly count: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

export interface SimulationSummary {
  readonly scenario: string;
  readonly seed: number;
  readonly hours: number;
  readonly pods: {
    readonly requested: number;
    readonly created: number;
    readonly terminatedByWorkload: number;
    readonly byStatus: Readonly<Record<string, number>>;
  };
  readonly jobs: {
    readonly submitted: number;
    /** Final states reached during the run (a job counted once per final state it reached). */
    readonly byStatus: Readonly<Record<string, number>>;
    readonly delayMs: Percentiles;
    readonly executionMs: Percentiles;
  };
  readonly stockOuts: {
    /** Pod creations refused for want of capacity. */
    readonly podCreations: number;
    /** Virtual minutes in which some endpoint had workers throttled for want of GPUs. */
    readonly throttledMinutes: number;
  };
  /** USD spent on the workload's pods, integrated minute by minute. */
  readonly podCostUsd: number;
  readonly events: number;
  readonly hash: string;
}

function histogram() {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 10 * 24 * 3600 * 1000, numberOfSignificantValueDigits: 3, useWebAssembly: false });
}

function percentiles(h: ReturnType<typeof histogram>): Percentiles {
  if (h.totalCount === 0) return { count: 0, p50: 0, p90: 0, p99: 0, max: 0, mean: 0 };
  return {
    count: h.totalCount,
    p50: h.getValueAtPercentile(50),
    p90: h.getValueAtPercentile(90),
    p99: h.getValueAtPercentile(99),
    max: h.maxValue,
    mean: Math.round(h.mean * 1000) / 1000,
  };
}

export function simulate(options: SimulateOptions): SimulationSummary {
  const { scenario, seed } = options;
  const runHours = options.hours ?? scenario.hours;
  const catalog = options.catalog ?? loadCatalog();
  const delay = histogram();
  const execution = histogram();
  const submittedAt = new Map<number, Micros>();
  const startedAt = new Map<number, Micros>();
  const finals: Record<string, number> = Object.fromEntries(JOB_STATUSES.filter((s) => s !== "IN_QUEUE" && s !== "IN_PROGRESS").map((s) => [s, 0]));

  // Delay and execution time per job from its transitions; per-job entries live only while it runs.
  const onTransition = (t: JobTransition) => {
    if (t.to === "IN_QUEUE") {
      submittedAt.set(t.key, t.at);
      startedAt.delete(t.key);
    } else if (t.to === "IN_PROGRESS") {
      const s = submittedAt.get(t.key);
      if (s !== undefined) delay.recordValue(Math.max(0, Math.round((t.at - s) / 1000)));
      startedAt.set(t.key, t.at);
    } else if (t.to !== "(gone)") {
      finals[t.to] = (finals[t.to] ?? 0) + 1;
      const st = startedAt.get(t.key);
      if (st !== undefined && t.to !== "CANCELLED") execution.recordValue(Math.max(0, Math.round((t.at - st) / 1000)));
      submittedAt.delete(t.key);
      startedAt.delete(t.key);
    } else {
      submittedAt.delete(t.key);
      startedAt.delete(t.key);
    }
  };

  const platform = new Platform({
    seed,
    catalog,
    stock: {
      outsideIntensity: scenario.outsideDemand?.intensity ?? 0.5,
      ...(scenario.outsideDemand?.meanHoldMinutes !== undefined ? { outsideMeanHold: Math.round(minutes(scenario.outsideDemand.meanHoldMinutes)) } : {}),
    },
    serverless: { onTransition },
  });
  const endUs = Math.round(hours(runHours));
  const counters = installWorkload(platform, scenario, platform.engine.rng.fork("workload"), endUs);

  // Minute samples: pod cost and throttled workers.
  let costUsd = 0;
  let throttledMinutes = 0;
  const sample = platform.engine.defineKind("summary.sample", (_t, now) => {
    let rate = 0;
    for (const pod of platform.pods.all()) rate += costPerHour(pod);
    costUsd += rate / 60;
    let throttled = false;
    for (const e of catalog.endpoints) {
      const h = platform.serverless.healthOf(platform.serverless.endpointIndex(e.id));
      if (h.workers.throttled > 0) throttled = true;
    }
    if (throttled) throttledMinutes++;
    if (now + minutes(1) <= endUs) platform.engine.at(now + minutes(1), sample, 0);
  });
  platform.engine.at(minutes(1), sample, 0);

  const step = hours(1);
  for (let t = 0; t < endUs; ) {
    t = Math.min(endUs, t + step);
    platform.advanceTo(t);
    options.onProgress?.(t / endUs);
  }

  const byStatus: Record<string, number> = Object.fromEntries(POD_STATUSES.map((s) => [s, 0]));
  for (const pod of platform.pods.all()) byStatus[pod.status] = (byStatus[pod.status] ?? 0) + 1;

  return {
    scenario: scenario.name,
    seed,
    hours: runHours,
    pods: { requested: counters.podsRequested, created: counters.podsCreated, terminatedByWorkload: counters.podsTerminated, byStatus },
    jobs: { submitted: counters.jobsSubmitted, byStatus: finals, delayMs: percentiles(delay), executionMs: percentiles(execution) },
    stockOuts: { podCreations: counters.podStockOuts, throttledMinutes },
    podCostUsd: Math.round(costUsd * 100) / 100,
    events: platform.engine.steps,
    hash: platform.hash(),
  };
}

/** The summary as a few aligned lines of text. */
export function formatSummary(s: SimulationSummary): string {
  const pct = (p: Percentiles) => `p50 ${p.p50} ms, p90 ${p.p90} ms, p99 ${p.p99} ms, max ${p.max} ms (n=${p.count})`;
  const counts = (r: Readonly<Record<string, number>>) =>
    Object.entries(r)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ") || "none";
  return [
    `scenario ${s.scenario}, seed ${s.seed}, ${s.hours} virtual hours`,
    `pods:       ${s.pods.created} created of ${s.pods.requested} requested, ${s.pods.terminatedByWorkload} terminated by the workload`,
    `            now: ${counts(s.pods.byStatus)}`,
    `jobs:       ${s.jobs.submitted} submitted; final: ${counts(s.jobs.byStatus)}`,
    `delay:      ${pct(s.jobs.delayMs)}`,
    `execution:  ${pct(s.jobs.executionMs)}`,
    `stock-outs: ${s.stockOuts.podCreations} pod creations refused, ${s.stockOuts.throttledMinutes} minutes with throttled workers`,
    `cost:       $${s.podCostUsd.toFixed(2)} on pods`,
    `events:     ${s.events}, log hash ${s.hash}`,
  ].join("\n") + "\n";
}
