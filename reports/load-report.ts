/**
 * The report of a `cpsim load` run as plain data: what report.json holds and what the table and
 * the HTML are drawn from. Latencies are in microseconds. Nothing here knows how it was measured.
 */

export interface LoadLatency {
  readonly count: number;
  readonly minUs: number;
  readonly meanUs: number;
  readonly p50Us: number;
  readonly p90Us: number;
  readonly p99Us: number;
  readonly p999Us: number;
  readonly maxUs: number;
}

export interface LoadSecond {
  /** Seconds since the scenario started, at the end of this interval. */
  readonly t: number;
  /** Answers in the interval. */
  readonly requests: number;
  readonly p50Us: number;
  readonly p90Us: number;
  readonly p95Us: number;
  readonly p99Us: number;
  readonly maxUs: number;
  /** Requests without an answer (reset, timeout, refused) in the interval. */
  readonly errors: number;
  /** Answers by status class; 429 apart from the other 4xx. */
  readonly s2xx: number;
  readonly s3xx: number;
  readonly s4xx: number;
  readonly s5xx: number;
  readonly s429: number;
  /** Answers with an unexpected status (429 excepted) plus requests without an answer. */
  readonly failed: number;
}

export interface LoadCheck {
  readonly name: string;
  readonly passes: number;
  readonly fails: number;
  /** Why it failed, for the checks made outside the hot path (reassembly, canary, rate limits). */
  readonly detail?: string;
}

export interface LoadThreshold {
  readonly metric: string;
  readonly expression: string;
  readonly ok: boolean;
  readonly actual?: number;
}

export interface LoadRegression {
  readonly scenario: string;
  readonly figure: string;
  readonly baseline: number;
  readonly current: number;
  /** Percent worse than the baseline. */
  readonly worsePct: number;
}

export interface LoadScenarioResult {
  readonly name: string;
  readonly description: string;
  /** closed: autocannon connections; open: fixed arrival rate, latency from the intended send time; k6. */
  readonly model: "closed" | "open" | "k6";
  readonly rate?: number;
  readonly connections: number;
  readonly pipelining: number;
  readonly durationS: number;
  readonly requests: number;
  readonly rps: number;
  readonly bytesPerSecond: number;
  readonly latency: LoadLatency;
  /** Percentile → microseconds, for the distribution chart (a few dozen points). */
  readonly percentiles: readonly { readonly percentile: number; readonly us: number }[];
  readonly series: readonly LoadSecond[];
  readonly statuses: Readonly<Record<string, number>>;
  /** Requests without an answer, by kind (reset, timeout, refused, other). */
  readonly errors: Readonly<Record<string, number>>;
  /** Answers with an unexpected status (429 excepted: counted apart) plus requests without an answer. */
  readonly failed?: number;
  /** The reason the scenario was not run against this target (it could not be built for it). */
  readonly skipped?: string;
  /** Unexpected statuses (429 excepted) and transport errors, over all requests. */
  readonly failedRate: number;
  readonly rateLimited: number;
  readonly first429?: { readonly atMs: number; readonly window: string };
  /** Open model: sent later than the tolerance after their intended time, and never sent. */
  readonly late: number;
  readonly unsent: number;
  readonly checks: readonly LoadCheck[];
  readonly thresholds: readonly LoadThreshold[];
  readonly passed: boolean;
  readonly notes: readonly string[];
}

/** One figure beside its baseline value. */
export interface LoadComparison {
  readonly scenario: string;
  readonly figure: string;
  readonly baseline: number;
  readonly current: number;
  /** Change in percent, signed as the figure moved (not as better or worse). */
  readonly changePct: number;
  /** Judged against --max-regression (rps only between closed-model runs). */
  readonly judged: boolean;
  readonly regressed: boolean;
}

/** Counts of answers by status class: 2xx, 3xx, 4xx (429 excepted), 5xx, 429. */
export function statusClasses(statuses: Readonly<Record<string, number>>): { s2xx: number; s3xx: number; s4xx: number; s5xx: number; s429: number; other: number } {
  const out = { s2xx: 0, s3xx: 0, s4xx: 0, s5xx: 0, s429: 0, other: 0 };
  for (const [k, n] of Object.entries(statuses)) {
    const s = Number(k);
    if (s === 429) out.s429 += n;
    else if (s >= 200 && s < 300) out.s2xx += n;
    else if (s >= 300 && s < 400) out.s3xx += n;
    else if (s >= 400 && s < 500) out.s4xx += n;
    else if (s >= 500 && s < 600) out.s5xx += n;
    else out.other += n;
  }
  return out;
}

export interface LoadReport {
  readonly tool: "cpsim load";
  readonly version: string;
  readonly startedAt: string;
  readonly seed: number;
  readonly engine: "autocannon" | "k6";
  readonly target: { readonly baseUrl: string; readonly serverlessUrl: string; readonly embedded: boolean; readonly endpoint: string };
  readonly scenarios: readonly LoadScenarioResult[];
  readonly baseline?: {
    readonly file: string;
    readonly maxRegressionPct: number;
    readonly regressions: readonly LoadRegression[];
    readonly missing: readonly string[];
    /** Every figure compared, regressed or not. */
    readonly comparisons?: readonly LoadComparison[];
  };
  /** How the target was read before the run (facts, catalog, job endpoint, rate limits). */
  readonly targetRead?: readonly string[];
  readonly passed: boolean;
  readonly reproduce: string;
}

export function formatMicros(us: number): string {
  if (!Number.isFinite(us)) return "-";
  if (us < 1000) return `${Math.round(us)} µs`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;
  return `${(us / 1_000_000).toFixed(2)} s`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${Math.round(n)} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}
