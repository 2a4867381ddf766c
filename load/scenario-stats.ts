/**
 * Everything a run measures about one scenario, in bounded memory whatever the duration: one HDR
 * histogram of latency in microseconds (autocannon's own histogram has 1 ms resolution, which
 * hides a sub-millisecond p99 on loopback), one more reset every second for the latency-over-time
 * series (one row per second, capped), and counters. No per-request arrays.
 */
import * as hdr from "hdr-histogram-js";
import type { LoadLatency, LoadSecond } from "../reports/index.ts";
import { evaluateChecks, type CheckedResponse } from "./checks.ts";
import { RateLimitWatch, type RateLimitFindings } from "./rate-limit-watch.ts";
import type { Scenario } from "./scenario.ts";

/** One hour at one second per row; a run longer than that keeps its first hour of rows. */
export const MAX_SERIES_ROWS = 3600;
const HIGHEST_US = 3_600_000_000;

export type ErrorKind = "reset" | "timeout" | "refused" | "other";

/** One second of the latency-over-time series, and the run's latency summary: the report's shapes. */
export type SecondRow = LoadSecond;
export type LatencySummary = LoadLatency;

export interface CheckCount {
  readonly name: string;
  readonly passes: number;
  readonly fails: number;
}

function newHistogram(): hdr.Histogram {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 3 });
}

export function summarizeHistogram(h: hdr.Histogram): LatencySummary {
  const n = h.totalCount;
  // HDR values are bucket midpoints: a high percentile may read a hair above the exact max.
  const p = (q: number): number => (n === 0 ? 0 : Math.min(h.getValueAtPercentile(q), h.maxValue));
  return { count: n, minUs: n === 0 ? 0 : h.minNonZeroValue, meanUs: n === 0 ? 0 : Math.round(h.mean), p50Us: p(50), p90Us: p(90), p99Us: p(99), p999Us: p(99.9), maxUs: n === 0 ? 0 : h.maxValue };
}

export class ScenarioStats {
  readonly histogram = newHistogram();
  private readonly second = newHistogram();
  private secondErrors = 0;
  private secondRequests = 0;
  private secondFailed = 0;
  /** This second's answers by class: 2xx, 3xx, 4xx (429 apart), 5xx, 429. */
  private readonly secondClasses = [0, 0, 0, 0, 0];
  readonly series: SecondRow[] = [];
  readonly statuses: Record<string, number> = {};
  readonly errors: Record<ErrorKind, number> = { reset: 0, timeout: 0, refused: 0, other: 0 };
  private readonly passes: number[];
  private readonly fails: number[];
  private readonly verdicts: (boolean | undefined)[];
  private readonly expectedMin: number;
  private readonly expectedMax: number;
  readonly rateLimit: RateLimitWatch;
  responses = 0;
  /** Responses with an unexpected status (429 excepted: counted apart) plus transport errors. */
  failed = 0;
  bytes = 0;
  /** Open model: sent more than the tolerance after the intended time / never sent. */
  late = 0;
  unsent = 0;
  readonly started = performance.now();

  constructor(readonly scenario: Scenario) {
    const n = scenario.checks.length;
    this.passes = new Array<number>(n).fill(0);
    this.fails = new Array<number>(n).fill(0);
    this.verdicts = new Array<boolean | undefined>(n).fill(undefined);
    this.expectedMin = scenario.expectedStatuses?.min ?? 200;
    this.expectedMax = scenario.expectedStatuses?.max ?? 399;
    this.rateLimit = new RateLimitWatch(scenario.rateLimitSequence === true);
  }

  /**
   * Whether the checks need more than the status: the body, the headers or the request's name.
   * When they do not, the generators skip collecting bodies and copying headers.
   */
  get needsResponse(): boolean {
    return this.scenario.rateLimitSequence === true || this.scenario.checks.some((c) => c.kind !== "status" || c.request !== undefined);
  }

