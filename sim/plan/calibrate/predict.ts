/**
 * Predictions from a (calibrated) scenario at an arrival rate: delay and latency percentiles of a
 * measuring window of a given length, with 95% intervals. Each of K runs takes one parameter draw
 * of the calibration (a bootstrap refit: the fit's uncertainty) and its own seed (the window's
 * randomness), so the interval is where a measurement of that length should land.
 */
import { loadCatalog } from "../../catalog/index.ts";
import type { GpuLease } from "../../domain/gpu-pool.ts";
import type { JobStatus, ServerlessObserver } from "../../domain/serverless/index.ts";
import { buildModel } from "../build-model.ts";
import { ScenarioError, type LoadedScenario, type Scenario } from "../scenario.ts";
import type { Calibration, Pcts } from "./calibrate.ts";
import { percentiles, quantileSorted, sig } from "./sample-stats.ts";

export interface PredictOptions {
  /** Jobs per second of the scenario's (one) job workload. */
  readonly perSecond: number;
  /** The measuring window to predict, s (default: the calibration's measured window, else 600). */
  readonly windowS?: number;
  /** Runs (default 40). */
  readonly runs?: number;
  readonly seed: number;
  /**
   * Start the window with no workers and nothing queued, as a measurement of a scaled-to-zero
   * endpoint starts (validate sets it from the measurement); otherwise after the scenario's warm-up.
   */
  readonly fromCold?: boolean;
}

export interface Band {
  readonly median: number;
  readonly lo: number;
  readonly hi: number;
}

export interface Prediction {
  readonly scenario: string;
  readonly endpoint: string;
  readonly perSecond: number;
  readonly windowS: number;
  readonly runs: number;
  /** "cold": the window starts with no workers (scaled to zero); "warm": after the warm-up. */
  readonly start: "cold" | "warm";
  /** Whether parameter draws carried the fit's uncertainty (a calibrated scenario). */
  readonly fitUncertainty: boolean;
  readonly delayMs: Record<keyof Pcts, Band>;
  readonly latencyMs: Record<keyof Pcts, Band>;
  /** Utilisation λ·E[S]/workersMax of the median draw. */
  readonly utilisation: number;
}

const PS = [0.5, 0.9, 0.99] as const;
const KEYS = ["p50", "p90", "p99"] as const;

class WindowObserver implements ServerlessObserver {
  readonly delays = new Map<number, number[]>();
  readonly latencies = new Map<number, number[]>();
  constructor(
    private readonly from: number,
    private readonly to: number,
  ) {}
  private push(m: Map<number, number[]>, e: number, v: number): void {
    let a = m.get(e);
    if (a === undefined) m.set(e, (a = []));
    a.push(v);
  }
  jobQueued(): void {}
  jobStarted(endpoint: number, enqueuedAt: number, now: number): void {
    if (enqueuedAt >= this.from && enqueuedAt < this.to) this.push(this.delays, endpoint, (now - enqueuedAt) / 1000);
  }
  jobEnded(endpoint: number, status: JobStatus, enqueuedAt: number, startedAt: number, now: number): void {
    if (status === "COMPLETED" && startedAt >= 0 && enqueuedAt >= this.from && enqueuedAt < this.to) this.push(this.latencies, endpoint, (now - enqueuedAt) / 1000);
  }
  jobDropped(): void {}
  workersChanged(): void {}
  coldStart(_e: number, _l: GpuLease): void {}
  leaseReleased(): void {}
  placementFailed(): void {}
}

function calibrationOf(s: Scenario): Calibration | undefined {
  const c = s.calibration as unknown as Calibration | undefined;
  return c !== undefined && Array.isArray(c.draws) && c.draws.length > 0 ? c : undefined;
}

