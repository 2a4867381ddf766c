/**
 * The capacity planner's report as plain data: what `cpsim plan` measured, per scenario point
 * and endpoint, with 95% intervals across seeds. The renderers in reports/ read only this.
 */

/** A figure across seeds: mean and 95% Student t interval (null when fewer than 2 seeds). */
export interface PlanEstimate {
  readonly mean: number;
  readonly lo: number | null;
  readonly hi: number | null;
  readonly n: number;
}

export interface PlanDistEstimate {
  readonly mean: PlanEstimate;
  readonly p50: PlanEstimate;
  readonly p90: PlanEstimate;
  readonly p99: PlanEstimate;
  readonly max: PlanEstimate;
}

export interface PlanEndpointConfig {
  readonly gpuTypeIds: readonly string[];
  readonly gpuCount: number;
  readonly workersMin: number;
  readonly workersMax: number;
  readonly scaler: string;
  readonly idleTimeoutMs: number;
}

export interface PlanEndpointFigures {
  readonly endpoint: string;
  readonly config: PlanEndpointConfig;
  /** Jobs per seed (means across seeds): every submitted job is in exactly one of the other counts. */
  readonly jobs: {
    readonly submitted: PlanEstimate;
    readonly completed: PlanEstimate;
    readonly failed: PlanEstimate;
    readonly timedOut: PlanEstimate;
    readonly cancelled: PlanEstimate;
    readonly expired: PlanEstimate;
    readonly unfinishedQueued: PlanEstimate;
    readonly unfinishedRunning: PlanEstimate;
  };
  /** Age at the horizon of the jobs still queued or running, ms. */
  readonly unfinishedAgeMs: { readonly p50: PlanEstimate; readonly max: PlanEstimate };
  /** Queue wait of the jobs that started, ms. */
  readonly delayMs: PlanDistEstimate;
  /** Queue wait of every job, a job still queued at the horizon counted by its age so far (a lower bound), ms. */
  readonly delayAllMs: PlanDistEstimate;
  readonly executionMs: PlanDistEstimate;
  readonly coldStarts: { readonly count: PlanEstimate; readonly p99Ms: PlanEstimate };
  readonly placementFailures: PlanEstimate;
  readonly throttledWorkerMinutes: PlanEstimate;
  readonly gpuSeconds: PlanEstimate;
  readonly costUsd: PlanEstimate;
  readonly costPer1000: PlanEstimate | null;
  readonly queue: { readonly mean: PlanEstimate; readonly max: PlanEstimate };
  readonly workers: { readonly mean: PlanEstimate; readonly max: PlanEstimate };
  /** Job-seconds of waiting by the limit in force while jobs waited. */
  readonly heldBy: { readonly gpuStock: PlanEstimate; readonly coldStart: PlanEstimate; readonly workerCap: PlanEstimate; readonly scaler: PlanEstimate };
  /** The limit that held the queue most, or null when jobs never waited. */
  readonly limit: { readonly name: "gpuStock" | "coldStart" | "workerCap" | "scaler"; readonly share: number; readonly text: string } | null;
  /** Means across seeds at every step: queued jobs, workers holding GPUs, throttled workers. */
  readonly series: { readonly stepS: number; readonly startS: number; readonly queued: number[]; readonly workers: number[]; readonly throttled: number[] };
  /** Delay histogram summed over seeds: [lower edge ms, count]. */
  readonly delayHistogram: Array<[number, number]>;
}

export interface PlanPoint {
  readonly index: number;
  /** The swept parameters' values at this point (empty without a sweep). */
  readonly params: Readonly<Record<string, number>>;
  readonly endpoints: PlanEndpointFigures[];
  /** Under --find: whether this point meets the SLO, judged on the upper bound. */
  readonly slo?: { readonly pass: boolean; readonly figures: Array<{ readonly metric: string; readonly bound: number; readonly limit: number }> };
}

export interface PlanCheck {
  readonly kind: "erlang-c" | "little";
  readonly point: number;
  readonly endpoint: string;
  /** null: could not be judged (fewer than 2 seeds). */
  readonly ok: boolean | null;
  readonly expected: number;
  readonly estimate: PlanEstimate;
  readonly message: string;
}

export interface PlanFind {
  readonly param: string;
  readonly slo: string;
  readonly range: readonly [number, number];
  /** The cheapest evaluated value meeting the SLO, or null. */
  readonly answer: number | null;
  /** Values evaluated, in order of evaluation (the points carry their figures). */
  readonly evaluated: readonly number[];
  readonly text: string;
}

export interface PlanReport {
  readonly tool: "cpsim plan";
  readonly scenario: string;
  readonly description: string;
  readonly seeds: readonly number[];
  readonly hours: number;
  readonly warmupMinutes: number;
  readonly percentileResolution: string;
  readonly sweep: ReadonlyArray<{ readonly param: string; readonly values: readonly number[] }>;
  readonly find: PlanFind | null;
  readonly points: PlanPoint[];
  readonly checks: PlanCheck[];
  readonly notes: string[];
}
