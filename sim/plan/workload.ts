/**
 * Drives a Platform with a scenario's workload, inside the engine: pod arrivals (validated like
 * REST createPod requests) that are terminated after a lifetime, and job arrivals on endpoints.
 * Pure: engine events and seeded streams only, one stream per workload entry (forked by label),
 * so adding a workload never changes another's draws.
 */
import type { Micros, Rng } from "../core/index.ts";
import { hours, minutes, seconds } from "../core/index.ts";
import type { Platform } from "../domain/platform.ts";
import { catalogContext } from "../api/validate/index.ts";
import { validateCreatePod, type NormalizedCreatePod } from "../api/validate/index.ts";
import type { FastSubmitOptions } from "../domain/serverless/index.ts";
import type { JobWorkload, PodWorkload, Scenario, Trace } from "./scenario.ts";
import { ScenarioError } from "./scenario.ts";

export interface WorkloadCounters {
  podsRequested: number;
  podsCreated: number;
  /** Creations refused for want of capacity (a stock-out as a user meets it). */
  podStockOuts: number;
  podsTerminated: number;
  jobsSubmitted: number;
}

interface PodSource {
  readonly spec: PodWorkload;
  readonly body: NormalizedCreatePod;
  readonly rng: Rng;
  readonly meanGapUs: number;
}

interface JobSource {
  readonly spec: JobWorkload;
  /** Jobs per second before the daily cycle, curve and bursts. */
  readonly perSecond: number;
  /** Whether the rate varies (thinning draws a number per candidate). */
  readonly variable: boolean;
  readonly trace: Trace | undefined;
  readonly submitOptions: FastSubmitOptions | undefined;
  readonly endpoint: number;
  readonly account: number;
  readonly rng: Rng;
  /** The thinning envelope: the highest rate the daily cycle reaches, per microsecond. */
  readonly peakRatePerUs: number;
  readonly weights: readonly number[];
  readonly inputs: readonly unknown[];
}

export interface WorkloadExtras {
  /** Parsed traces by file name (see LoadedScenario). */
  readonly traces?: Readonly<Record<string, Trace>>;
  /** Per-endpoint submission options (policy.ttl of planner endpoints), by endpoint id. */
  readonly submitOptions?: Readonly<Record<string, FastSubmitOptions>>;
}

