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
  readonly t: number;
  readonly requests: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly maxUs: number;
  readonly errors: number;
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
  readonly errors: Readonly<Record<string, number>>;
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

export interface LoadReport {
  readonly tool: "cpsim load";
  readonly version: string;
  readonly startedAt: string;
  readonly seed: number;
  readonly engine: "autocannon" | "k6";
  readonly target: { readonly baseUrl: string; readonly serverlessUrl: string; readonly embedded: boolean; readonly endpoint: string };
  readonly scenarios: readonly LoadScenarioResult[];
  readonly baseline?: { readonly file: string; readonly maxRegressionPct: number; readonly regressions: readonly LoadRegression[]; readonly missing: readonly string[] };
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
