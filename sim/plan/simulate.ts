/**
 * `cpsim simulate`: one seeded run of the whole platform (pods, jobs, GPU stock) with a scenario's
 * workload, summarized: pods by status, every job (final or still queued or running at the end,
 * with the age of the oldest), queue delay and execution percentiles (never above the max),
 * stock-outs, which limit held each endpoint's queue, cost, the event count and the event-log
 * hash (equal for equal seeds and inputs). Capacity questions across seeds belong to `cpsim plan`.
 */
import { hours, minutes, type Micros } from "../core/index.ts";
import { loadCatalog, type Catalog } from "../catalog/index.ts";
import { costPerHour, POD_STATUSES } from "../domain/pods/index.ts";
import { JOB_STATUSES, type JobTransition } from "../domain/serverless/index.ts";
import { buildModel } from "./build-model.ts";
import { PlanCollector } from "./collector.ts";
import { LogHistogram, RESOLUTION } from "./log-histogram.ts";
import { checkSimulateArguments } from "./library-arguments.ts";
import type { LoadedScenario, Scenario } from "./scenario.ts";

export interface SimulateOptions {
  readonly scenario: Scenario;
  /** Traces of the scenario, when it replays any (see loadScenarioFile). */
  readonly loaded?: LoadedScenario;
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
    /** Queue wait of the jobs that started (`count` of them); see `unfinished` for the rest. */
    readonly delayMs: Percentiles;
    readonly executionMs: Percentiles;
    /** Jobs still queued or running when the run ended, and how long the oldest queued one had waited. */
    readonly unfinished: { readonly queued: number; readonly running: number; readonly oldestQueuedMs: number };
    /** How exact the percentiles are. */
    readonly percentiles: string;
  };
  /** Per endpoint with a workload: every job counted, and the limit that held its queue back. */
  readonly endpoints: ReadonlyArray<{
    readonly endpoint: string;
    readonly submitted: number;
    readonly finished: number;
    readonly unfinishedQueued: number;
    readonly unfinishedRunning: number;
    readonly oldestQueuedMs: number;
    readonly throttledWorkerMinutes: number;
    readonly workersMax: number;
    /** "worker cap", "GPU stock", "cold starts", "scaler", or null when no job waited. */
    readonly limit: string | null;
    readonly limitShare: number;
  }>;
  readonly stockOuts: {
    /** Pod creations refused for want of capacity. */
    readonly podCreations: number;
    /** Virtual minutes in which some endpoint had workers throttled for want of GPUs (a GPU shortage, not a worker cap). */
    readonly throttledMinutes: number;
  };
  /** USD spent on the workload's pods, integrated minute by minute. */
  readonly podCostUsd: number;
  readonly events: number;
  readonly hash: string;
}

/** Whole milliseconds, as the summary always showed them; percentiles never above the max. */
function percentiles(h: LogHistogram): Percentiles {
  if (h.count === 0) return { count: 0, p50: 0, p90: 0, p99: 0, max: 0, mean: 0 };
  const [p50, p90, p99] = h.percentiles([50, 90, 99]).map((us) => Math.round(us / 1000));
  const max = Math.round(h.max / 1000);
  return { count: h.count, p50: Math.min(p50, max), p90: Math.min(p90, max), p99: Math.min(p99, max), max, mean: Math.round(h.mean) / 1000 };
}

const LIMIT_NAMES = { gpuStock: "GPU stock", coldStart: "cold starts", workerCap: "worker cap", scaler: "scaler" } as const;

