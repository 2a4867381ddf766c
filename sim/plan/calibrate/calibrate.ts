/**
 * `cpsim plan calibrate` as a library: measurements of an endpoint → an ordinary scenario file whose
 * values were fitted to them, each with its 95% interval and where it came from, and parameter
 * draws (bootstrap refits) that predictions run to carry the fit's uncertainty.
 */
import type { Distribution, Scenario } from "../scenario.ts";
import { ScenarioError } from "../scenario.ts";
import { empiricalOf, fitFamilies, mle, type Family, type FamilyFit } from "./distributions.ts";
import type { JobMeasurement } from "./measurement.ts";
import { arrivals, coldStarts, discipline, idleTimeoutSeen, runningAtOnce, workersSeen, type IdleTimeoutSeen } from "./observe.ts";
import { cv, interval95, mean, percentiles, poissonRateInterval, resamples, sig } from "./sample-stats.ts";

export interface CalibrateOptions {
  /** One seed drives every bootstrap. */
  readonly seed: number;
  /** Bootstrap resamples for the intervals (default 200). */
  readonly bootstrap?: number;
  /** Parameter draws kept in the file for predictions (default 40). */
  readonly draws?: number;
  /** GPU type of the modelled workers (default the first of the catalog's A100s). */
  readonly gpuTypeId?: string;
  /** Names the measurements in the provenance (file paths); their targets otherwise. */
  readonly sources?: readonly string[];
}

export interface FittedValue {
  readonly value: unknown;
  readonly interval?: readonly [number, number];
  readonly source: string;
  readonly method: string;
  readonly note?: string;
}

export interface RunTimeFit {
  readonly op: string;
  readonly n: number;
  readonly chosen: Family | "empirical";
  readonly dist: Distribution;
  readonly fits: ReadonlyArray<Pick<FamilyFit, "family" | "aic" | "ks" | "ksP"> & { readonly dist: Distribution }>;
  readonly meanMs: number;
  readonly meanInterval: readonly [number, number];
}

export interface Calibration {
  readonly format: "cpsim-calibration/1";
  readonly seed: number;
  readonly sources: ReadonlyArray<{ source: string; endpoint: string; offeredPerSecond: number; durationS: number; jobs: number }>;
  readonly values: Readonly<Record<string, FittedValue>>;
  readonly runTimes: readonly RunTimeFit[];
  readonly measured: { readonly perSecond: number; readonly durationS: number; readonly delayMs: Pcts; readonly latencyMs: Pcts };
  readonly rateLimits: JobMeasurement["rateLimits"];
  /** Bootstrap refits: each a complete set of the fitted values a prediction may vary. */
  readonly draws: ReadonlyArray<{ readonly executionMs: Distribution; readonly coldStartMs: { readonly mean: number; readonly cv: number } }>;
}

export interface Pcts {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

/** A family fits when the KS distance is small in absolute terms or not significant at 1%. */
export const KS_ACCEPT = { maxDistance: 0.03, minP: 0.01 } as const;

export function measuredPercentiles(ms: readonly JobMeasurement[]): { delayMs: Pcts; latencyMs: Pcts } {
  const ran = ms.flatMap((m) => m.jobs).filter((j) => j.delayMs !== undefined && j.executionMs !== undefined);
  const [d50, d90, d99] = percentiles(ran.map((j) => j.delayMs as number), [0.5, 0.9, 0.99]).map((x) => sig(x));
  const [l50, l90, l99] = percentiles(ran.map((j) => (j.delayMs as number) + (j.executionMs as number)), [0.5, 0.9, 0.99]).map((x) => sig(x));
  return { delayMs: { p50: d50, p90: d90, p99: d99 }, latencyMs: { p50: l50, p90: l90, p99: l99 } };
}

function refit(chosen: Family | "empirical", xs: readonly number[]): Distribution {
  return chosen === "empirical" ? empiricalOf(xs) : mle(chosen, xs.map((x) => Math.max(x, 0.5))).dist;
}

function meanOf(d: Distribution): number {
  if (d.dist === "exponential" || d.dist === "lognormal" || d.dist === "gamma") return d.mean;
  if (d.dist === "weibull") return d.scale * Math.exp(lgamma(1 + 1 / d.shape));
  if (d.dist === "empirical") return mean(d.quantiles);
  if (d.dist === "constant") return d.value;
  return (d.min + d.max) / 2;
}

function lgamma(x: number): number {
  // Stirling with two corrections: enough for a reported mean (x >= 1 here).
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x ** 3);
}

