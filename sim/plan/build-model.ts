/**
 * Builds the model of one planning run: the catalog with the scenario's endpoints, GPU supply and
 * prices applied (the catalog files are never edited), a Platform wired to a metrics observer,
 * and the workload installed. Errors name the scenario file and the field.
 */
import { hours, minutes, type Micros } from "../core/index.ts";
import { loadCatalog, type Catalog, type Endpoint, type GpuHost, type Host } from "../catalog/index.ts";
import { Platform } from "../domain/platform.ts";
import { getHandler, type JobHandler } from "../domain/handlers/index.ts";
import type { GpuLease } from "../domain/gpu-pool.ts";
import type { FastSubmitOptions, JobTransition, ServerlessObserver } from "../domain/serverless/index.ts";
import type { PlanEndpointConfig } from "../../reports/plan-report.ts";
import { planHandler, meanMs } from "./plan-handler.ts";
import type { MmcParams } from "./seed-result.ts";
import { ScenarioError, type EndpointSpec, type LoadedScenario, type Scenario } from "./scenario.ts";
import { installWorkload, type WorkloadCounters } from "./workload.ts";

/** Defaults of a new (planner) endpoint, as documented in docs/scenarios.md. */
export const ENDPOINT_DEFAULTS = {
  gpuCount: 1,
  workersMin: 0,
  workersMax: 3,
  scaler: { type: "QueueDelay", value: 4 },
  idleTimeoutMs: 5000,
  coldStartMs: { mean: 10_000, cv: 0.3 },
  executionTimeoutMs: 600_000,
  failureProbability: 0,
} as const;

/** At most this many jobs (by the workloads' mean rates) in one run: a limit on everything. */
export const MAX_JOBS_PER_RUN = 500_000_000;

/** What the planner reports on for one endpoint, known before the run. */
export interface PlannedEndpoint extends PlanEndpointConfig {
  readonly index: number;
  readonly id: string;
  /** Set when the endpoint is an M/M/c queue: fixed c workers, one Poisson source, exponential service. */
  readonly mmc?: MmcParams;
}

export interface BuiltModel {
  readonly platform: Platform;
  readonly counters: WorkloadCounters;
  readonly endpoints: readonly PlannedEndpoint[];
  readonly startUs: Micros;
  readonly warmupUs: Micros;
  readonly endUs: Micros;
  /** USD per GPU-hour of a lease. */
  readonly priceOf: (lease: GpuLease) => number;
}

export interface BuildOptions {
  readonly seed: number;
  readonly hours?: number;
  readonly catalog?: Catalog;
  readonly observer?: ServerlessObserver;
  /** Every job state change (cpsim simulate's per-status counts). */
  readonly onTransition?: (t: JobTransition) => void;
}