export function simulate(options: SimulateOptions): SimulationSummary {
  checkSimulateArguments(options);
  const { scenario, seed } = options;
  const runHours = options.hours ?? scenario.hours;
  const catalog = options.catalog ?? loadCatalog();
  const delay = new LogHistogram();
  const execution = new LogHistogram();
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
      if (s !== undefined) delay.record(t.at - s);
      startedAt.set(t.key, t.at);
    } else if (t.to !== "(gone)") {
      finals[t.to] = (finals[t.to] ?? 0) + 1;
      const st = startedAt.get(t.key);
      if (st !== undefined && t.to !== "CANCELLED") execution.record(t.at - st);
      submittedAt.delete(t.key);
      startedAt.delete(t.key);
    } else {
      submittedAt.delete(t.key);
      startedAt.delete(t.key);
    }
  };

  const endUs = Math.round(hours(runHours));
  const loaded: LoadedScenario = options.loaded?.scenario === scenario ? options.loaded : { scenario, label: scenario.name, traces: options.loaded?.traces ?? {} };
  const collector = new PlanCollector(0, endUs, catalog.endpoints.length + (scenario.endpoints?.length ?? 0));
  const model = buildModel(loaded, { seed, hours: runHours, catalog, observer: collector, onTransition });
  collector.bind(model.endpoints, model.priceOf);
  const { platform, counters } = model;

  // Minute samples: pod cost and throttled workers.
  let costUsd = 0;
  let throttledMinutes = 0;
  const sample = platform.engine.defineKind("summary.sample", (_t, now) => {
    let rate = 0;
    for (const pod of platform.pods.all()) rate += costPerHour(pod);
    costUsd += rate / 60;
    let throttled = false;
    for (const e of platform.catalog.endpoints) {
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
  const perEndpoint = collector.finish(model);
  const endpoints = perEndpoint.map((e) => {
    const held = Object.entries(e.heldBy) as Array<[keyof typeof LIMIT_NAMES, number]>;
    const total = held.reduce((a, [, v]) => a + v, 0);
    const top = held.reduce((a, b) => (b[1] > a[1] ? b : a));
    return {
      endpoint: e.endpoint,
      submitted: e.submitted,
      finished: e.completed + e.failed + e.timedOut + e.cancelled + e.expired,
      unfinishedQueued: e.unfinished.queued,
      unfinishedRunning: e.unfinished.running,
      oldestQueuedMs: Math.round(e.delayAllMs.max),
      throttledWorkerMinutes: e.throttledWorkerMinutes,
      workersMax: e.config.workersMax,
      limit: total > 0 ? LIMIT_NAMES[top[0]] : null,
      limitShare: total > 0 ? Math.round((top[1] / total) * 1000) / 1000 : 0,
    };
  });
  const unfinished = {
    queued: endpoints.reduce((a, e) => a + e.unfinishedQueued, 0),
    running: endpoints.reduce((a, e) => a + e.unfinishedRunning, 0),
    oldestQueuedMs: Math.max(0, ...perEndpoint.filter((e) => e.unfinished.queued > 0).map((e) => Math.round(e.delayAllMs.max))),
  };

  return {
    scenario: scenario.name,
    seed,
    hours: runHours,
    pods: { requested: counters.podsRequested, created: counters.podsCreated, terminatedByWorkload: counters.podsTerminated, byStatus },
    jobs: {
      submitted: counters.jobsSubmitted,
      byStatus: finals,
      delayMs: percentiles(delay),
      executionMs: percentiles(execution),
      unfinished,
      percentiles: `within ±${((RESOLUTION / 2) * 100).toFixed(2)}% of the exact value, never above the max`,
    },
    endpoints,
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
    `jobs:       ${s.jobs.submitted} submitted; final: ${counts(s.jobs.byStatus)}; ` +
      `unfinished at the end: ${s.jobs.unfinished.queued} queued${s.jobs.unfinished.queued > 0 ? ` (oldest waiting ${formatAge(s.jobs.unfinished.oldestQueuedMs)})` : ""}, ${s.jobs.unfinished.running} running`,
    `delay:      ${pct(s.jobs.delayMs)}, of the jobs that started${s.jobs.unfinished.queued > 0 ? ` (the ${s.jobs.unfinished.queued} still queued are not in these figures)` : ""}`,
    `execution:  ${pct(s.jobs.executionMs)}`,
    `            percentiles ${s.jobs.percentiles}`,
    ...s.endpoints.map(
      (e) =>
        `endpoint:   ${e.endpoint}: ${e.submitted} submitted, ${e.finished} finished, ${e.unfinishedQueued} queued and ${e.unfinishedRunning} running at the end; ` +
        (e.limit === null
          ? "no job waited"
          : `the queue was held by the ${e.limit}${e.limit === "worker cap" ? ` (workersMax ${e.workersMax})` : ""} ${Math.round(e.limitShare * 100)}% of the waiting`) +
        `; ${e.throttledWorkerMinutes} worker-minutes throttled for want of GPUs`,
    ),
    `stock-outs: ${s.stockOuts.podCreations} pod creations refused, ${s.stockOuts.throttledMinutes} minutes with workers throttled for want of GPUs (a worker cap is not a GPU shortage: see the endpoint lines)`,
    `cost:       $${s.podCostUsd.toFixed(2)} on pods`,
    `events:     ${s.events}, log hash ${s.hash}`,
  ].join("\n") + "\n";
}

function formatAge(ms: number): string {
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