/** Fits one operation's run times: the best family by AIC if it fits, the empirical distribution otherwise. */
export function fitRunTimes(op: string, xs: readonly number[], seed: number, bootstrap: number): RunTimeFit & { boot: number[][] } {
  const fits = fitFamilies(xs);
  const ok = fits.find((f) => f.ks <= KS_ACCEPT.maxDistance || f.ksP >= KS_ACCEPT.minP);
  const chosen = ok?.family ?? "empirical";
  const dist = ok?.dist ?? empiricalOf(xs);
  const boot = resamples(xs, bootstrap, seed, `calibrate-runtime-${op}`);
  const means = boot.map((b) => mean(b));
  return {
    op,
    n: xs.length,
    chosen,
    dist: roundDist(dist),
    fits: fits.map((f) => ({ family: f.family, dist: roundDist(f.dist), aic: sig(f.aic, 8), ks: sig(f.ks), ksP: sig(f.ksP) })),
    meanMs: sig(meanOf(dist)),
    meanInterval: interval95(means).map((x) => sig(x)) as [number, number],
    boot,
  };
}

function roundDist(d: Distribution): Distribution {
  const r = (x: number) => sig(x, 6);
  switch (d.dist) {
    case "exponential":
      return { dist: "exponential", mean: r(d.mean) };
    case "lognormal":
    case "gamma":
      return { dist: d.dist, mean: r(d.mean), cv: r(d.cv) };
    case "weibull":
      return { dist: "weibull", shape: r(d.shape), scale: r(d.scale) };
    default:
      return d;
  }
}

/** The idle timeout over every measurement: their timed stops pooled. */
function idleFit(ms: readonly JobMeasurement[]): Pick<IdleTimeoutSeen, "stops" | "estimatesMs" | "valueMs" | "intervalMs"> {
  const seen = ms.map(idleTimeoutSeen);
  const estimates = seen.flatMap((x) => x.estimatesMs).sort((a, b) => a - b);
  const timed = seen.filter((x) => x.intervalMs !== undefined).map((x) => x.intervalMs as readonly [number, number]);
  return {
    stops: seen.reduce((a, x) => a + x.stops, 0),
    estimatesMs: estimates,
    ...(estimates.length > 0 ? { valueMs: percentiles(estimates, [0.5])[0], intervalMs: [Math.min(...timed.map((x) => x[0])), Math.max(...timed.map((x) => x[1]))] as const } : {}),
  };
}