/** The catalog with the scenario applied, and the planner handlers by name. */
export function scenarioCatalog(loaded: LoadedScenario, base: Catalog): { catalog: Catalog; handlers: Map<string, JobHandler>; submitOptions: Record<string, FastSubmitOptions> } {
  const { scenario, label } = loaded;
  const handlers = new Map<string, JobHandler>();
  const submitOptions: Record<string, FastSubmitOptions> = {};
  const gpuTypes = new Set(base.gpuTypes.map((g) => g.id));
  const endpoints: Endpoint[] = [...base.endpoints];
  (scenario.endpoints ?? []).forEach((spec, i) => {
    const where = `${label}: /endpoints/${i}`;
    const existing = endpoints.findIndex((e) => e.id === spec.id);
    const base0 = existing >= 0 ? endpoints[existing] : undefined;
    if (base0 === undefined && spec.executionMs === undefined) {
      throw new ScenarioError(`${where}/executionMs: a new endpoint ("${spec.id}" is not in the catalog) needs executionMs, a duration distribution`);
    }
    if (base0 === undefined && spec.gpuTypeIds === undefined) {
      throw new ScenarioError(`${where}/gpuTypeIds: a new endpoint ("${spec.id}" is not in the catalog) needs gpuTypeIds`);
    }
    for (const [k, g] of (spec.gpuTypeIds ?? []).entries()) {
      if (!gpuTypes.has(g)) throw new ScenarioError(`${where}/gpuTypeIds/${k}: no GPU type "${g}" in the catalog; known: ${[...gpuTypes].join(", ")}`);
    }
    const d = ENDPOINT_DEFAULTS;
    const merged = {
      ...(base0 ?? { id: spec.id, name: spec.id, accountId: null, handler: "conformance", public: false, slug: null }),
      gpuTypeIds: spec.gpuTypeIds ?? base0?.gpuTypeIds ?? [],
      gpuCount: spec.gpuCount ?? base0?.gpuCount ?? d.gpuCount,
      workersMin: spec.workersMin ?? base0?.workersMin ?? d.workersMin,
      workersMax: spec.workersMax ?? base0?.workersMax ?? d.workersMax,
      scalerType: spec.scaler?.type ?? base0?.scalerType ?? d.scaler.type,
      scalerValue: spec.scaler?.value ?? base0?.scalerValue ?? d.scaler.value,
      idleTimeoutMs: spec.idleTimeoutMs ?? base0?.idleTimeoutMs ?? d.idleTimeoutMs,
      coldStartMs: spec.coldStartMs ?? base0?.coldStartMs ?? d.coldStartMs,
      executionTimeoutMs: spec.executionTimeoutMs ?? base0?.executionTimeoutMs ?? d.executionTimeoutMs,
    };
    if (merged.workersMin > merged.workersMax) {
      throw new ScenarioError(`${where}/workersMin: ${merged.workersMin} is above workersMax ${merged.workersMax}`);
    }
    if (spec.executionMs !== undefined || spec.failureProbability !== undefined) {
      const name = `plan:${spec.id}`;
      const execution = spec.executionMs ?? { dist: "constant", value: 1000 };
      handlers.set(name, planHandler(name, execution, spec.failureProbability ?? d.failureProbability));
      merged.handler = name as Endpoint["handler"];
    }
    if (spec.ttlMs !== undefined) submitOptions[spec.id] = Object.freeze({ ttlMs: spec.ttlMs });
    if (existing >= 0) endpoints[existing] = merged as Endpoint;
    else endpoints.push(merged as Endpoint);
  });
  for (const [k, v] of Object.entries(scenario.prices ?? {})) {
    if (!gpuTypes.has(k)) throw new ScenarioError(`${label}: /prices/${k}: no GPU type "${k}" in the catalog`);
    if (!(v >= 0)) throw new ScenarioError(`${label}: /prices/${k}: must be a price >= 0`);
  }
  let hosts: Host[] = [...base.hosts];
  for (const [type, want] of Object.entries(scenario.gpuSupply ?? {})) {
    if (!gpuTypes.has(type)) throw new ScenarioError(`${label}: /gpuSupply/${type}: no GPU type "${type}" in the catalog`);
    hosts = withSupply(hosts, type, want, base);
  }
  return { catalog: { ...base, endpoints, hosts }, handlers, submitOptions };
}

/** Hosts with exactly `want` GPUs of `type`: the catalog's hosts trimmed in order, or more added like them. */
function withSupply(hosts: Host[], type: string, want: number, base: Catalog): Host[] {
  const out: Host[] = [];
  let have = 0;
  let template: GpuHost | undefined;
  for (const h of hosts) {
    if (h.kind !== "gpu" || h.gpuTypeId !== type) {
      out.push(h);
      continue;
    }
    template ??= h;
    if (have >= want) continue;
    const n = Math.min(h.gpuCount, want - have);
    out.push(n === h.gpuCount ? h : { ...h, gpuCount: n });
    have += n;
  }
  const maxPerHost = base.gpuTypes.find((g) => g.id === type)?.maxGpuCount ?? 8;
  const dc = base.dataCenters[0]?.id ?? "PLAN-1";
  for (let k = 0; have < want; k++) {
    const n = Math.min(maxPerHost, want - have);
    const t: GpuHost = template ?? ({ id: "", kind: "gpu", dataCenterId: dc, cloud: "SECURE", gpuTypeId: type, gpuCount: n, cudaVersion: "12.8", vcpuCount: 16 * n, memoryInGb: 64 * n } as GpuHost);
    out.push({ ...t, id: `plan-${type.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${k}`, gpuCount: n });
    have += n;
  }
  return out;
}

/** The endpoints a report covers: the scenario's own, then those its jobs use, in order of first mention. */
function reportedEndpointIds(scenario: Scenario): string[] {
  const ids: string[] = [];
  for (const e of scenario.endpoints ?? []) if (!ids.includes(e.id)) ids.push(e.id);
  for (const j of scenario.jobs ?? []) if (!ids.includes(j.endpoint)) ids.push(j.endpoint);
  return ids;
}