  response(latencyUs: number, status: number, bytes: number, r?: CheckedResponse): void {
    const us = Math.max(1, Math.min(HIGHEST_US, Math.round(latencyUs)));
    this.histogram.recordValue(us);
    this.second.recordValue(us);
    this.secondRequests++;
    this.responses++;
    this.bytes += bytes;
    const key = String(status);
    this.statuses[key] = (this.statuses[key] ?? 0) + 1;
    if (status !== 429 && (status < this.expectedMin || status > this.expectedMax)) {
      this.failed++;
      this.secondFailed++;
    }
    const cls = status === 429 ? 4 : status >= 200 && status < 600 ? Math.floor(status / 100) - 2 : -1;
    if (cls >= 0) this.secondClasses[cls]++;
    const rl = r?.headers.ratelimit;
    this.rateLimit.observe(status, Array.isArray(rl) ? rl[0] : rl, performance.now() - this.started);
    if (r) {
      evaluateChecks(this.scenario.checks, r, this.verdicts);
      for (let i = 0; i < this.verdicts.length; i++) {
        const v = this.verdicts[i];
        if (v === true) this.passes[i]++;
        else if (v === false) this.fails[i]++;
      }
    }
  }

  error(kind: ErrorKind): void {
    this.errors[kind]++;
    this.failed++;
    this.secondErrors++;
    this.secondFailed++;
    // A request that got no answer fails every check that would have applied to it (k6 does the same).
    // (Which request it was is not known on this path, so checks of one request only are not counted.)
    for (let i = 0; i < this.scenario.checks.length; i++) {
      const c = this.scenario.checks[i];
      if (c.when === undefined && c.request === undefined) this.fails[i]++;
    }
  }

  /** Closes the current one-second interval; returns its row (also kept in `series`, up to the cap). */
  tick(): SecondRow {
    const h = this.second;
    const row: SecondRow = {
      t: Math.round((performance.now() - this.started) / 100) / 10,
      requests: this.secondRequests,
      p50Us: h.totalCount ? h.getValueAtPercentile(50) : 0,
      p90Us: h.totalCount ? h.getValueAtPercentile(90) : 0,
      p95Us: h.totalCount ? h.getValueAtPercentile(95) : 0,
      p99Us: h.totalCount ? h.getValueAtPercentile(99) : 0,
      maxUs: h.totalCount ? h.maxValue : 0,
      errors: this.secondErrors,
      s2xx: this.secondClasses[0],
      s3xx: this.secondClasses[1],
      s4xx: this.secondClasses[2],
      s5xx: this.secondClasses[3],
      s429: this.secondClasses[4],
      failed: this.secondFailed,
    };
    if (this.series.length < MAX_SERIES_ROWS) this.series.push(row);
    h.reset();
    this.secondRequests = 0;
    this.secondErrors = 0;
    this.secondFailed = 0;
    this.secondClasses.fill(0);
    return row;
  }

  checkCounts(): CheckCount[] {
    return this.scenario.checks.map((c, i) => ({ name: c.name, passes: this.passes[i], fails: this.fails[i] }));
  }

  totalErrors(): number {
    return this.errors.reset + this.errors.timeout + this.errors.refused + this.errors.other;
  }

  latency(): LatencySummary {
    return summarizeHistogram(this.histogram);
  }

  rateLimitFindings(): RateLimitFindings {
    return this.rateLimit.findings();
  }

  /** Frees the histograms' memory (hdr-histogram-js may hold WebAssembly memory). */
  destroy(): void {
    this.histogram.destroy();
    this.second.destroy();
  }
}

/** Sorts a transport error into the kinds the report counts. */
export function errorKind(err: unknown): ErrorKind {
  const code = String((err as { code?: unknown })?.code ?? "");
  const message = String((err as { message?: unknown })?.message ?? "");
  if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET" || /socket hang up|reset|other side closed/i.test(message)) return "reset";
  if (code.includes("TIMEOUT") || code === "ETIMEDOUT" || /timed out|timeout/i.test(message)) return "timeout";
  if (code === "ECONNREFUSED") return "refused";
  return "other";
}