export function calibrate(ms: readonly JobMeasurement[], o: CalibrateOptions): { scenario: Scenario; calibration: Calibration } {
  if (ms.length === 0) throw new ScenarioError("calibrate needs at least one measurement");
  const endpoint = ms[0].endpoint;
  const B = o.bootstrap ?? 200;
  const K = o.draws ?? 40;
  const jobs = ms.flatMap((m) => m.jobs).filter((j) => j.status === "COMPLETED" && j.executionMs !== undefined && j.delayMs !== undefined);
  if (jobs.length < 20) throw new ScenarioError(`only ${jobs.length} completed jobs with timings; at least 20 are needed: measure longer or at a higher rate`);
  const sourceNames = ms.map((m, i) => o.sources?.[i] ?? `${m.target} (${m.startedAt})`);
  const src = sourceNames.join(", ");

  // Run times: per operation, and pooled for the endpoint's one distribution.
  const ops = [...new Set(jobs.map((j) => j.op))].sort();
  const perOp = ops.map((op) => fitRunTimes(op, jobs.filter((j) => j.op === op).map((j) => j.executionMs as number), o.seed, Math.min(B, 50)));
  const pooled = ops.length === 1 ? perOp[0] : fitRunTimes("all operations", jobs.map((j) => j.executionMs as number), o.seed, B);
  const execDraws = pooled.boot.slice(0, K).map((b) => roundDist(refit(pooled.chosen, b)));

  // Cold starts.
  const cs = coldStarts(ms);
  const csMean = cs.durationsMs.length > 0 ? mean(cs.durationsMs) : 0;
  const csCv = cs.durationsMs.length > 1 ? cv(cs.durationsMs) : 0.3;
  const csBoot = cs.durationsMs.length > 1 ? resamples(cs.durationsMs, B, o.seed, "calibrate-coldstart").map(mean) : [csMean];
  const csInterval = cs.durationsMs.length > 1 ? interval95(csBoot) : ([csMean, csMean] as [number, number]);
  const csDraws = Array.from({ length: K }, (_, k) => ({ mean: Math.round(csBoot[k % csBoot.length]), cv: sig(Math.min(csCv, 10)) }));

  // Workers, discipline, arrivals.
  const seenW = workersSeen(ms);
  // No /health sample at all (a proxy whose client never read it): the jobs seen running at once bound the workers below.
  const noHealth = ms.every((m) => m.health.length === 0 && m.settle.length === 0);
  const atOnce = noHealth ? runningAtOnce(jobs) : 0;
  const w = noHealth ? { min: atOnce, max: atOnce, atCapWithQueueS: 0, samples: 0 } : seenW;
  const disc = discipline(jobs);
  const idle = idleFit(ms);
  const watch = ms.map((m) => m.idleWatch).filter((x) => x !== undefined);
  const watchNote =
    watch.length === 0 || watch.every((x) => x.stopped === "off")
      ? "no idle watch after the last job (a measurement without one): the minimum may be lower"
      : watch.some((x) => x.stopped === "floor")
        ? "after the last job the workers came back to the count the endpoint had settled at before the first"
        : watch.some((x) => x.stopped === "quiet")
          ? "after the last job the workers stopped and then held at this count"
          : `the idle watch ended (its bound, ${watch[0].boundS} s) with no worker stopping: the minimum may be lower, or the idle timeout longer`;
  const last = ms[ms.length - 1];
  const arr = arrivals(last);
  const rateI = poissonRateInterval(arr.jobs, arr.durationS);
  const fixed = w.min === w.max;
  const measured = measuredPercentiles([last]);
  const gpu = o.gpuTypeId ?? "NVIDIA A100 80GB PCIe";

  const values: Record<string, FittedValue> = {
    "endpoints/0/executionMs": {
      value: pooled.dist,
      interval: pooled.meanInterval,
      source: `executionTime of ${pooled.n} completed jobs (${src})`,
      method:
        pooled.chosen === "empirical"
          ? `empirical distribution: no family fits (best ${pooled.fits[0].family}, KS ${pooled.fits[0].ks}, p ${pooled.fits[0].ksP})`
          : `maximum likelihood ${pooled.chosen}, lowest AIC of ${pooled.fits.length} families; KS ${pooled.fits.find((f) => f.family === pooled.chosen)?.ks} (p ${pooled.fits.find((f) => f.family === pooled.chosen)?.ksP})`,
      note: "interval: the mean run time, ms, 95% bootstrap percentile interval",
    },
    "endpoints/0/workersMin": noHealth
      ? {
          value: w.min,
          source: `start (submission + delayTime) and executionTime of ${jobs.length} jobs: no /health answer was seen (${src})`,
          method: "the most jobs seen running at once: a lower bound on the workers, taken as a fixed pool",
        }
      : {
          value: w.min,
          interval: [w.min, w.min],
          source: `/health workers (idle + running + initializing), ${w.samples} samples while measuring and after the last job (${src})`,
          method: "the fewest seen",
          note: fixed ? "a fixed pool: the same count throughout" : watchNote,
        },
    "endpoints/0/workersMax": {
      value: w.max,
      interval: [w.max, fixed || w.atCapWithQueueS > 0 ? w.max : 1000],
      source: `/health workers, ${w.samples} samples`,
      method: "the most seen",
      note: fixed
        ? "a fixed pool: the same count throughout"
        : w.atCapWithQueueS > 0
          ? `jobs waited ${sig(w.atCapWithQueueS, 3)} s with no worker starting: the cap was reached`
          : "the cap was never reached while measuring: the real cap may be higher (measure at a higher rate)",
    },
    "endpoints/0/coldStartMs": {
      value: { mean: Math.round(csMean), cv: sig(csCv) },
      interval: csInterval.map((x) => Math.round(x)) as [number, number],
      source: `${cs.durationsMs.length} worker start(s) timed on /health's initializing count`,
      method: "first-in first-out matching of rises and falls of the initializing count; interval: the mean, bootstrap",
      note:
        (cs.openAtStart > 0 ? `${cs.openAtStart} worker(s) were initializing at the first sample: timed from it (an underestimate by up to the time before it). ` : "") +
        (cs.durationsMs.length < 2 ? "fewer than 2 starts seen: the cv is the default 0.3. " : "") +
        "resolution: the /health sampling period",
    },
    "jobs/0/perSecond": {
      value: sig(arr.perSecond),
      interval: rateI.map((x) => sig(x)) as [number, number],
      source: `${arr.jobs} submissions in ${arr.durationS} s (${sourceNames[sourceNames.length - 1]})`,
      method: `exact Poisson interval; gaps: cv ${sig(arr.gapCv, 3)}, KS against an exponential p ${sig(arr.poissonP, 3)} (${arr.poissonP >= 0.01 ? "Poisson" : "not Poisson: the rate is the mean only"})`,
    },
    discipline: {
      value: disc.kind,
      source: `start order (submission + delayTime) of ${disc.jobs} jobs`,
      method: `${sig(disc.overtakesPerJob * 100, 3)}% of jobs certainly started before one certainly queued earlier (allowing for each run call's round trip); the model queues FIFO`,
    },
    rateLimits: {
      value: last.rateLimits,
      source: "RateLimit-Policy headers of the target's answers",
      method: last.rateLimits.length > 0 ? "as announced" : "none announced",
    },
    "endpoints/0/idleTimeoutMs": fixed
      ? { value: null, source: "not measured", method: "irrelevant for a fixed pool: no worker stopped" }
      : idle.valueMs !== undefined
        ? {
            value: Math.round(idle.valueMs),
            interval: (idle.intervalMs as readonly number[]).map((x) => Math.round(x)) as [number, number],
            source: `/health worker counts from the last scale-up through the idle watch after the last job: ${idle.estimatesMs.length} of ${idle.stops} worker stop(s) timed (${src})`,
            method:
              "the k-th stop at d: T ≤ d − (the last time fewer than k workers were idle or stopped), exact when the platform gives a job to the worker idle the shortest; the median over the stops; " +
              "interval: from the sampling gaps around each stop and each start of idleness",
          }
        : { value: null, source: `/health worker counts (${src})`, method: "no worker was seen to stop after the last scale-up: the scenario keeps the planner's default (5000 ms)", note: watchNote },
    "endpoints/0/scaler": {
      value: { type: "QueueDelay", value: 4 },
      source: "not measured",
      method: fixed ? "irrelevant for a fixed pool" : "the planner's default: the scaler's setting is not visible from outside",
    },
  };

  const calibration: Calibration = {
    format: "cpsim-calibration/1",
    seed: o.seed,
    sources: ms.map((m, i) => ({ source: sourceNames[i], endpoint: m.endpoint, offeredPerSecond: m.offeredPerSecond, durationS: m.durationS, jobs: m.jobs.length })),
    values,
    runTimes: perOp.map(({ boot: _b, ...r }) => r),
    measured: { perSecond: sig(arr.perSecond), durationS: last.durationS, delayMs: measured.delayMs, latencyMs: measured.latencyMs },
    rateLimits: last.rateLimits,
    draws: execDraws.map((e, k) => ({ executionMs: e, coldStartMs: csDraws[k] })),
  };
  const warmupS = Math.max(30, (20 * csMean) / 1000);
  const scenario: Scenario = {
    $comment: `Calibrated by cpsim plan calibrate from ${src}. Each fitted value's interval and source: calibration.values.`,
    name: `calibrated-${endpoint}`,
    description: `${endpoint} as measured: ${fixed ? `${w.max} fixed workers` : `${w.min}..${w.max} workers`}, ${pooled.chosen} run times (mean ${pooled.meanMs} ms), Poisson ${sig(arr.perSecond, 3)} jobs/s`,
    hours: sig((warmupS + 3600) / 3600, 6),
    warmupMinutes: sig(warmupS / 60, 6),
    outsideDemand: { intensity: 0 },
    gpuSupply: { [gpu]: Math.max(64, 2 * w.max) },
    endpoints: [
      {
        id: endpoint,
        gpuTypeIds: [gpu],
        workersMin: w.min,
        workersMax: Math.max(1, w.max),
        coldStartMs: { mean: Math.round(csMean), cv: sig(csCv) },
        executionMs: pooled.dist,
        ...(fixed ? {} : { scaler: { type: "QueueDelay" as const, value: 4 } }),
        ...(fixed || idle.valueMs === undefined ? {} : { idleTimeoutMs: Math.round(idle.valueMs) }),
      },
    ],
    jobs: [{ endpoint, perSecond: sig(arr.perSecond) }],
    calibration: calibration as unknown as Scenario["calibration"] & object,
  };
  return { scenario, calibration };
}