export function buildModel(loaded: LoadedScenario, options: BuildOptions): BuiltModel {
  const { scenario } = loaded;
  const base = options.catalog ?? loadCatalog();
  const { catalog, handlers, submitOptions } = scenarioCatalog(loaded, base);
  const platform = new Platform({
    seed: options.seed,
    catalog,
    stock: {
      outsideIntensity: scenario.outsideDemand?.intensity ?? 0.5,
      ...(scenario.outsideDemand?.meanHoldMinutes !== undefined ? { outsideMeanHold: Math.round(minutes(scenario.outsideDemand.meanHoldMinutes)) } : {}),
    },
    serverless: {
      ...(options.observer !== undefined ? { observer: options.observer } : {}),
      ...(options.onTransition !== undefined ? { onTransition: options.onTransition } : {}),
      resolveHandler: (name) => handlers.get(name) ?? getHandler(name),
    },
  });
  const runHours = options.hours ?? scenario.hours;
  const expected = (scenario.jobs ?? []).reduce((a, j) => a + (j.perSecond ?? 0) * runHours * 3600, 0);
  if (expected > MAX_JOBS_PER_RUN) {
    throw new ScenarioError(
      `${loaded.label}: about ${Math.round(expected).toLocaleString("en-US")} jobs in ${runHours} hours; at most ${MAX_JOBS_PER_RUN.toLocaleString("en-US")} per run: lower the rates or the hours`,
    );
  }
  const endUs = Math.round(hours(runHours));
  const warmupUs = Math.min(endUs, Math.round(minutes(scenario.warmupMinutes ?? 0)));
  const counters = installWorkload(platform, scenario, platform.engine.rng.fork("workload"), endUs, { traces: loaded.traces, submitOptions });
  const endpoints = reportedEndpointIds(scenario).map((id): PlannedEndpoint => {
    const index = platform.serverless.endpointIndex(id);
    const e = catalog.endpoints.find((x) => x.id === id || x.slug === id) as Endpoint;
    const spec: EndpointSpec | undefined = scenario.endpoints?.find((x) => x.id === id);
    return {
      index,
      id: e.id,
      gpuTypeIds: e.gpuTypeIds,
      gpuCount: e.gpuCount,
      workersMin: e.workersMin,
      workersMax: e.workersMax,
      scaler: `${e.scalerType} ${e.scalerValue}`,
      idleTimeoutMs: e.idleTimeoutMs,
      ...mmcOf(scenario, id, e, spec),
    };
  });
  const prices = scenario.prices ?? {};
  const typeById = new Map(catalog.gpuTypes.map((g) => [g.id, g]));
  const priceOf = (lease: GpuLease): number => {
    const own = prices[lease.gpuTypeId];
    if (own !== undefined) return own;
    const g = typeById.get(lease.gpuTypeId);
    if (g === undefined) return 0;
    return (lease.cloud === "SECURE" ? g.securePrice : g.communityPrice) ?? g.securePrice ?? g.communityPrice ?? 0;
  };
  return { platform, counters, endpoints, startUs: 0, warmupUs, endUs, priceOf };
}

/** M/M/c parameters when the endpoint is one (see PlannedEndpoint.mmc). */
function mmcOf(scenario: Scenario, id: string, e: Endpoint, spec: EndpointSpec | undefined): { mmc?: PlannedEndpoint["mmc"] } {
  const sources = (scenario.jobs ?? []).filter((j) => j.endpoint === id);
  if (spec?.executionMs?.dist !== "exponential" || (spec.failureProbability ?? 0) > 0 || spec.ttlMs !== undefined) return {};
  if (e.workersMin !== e.workersMax || sources.length !== 1) return {};
  const j = sources[0];
  if (j.perSecond === undefined || j.trace !== undefined || j.diurnal !== undefined || j.curve !== undefined || j.bursts !== undefined) return {};
  // Workers that never stop cold-start only at time 0: fine once the warm-up covers it.
  if (e.coldStartMs.mean > 0 && !((scenario.warmupMinutes ?? 0) * 60_000 >= 20 * e.coldStartMs.mean)) return {};
  return { mmc: { c: e.workersMin, lambda: j.perSecond, mu: 1000 / meanMs(spec.executionMs) } };
}
