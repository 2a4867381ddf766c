/** What one seed of one scenario point measured, per endpoint: plain JSON, so it crosses threads and shard files. */
import type { PlanEndpointConfig } from "../../reports/plan-report.ts";

/** An M/M/c queue: c fixed workers, Poisson arrivals at λ per second, exponential service at μ per second. */
export interface MmcParams {
  readonly c: number;
  readonly lambda: number;
  readonly mu: number;
}

export interface Dist {
  readonly count: number;
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

/** Which limit held waiting jobs back, in job-seconds of waiting (queue length integrated over time). */
export interface HeldBy {
  /** Workers were wanted but no GPUs of the endpoint's types were free (throttled workers). */
  readonly gpuStock: number;
  /** Workers were cold-starting. */
  readonly coldStart: number;
  /** The endpoint had workersMax workers. */
  readonly workerCap: number;
  /** Below workersMax and nothing starting: the scaler had not added workers (yet). */
  readonly scaler: number;
}

export interface EndpointSeedResult {
  readonly endpoint: string;
  readonly config: PlanEndpointConfig;
  /** M/M/c parameters when the endpoint is one. */
  readonly mmc: MmcParams | null;
  /** Jobs submitted in the measured window (after the warm-up); every one is counted below. */
  readonly submitted: number;
  readonly completed: number;
  readonly failed: number;
  readonly timedOut: number;
  readonly cancelled: number;
  /** Dropped unfinished at the end of their lifetime (ttl). */
  readonly expired: number;
  /** Still queued or running at the horizon, with their ages. */
  readonly unfinished: { readonly queued: number; readonly running: number; readonly ageMs: Dist };
  /** Queue wait of the jobs that started, ms. */
  readonly delayMs: Dist;
  /** Queue wait of every job, one still queued at the horizon counted by its age so far, ms. */
  readonly delayAllMs: Dist;
  readonly executionMs: Dist;
  readonly coldStarts: { readonly count: number; readonly p99Ms: number; readonly meanMs: number };
  readonly placementFailures: number;
  readonly throttledWorkerMinutes: number;
  readonly gpuSeconds: number;
  readonly costUsd: number;
  /** USD per 1,000 jobs completed; null when none completed. */
  readonly costPer1000: number | null;
  readonly queue: { readonly mean: number; readonly max: number };
  /** Workers holding GPUs (initializing, idle or running). */
  readonly workers: { readonly mean: number; readonly max: number };
  readonly heldBy: HeldBy;
  /** Little's law terms over the window: time-average queue length L, arrival rate λ (1/s), mean wait W (s). */
  readonly little: { readonly L: number; readonly lambda: number; readonly W: number };
  /** Point samples every `seriesStepS` from the window start: queued, workers (with GPUs), throttled. */
  readonly series: { readonly queued: number[]; readonly workers: number[]; readonly throttled: number[] };
  /** Coarse delay histogram for charts (see log-histogram.ts coarse()). */
  readonly delayBins: Array<[number, number]>;
}

export interface SeedResult {
  readonly point: number;
  readonly seed: number;
  readonly seriesStepS: number;
  readonly jobsSubmitted: number;
  readonly podStockOuts: number;
  readonly endpoints: EndpointSeedResult[];
}
