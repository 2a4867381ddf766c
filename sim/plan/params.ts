/**
 * Scenario parameters that --sweep and --find vary: `[ENDPOINT.]FIELD`, or a scenario-wide one.
 * Setting one returns a new scenario; the file is never changed.
 */
import { ScenarioError, type EndpointSpec, type Scenario } from "./scenario.ts";

interface ParamInfo {
  readonly help: string;
  readonly integer: boolean;
  readonly min: number;
  readonly max: number;
  /** Default search range for --find. */
  readonly range?: readonly [number, number];
}

export const ENDPOINT_PARAMS: Readonly<Record<string, ParamInfo>> = {
  workers: { help: "a fixed pool: workersMin = workersMax", integer: true, min: 1, max: 1000, range: [1, 64] },
  workersMax: { help: "most workers", integer: true, min: 1, max: 1000, range: [1, 64] },
  workersMin: { help: "workers kept running", integer: true, min: 0, max: 1000, range: [0, 64] },
  idleTimeoutMs: { help: "idle time before a worker above the minimum stops, ms", integer: true, min: 0, max: 86_400_000, range: [0, 600_000] },
  scalerValue: { help: "QueueDelay seconds or RequestCount jobs per worker", integer: false, min: 0.001, max: 3600, range: [1, 60] },
  gpuCount: { help: "GPUs per worker", integer: true, min: 1, max: 8, range: [1, 8] },
  executionTimeoutMs: { help: "execution timeout, ms", integer: true, min: 5000, max: 604_800_000 },
  ttlMs: { help: "job lifetime from submission, ms", integer: true, min: 10_000, max: 604_800_000 },
  perSecond: { help: "Poisson arrival rate of the endpoint's workloads, jobs/s", integer: false, min: 0.000001, max: 100_000 },
};

export const SCENARIO_PARAMS: Readonly<Record<string, ParamInfo>> = {
  outsideIntensity: { help: "outside tenants' load as a fraction of the GPUs", integer: false, min: 0, max: 100, range: [0, 1] },
  hours: { help: "virtual hours", integer: false, min: 0.001, max: 8760 },
};

export interface ParamRef {
  readonly name: string;
  /** The endpoint for endpoint fields; "" for scenario-wide ones and gpuSupply. */
  readonly endpoint: string;
  readonly field: string;
  readonly info: ParamInfo;
}

/** The endpoints a scenario reports on, in order of first mention. */
export function scenarioEndpoints(s: Scenario): string[] {
  const ids: string[] = [];
  for (const e of s.endpoints ?? []) if (!ids.includes(e.id)) ids.push(e.id);
  for (const j of s.jobs ?? []) if (!ids.includes(j.endpoint)) ids.push(j.endpoint);
  return ids;
}

export function paramNames(): string {
  return [
    ...Object.entries(ENDPOINT_PARAMS).map(([k, v]) => `[ENDPOINT.]${k} (${v.help})`),
    ...Object.entries(SCENARIO_PARAMS).map(([k, v]) => `${k} (${v.help})`),
    "gpuSupply.GPU_TYPE (GPUs of that type on the platform)",
  ].join("; ");
}

/** Resolves a parameter name against a scenario, or throws a ScenarioError saying what exists. */
export function resolveParam(s: Scenario, name: string): ParamRef {
  if (SCENARIO_PARAMS[name] !== undefined) return { name, endpoint: "", field: name, info: SCENARIO_PARAMS[name] };
  if (name.startsWith("gpuSupply.")) {
    return { name, endpoint: "", field: name, info: { help: "GPUs of a type", integer: true, min: 0, max: 100_000, range: [0, 256] } };
  }
  const dot = name.lastIndexOf(".");
  const field = dot < 0 ? name : name.slice(dot + 1);
  const info = ENDPOINT_PARAMS[field];
  if (info === undefined) throw new ScenarioError(`unknown parameter "${name}"; parameters: ${paramNames()}`);
  const ids = scenarioEndpoints(s);
  let endpoint = dot < 0 ? "" : name.slice(0, dot);
  if (endpoint === "") {
    if (ids.length !== 1) throw new ScenarioError(`parameter "${name}": the scenario has ${ids.length} endpoints (${ids.join(", ")}); name one: ENDPOINT.${field}`);
    endpoint = ids[0];
  } else if (!ids.includes(endpoint)) {
    throw new ScenarioError(`parameter "${name}": no endpoint "${endpoint}" in the scenario; endpoints: ${ids.join(", ")}`);
  }
  return { name, endpoint, field, info };
}

export function checkValue(p: ParamRef, v: number): void {
  if (!Number.isFinite(v) || v < p.info.min || v > p.info.max || (p.info.integer && !Number.isInteger(v))) {
    throw new ScenarioError(`parameter ${p.name}: ${v} is not ${p.info.integer ? "a whole number" : "a number"} in [${p.info.min}, ${p.info.max}]`);
  }
}

/** The scenario with the parameter set to `v`. */
export function applyParam(s: Scenario, p: ParamRef, v: number): Scenario {
  checkValue(p, v);
  if (p.field === "outsideIntensity") return { ...s, outsideDemand: { ...(s.outsideDemand ?? {}), intensity: v } };
  if (p.field === "hours") return { ...s, hours: v };
  if (p.field.startsWith("gpuSupply.")) return { ...s, gpuSupply: { ...(s.gpuSupply ?? {}), [p.field.slice("gpuSupply.".length)]: v } };
  if (p.field === "perSecond") {
    const jobs = (s.jobs ?? []).map((j) => (j.endpoint === p.endpoint && j.trace === undefined ? { ...j, perSecond: v } : j));
    return { ...s, jobs };
  }
  const endpoints: EndpointSpec[] = [...(s.endpoints ?? [])];
  let i = endpoints.findIndex((e) => e.id === p.endpoint);
  if (i < 0) {
    endpoints.push({ id: p.endpoint });
    i = endpoints.length - 1;
  }
  const e = endpoints[i];
  if (p.field === "workers") endpoints[i] = { ...e, workersMin: v, workersMax: v };
  else if (p.field === "scalerValue") endpoints[i] = { ...e, scaler: { type: e.scaler?.type ?? "QueueDelay", value: v } };
  else {
    const next: EndpointSpec = { ...e, [p.field]: v };
    // Sweeping the cap below the minimum (or the minimum above the cap) moves the other along.
    if (p.field === "workersMax" && next.workersMin !== undefined && next.workersMin > v) endpoints[i] = { ...next, workersMin: v };
    else if (p.field === "workersMin" && next.workersMax !== undefined && next.workersMax < v) endpoints[i] = { ...next, workersMax: v };
    else endpoints[i] = next;
  }
  return { ...s, endpoints };
}

/** `PARAM=v1,v2,...` → the parameter and its values. */
export function parseSweep(s: Scenario, text: string): { param: ParamRef; values: number[] } {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new ScenarioError(`--sweep "${text}": expected PARAM=v1,v2,... (for example workersMax=2,4,8)`);
  const param = resolveParam(s, text.slice(0, eq).trim());
  const raw = text.slice(eq + 1).split(",").map((x) => x.trim()).filter((x) => x !== "");
  if (raw.length === 0) throw new ScenarioError(`--sweep "${text}": no values after "="`);
  if (raw.length > 1000) throw new ScenarioError(`--sweep "${text}": at most 1000 values`);
  const values = raw.map((x) => {
    const v = Number(x);
    if (x === "" || !Number.isFinite(v)) throw new ScenarioError(`--sweep "${text}": "${x}" is not a number`);
    checkValue(param, v);
    return v;
  });
  return { param, values };
}