/** Installs the workload's arrival processes; they run until `endUs`. */
export function installWorkload(platform: Platform, scenario: Scenario, rng: Rng, endUs: Micros, extras: WorkloadExtras = {}): WorkloadCounters {
  const engine = platform.engine;
  const counters: WorkloadCounters = { podsRequested: 0, podsCreated: 0, podStockOuts: 0, podsTerminated: 0, jobsSubmitted: 0 };
  const ctx = catalogContext(platform.catalog);

  const podSources: PodSource[] = (scenario.pods ?? []).map((spec, i) => {
    const validated = validateCreatePod(spec.request, ctx);
    if (!validated.ok) {
      const why = validated.violations.map((v) => `${v.path || "/"}: ${v.message}`).join("; ");
      throw new ScenarioError(`scenario ${scenario.name}: /pods/${i}/request is not a valid createPod body: ${why}`);
    }
    if (!platform.catalog.accounts.some((a) => a.id === spec.account)) {
      throw new ScenarioError(`scenario ${scenario.name}: /pods/${i}/account: no account "${spec.account}" in the catalog`);
    }
    return { spec, body: validated.value, rng: rng.fork(`pods:${i}`), meanGapUs: hours(1) / spec.perHour };
  });

  const jobSources: JobSource[] = (scenario.jobs ?? []).map((spec, i) => {
    const where = `scenario ${scenario.name}: /jobs/${i}`;
    const endpoint = platform.serverless.endpointIndex(spec.endpoint);
    if (endpoint < 0) throw new ScenarioError(`${where}/endpoint: no endpoint "${spec.endpoint}" in the catalog or the scenario's endpoints`);
    const accountId = spec.account ?? platform.catalog.accounts[0]?.id ?? "";
    const account = platform.serverless.accountIndex(accountId);
    if (account < 0) throw new ScenarioError(`${where}/account: no account "${accountId}" in the catalog`);
    const inputs = spec.inputs ?? [{ weight: 1, input: {} }];
    if (!inputs.some((x) => x.weight > 0)) throw new ScenarioError(`${where}/inputs: needs a positive weight`);
    const trace = spec.trace === undefined ? undefined : extras.traces?.[spec.trace];
    if (spec.trace !== undefined && trace === undefined) throw new ScenarioError(`${where}/trace: trace ${spec.trace} was not loaded`);
    if (trace === undefined && spec.perSecond === undefined) throw new ScenarioError(`${where}: needs perSecond (a Poisson rate) or trace (a CSV file)`);
    const perSecond = spec.perSecond ?? 1;
    const amplitude = spec.diurnal?.amplitude ?? 0;
    const curveMax = spec.curve === undefined ? 1 : Math.max(...spec.curve);
    const burstMax = Math.max(1, ...(spec.bursts ?? []).map((b) => b.multiplier));
    if (trace === undefined && !(curveMax > 0)) throw new ScenarioError(`${where}/curve: needs a positive multiplier`);
    return {
      spec,
      perSecond,
      variable: spec.diurnal !== undefined || spec.curve !== undefined || spec.bursts !== undefined,
      trace,
      submitOptions: extras.submitOptions?.[spec.endpoint],
      endpoint,
      account,
      rng: rng.fork(`jobs:${i}`),
      peakRatePerUs: (perSecond * (1 + amplitude) * curveMax * burstMax) / seconds(1),
      weights: inputs.map((x) => x.weight),
      inputs: inputs.map((x) => x.input),
    };
  });

  // Pods alive because of the workload, by a small integer handle the end event carries.
  const livePods = new Map<number, { readonly podId: string; readonly account: string }>();
  let nextHandle = 0;

  const podArrival = engine.defineKind("workload.pod-arrival", (i, now) => {
    const src = podSources[i];
    counters.podsRequested++;
    const outcome = platform.pods.create(src.spec.account, src.body);
    if (outcome.ok) {
      counters.podsCreated++;
      const handle = nextHandle++;
      livePods.set(handle, { podId: outcome.pod.id, account: src.spec.account });
      const life = Math.max(1, Math.round(minutes(src.rng.lognormalMeanCv(src.spec.lifetimeMinutes.mean, src.spec.lifetimeMinutes.cv))));
      if (now + life <= endUs) engine.at(now + life, podEnd, handle);
    } else if (outcome.code === "no-capacity") {
      counters.podStockOuts++;
    }
    const next = now + Math.max(1, Math.round(src.rng.exponential(src.meanGapUs)));
    if (next <= endUs) engine.at(next, podArrival, i);
  });
  const podEnd = engine.defineKind("workload.pod-end", (handle) => {
    const live = livePods.get(handle);
    livePods.delete(handle);
    if (live === undefined) return;
    if (platform.pods.action(live.account, live.podId, "terminate").ok) counters.podsTerminated++;
  });

  const jobArrival = engine.defineKind("workload.job-arrival", (i, now) => {
    const src = jobSources[i];
    // Thinning (Lewis–Shedler): candidates at the peak rate, each kept with rate(t)/peak.
    if (!src.variable || src.rng.next() < rateAt(src, now) / (src.peakRatePerUs * seconds(1))) {
      const input = src.inputs.length === 1 ? src.inputs[0] : src.rng.weightedChoice(src.inputs, src.weights);
      platform.serverless.submitFast(src.endpoint, src.account, input, src.submitOptions);
      counters.jobsSubmitted++;
    }
    const next = now + Math.max(1, Math.round(src.rng.exponential(1 / src.peakRatePerUs)));
    if (next <= endUs) engine.at(next, jobArrival, i);
  });

  // A trace replays its rows in order: one event per arrival, the row index in a per-source cursor.
  const cursors = new Int32Array(jobSources.length);
  const traceArrival = engine.defineKind("workload.trace-arrival", (i, now) => {
    const src = jobSources[i];
    const trace = src.trace as Trace;
    let k = cursors[i];
    // Rows at the same microsecond arrive in one event.
    for (; k < trace.offsetsUs.length && start + trace.offsetsUs[k] <= now; k++) {
      const d = trace.durationsMs[k];
      const input = Number.isNaN(d) ? src.inputs[0] : { durationMs: d };
      platform.serverless.submitFast(src.endpoint, src.account, input, src.submitOptions);
      counters.jobsSubmitted++;
    }
    cursors[i] = k;
    if (k < trace.offsetsUs.length && start + trace.offsetsUs[k] <= endUs) engine.at(start + trace.offsetsUs[k], traceArrival, i);
  });

  const start = engine.now;
  podSources.forEach((src, i) => engine.at(start + Math.max(1, Math.round(src.rng.exponential(src.meanGapUs))), podArrival, i));
  jobSources.forEach((src, i) => {
    if (src.trace !== undefined) {
      if (src.trace.offsetsUs.length > 0 && start + src.trace.offsetsUs[0] <= endUs) engine.at(start + src.trace.offsetsUs[0], traceArrival, i);
    } else {
      engine.at(start + Math.max(1, Math.round(src.rng.exponential(1 / src.peakRatePerUs))), jobArrival, i);
    }
  });
  return counters;
}

/** Jobs per second at virtual time `now` under the daily cycle, the daily curve and the bursts. */
export function rateAt(src: Pick<JobSource, "spec" | "perSecond">, now: Micros): number {
  const { diurnal: d, curve, bursts } = src.spec;
  const hourOfDay = (now / hours(1)) % 24;
  let rate = src.perSecond;
  if (d !== undefined) rate *= 1 + d.amplitude * Math.cos(((hourOfDay - d.peakHour) / 24) * 2 * Math.PI);
  if (curve !== undefined) {
    const h = Math.floor(hourOfDay);
    const f = hourOfDay - h;
    rate *= curve[h % 24] * (1 - f) + curve[(h + 1) % 24] * f;
  }
  if (bursts !== undefined) {
    const minute = now / minutes(1);
    for (const b of bursts) {
      const since = minute - b.startMinute;
      if (since < 0) continue;
      const into = b.everyMinutes === undefined ? since : since % b.everyMinutes;
      if (into < b.durationMinutes) rate *= b.multiplier;
    }
  }
  return rate;
}
