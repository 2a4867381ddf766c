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
import type { JobWorkload, PodWorkload, Scenario } from "./scenario.ts";
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
  readonly endpoint: number;
  readonly account: number;
  readonly rng: Rng;
  /** The thinning envelope: the highest rate the daily cycle reaches, per microsecond. */
  readonly peakRatePerUs: number;
  readonly weights: readonly number[];
  readonly inputs: readonly unknown[];
}

/** Installs the workload's arrival processes; they run until `endUs`. */
export function installWorkload(platform: Platform, scenario: Scenario, rng: Rng, endUs: Micros): WorkloadCounters {
  const engine = platform.engine;
  const counters: WorkloadCounters = { podsRequested: 0, podsCreated: 0, podStockOuts: 0, podsTerminated: 0, jobsSubmitted: 0 };
  const ctx = catalogContext(platform.catalog);

  const podSources: PodSource[] = scenario.pods.map((spec, i) => {
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

  const jobSources: JobSource[] = scenario.jobs.map((spec, i) => {
    const endpoint = platform.serverless.endpointIndex(spec.endpoint);
    if (endpoint < 0) throw new ScenarioError(`scenario ${scenario.name}: /jobs/${i}/endpoint: no endpoint "${spec.endpoint}" in the catalog`);
    const account = platform.serverless.accountIndex(spec.account);
    if (account < 0) throw new ScenarioError(`scenario ${scenario.name}: /jobs/${i}/account: no account "${spec.account}" in the catalog`);
    if (!spec.inputs.some((x) => x.weight > 0)) throw new ScenarioError(`scenario ${scenario.name}: /jobs/${i}/inputs: needs a positive weight`);
    const amplitude = spec.diurnal?.amplitude ?? 0;
    return {
      spec,
      endpoint,
      account,
      rng: rng.fork(`jobs:${i}`),
      peakRatePerUs: (spec.perSecond * (1 + amplitude)) / seconds(1),
      weights: spec.inputs.map((x) => x.weight),
      inputs: spec.inputs.map((x) => x.input),
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
    if (src.spec.diurnal === undefined || src.rng.next() < rateAt(src, now) / (src.peakRatePerUs * seconds(1))) {
      const input = src.inputs.length === 1 ? src.inputs[0] : src.rng.weightedChoice(src.inputs, src.weights);
      platform.serverless.submitFast(src.endpoint, src.account, input);
      counters.jobsSubmitted++;
    }
    const next = now + Math.max(1, Math.round(src.rng.exponential(1 / src.peakRatePerUs)));
    if (next <= endUs) engine.at(next, jobArrival, i);
  });

  const start = engine.now;
  podSources.forEach((src, i) => engine.at(start + Math.max(1, Math.round(src.rng.exponential(src.meanGapUs))), podArrival, i));
  jobSources.forEach((src, i) => engine.at(start + Math.max(1, Math.round(src.rng.exponential(1 / src.peakRatePerUs))), jobArrival, i));
  return counters;
}

/** Jobs per second at virtual time `now` under the daily cycle. */
function rateAt(src: JobSource, now: Micros): number {
  const d = src.spec.diurnal;
  if (d === undefined) return src.spec.perSecond;
  const hourOfDay = (now / hours(1)) % 24;
  return src.spec.perSecond * (1 + d.amplitude * Math.cos(((hourOfDay - d.peakHour) / 24) * 2 * Math.PI));
}