/** The scenario with draw k of the calibration and the rate applied. */
function variant(s: Scenario, perSecond: number, k: number, cal: Calibration | undefined): Scenario {
  const ep = s.endpoints?.[0];
  if (ep === undefined || (s.jobs ?? []).length !== 1) throw new ScenarioError(`${s.name}: predictions need one endpoint in endpoints and one job workload`);
  const draw = cal?.draws[k % cal.draws.length];
  const endpoints = [{ ...ep, ...(draw !== undefined ? { executionMs: draw.executionMs, coldStartMs: draw.coldStartMs } : {}) }, ...(s.endpoints ?? []).slice(1)];
  const jobs = (s.jobs ?? []).map((j) => ({ ...j, perSecond }));
  const { calibration: _c, ...rest } = s;
  return { ...rest, endpoints, jobs };
}

export function predict(loaded: LoadedScenario, o: PredictOptions): Prediction {
  const s = loaded.scenario;
  if (!(o.perSecond > 0)) throw new ScenarioError(`--arrival must be a rate above 0 jobs/s, got ${o.perSecond}`);
  const cal = calibrationOf(s);
  const windowS = o.windowS ?? cal?.measured.durationS ?? 600;
  const runs = o.runs ?? 40;
  const cold = o.fromCold === true && (s.endpoints?.[0]?.workersMin ?? 0) === 0;
  const warmupS = cold ? 0 : (s.warmupMinutes ?? 0) * 60;
  // Jobs submitted in the window are followed until they finish: a tail after it.
  const tailS = Math.max(60, windowS / 2);
  const catalog = loadCatalog();
  const perRun: Array<{ d: number[]; l: number[]; rho: number }> = [];
  const endpointId = s.endpoints?.[0]?.id ?? "";
  for (let k = 0; k < runs; k++) {
    const scenario = variant(s, o.perSecond, k, cal);
    const from = Math.round(warmupS * 1e6);
    const obs = new WindowObserver(from, from + Math.round(windowS * 1e6));
    const hours = (warmupS + windowS + tailS) / 3600;
    const model = buildModel({ ...loaded, scenario: { ...scenario, hours } }, { seed: (o.seed + k) >>> 0, hours, catalog, observer: obs });
    model.platform.advanceTo(model.endUs);
    const index = model.endpoints.find((e) => e.id === endpointId)?.index ?? model.endpoints[0].index;
    const d = obs.delays.get(index) ?? [];
    const l = obs.latencies.get(index) ?? [];
    if (l.length === 0) throw new ScenarioError(`${s.name}: no job completed in a ${windowS} s window at ${o.perSecond} jobs/s; a longer window or a higher rate`);
    const ep = scenario.endpoints?.[0];
    perRun.push({ d: percentiles(d, PS), l: percentiles(l, PS), rho: ep?.workersMax !== undefined ? (o.perSecond * meanExec(l, d)) / 1000 / ep.workersMax : Number.NaN });
  }
  const band = (xs: number[]): Band => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { median: sig(quantileSorted(sorted, 0.5)), lo: sig(quantileSorted(sorted, 0.025)), hi: sig(quantileSorted(sorted, 0.975)) };
  };
  const pick = (which: "d" | "l") => Object.fromEntries(KEYS.map((key, i) => [key, band(perRun.map((r) => r[which][i]))])) as Record<keyof Pcts, Band>;
  return {
    scenario: s.name,
    endpoint: endpointId,
    perSecond: o.perSecond,
    windowS,
    runs,
    start: cold ? "cold" : "warm",
    fitUncertainty: cal !== undefined,
    delayMs: pick("d"),
    latencyMs: pick("l"),
    utilisation: sig(band(perRun.map((r) => r.rho)).median, 3),
  };
}

/** Mean execution from latencies and delays (each job's latency is its delay plus its run time). */
function meanExec(l: readonly number[], d: readonly number[]): number {
  let sl = 0;
  for (const x of l) sl += x;
  let sd = 0;
  for (const x of d) sd += x;
  return sl / l.length - (d.length > 0 ? sd / d.length : 0);
}
