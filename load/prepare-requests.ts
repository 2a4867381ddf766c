/**
 * Turns a scenario (data) into the concrete requests of a run, before the run: paths filled in,
 * headers and bodies built once as buffers, `{ids:NAME}` expanded over the ids its setup made,
 * weighted mixes laid out in a seeded order. Nothing here runs on the hot path.
 */
import seedrandom from "seedrandom";
import type { BodySpec, RequestSpec, Scenario } from "./scenario.ts";
import type { LoadTarget } from "./target.ts";

export interface PreparedRequest {
  readonly name: string;
  readonly method: string;
  /** Path and query, on `origin`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

export interface PreparedScenario {
  readonly origin: string;
  readonly requests: readonly PreparedRequest[];
  readonly key: string;
}

export class LoadSetupError extends Error {
  override readonly name = "LoadSetupError";
  readonly code = "CPSIM_ERR_LOAD_SETUP";
  readonly exitCode = 2;
}

/** A weighted mix is laid out as this many requests, cycled by every connection. */
const MIX_LENGTH = 200;

/** The pod body when it is not built from a target's catalog (k6 export): one of the embedded emulator's GPU types. */
export const EMULATOR_POD_GPU = { id: "NVIDIA GeForce RTX 4090", count: 1 } as const;

export function bodyBytes(spec: BodySpec): Buffer {
  if ("json" in spec) return Buffer.from(JSON.stringify(spec.json));
  if ("pod" in spec) return Buffer.from(JSON.stringify({ ...spec.pod, gpu: EMULATOR_POD_GPU }));
  if ("graphql" in spec) return Buffer.from(JSON.stringify({ query: spec.graphql }));
  const unpadded = JSON.stringify({ input: { ...spec.jobInput, pad: "" } });
  if (spec.padToBytes === undefined) return Buffer.from(JSON.stringify({ input: spec.jobInput }));
  // The pad is ASCII, so characters are bytes: the body is exactly padToBytes long (or the unpadded size).
  const pad = Math.max(0, spec.padToBytes - Buffer.byteLength(unpadded));
  return Buffer.from(JSON.stringify({ input: { ...spec.jobInput, pad: "x".repeat(pad) } }));
}

export function scenarioKey(scenario: Scenario, target: LoadTarget): string {
  return scenario.key === "limited" ? target.limitedApiKey : target.apiKey;
}

function originOf(url: string): { origin: string; prefix: string } {
  const u = new URL(url);
  return { origin: u.origin, prefix: u.pathname.replace(/\/+$/, "") };
}

function fill(path: string, target: LoadTarget): string {
  return path.replaceAll("{endpoint}", encodeURIComponent(target.endpoint));
}

/** Builds the requests of a scenario; `ids` holds what the setup steps made. */
export function prepareRequests(scenario: Scenario, target: LoadTarget, ids: ReadonlyMap<string, readonly string[]>, seed: number): PreparedScenario {
  const key = scenarioKey(scenario, target);
  const hosts = new Set(scenario.requests.map((r) => (r.host === "base" ? target.baseUrl : target.serverlessUrl)));
  const origins = new Set([...hosts].map((h) => originOf(h).origin));
  if (origins.size > 1) {
    throw new LoadSetupError(`scenario ${scenario.name} mixes hosts on different origins (${[...origins].join(", ")}); split it into one scenario per host`);
  }
  const origin = [...origins][0];
  const expand = (r: RequestSpec): PreparedRequest[] => {
    const { prefix } = originOf(r.host === "base" ? target.baseUrl : target.serverlessUrl);
    const body = r.body ? bodyBytes(r.body) : undefined;
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: "application/json" };
    if (body) headers["content-type"] = "application/json";
    let path = prefix + fill(r.path, target);
    if (r.body && "graphql" in r.body) path += `${path.includes("?") ? "&" : "?"}api_key=${encodeURIComponent(key)}`;
    const m = /\{ids:([a-z][a-z0-9-]*)\}/.exec(path);
    if (!m) return [{ name: r.name, method: r.method, path, headers, body }];
    const list = ids.get(m[1]);
    if (!list || list.length === 0) throw new LoadSetupError(`scenario ${scenario.name}: request "${r.name}" uses {ids:${m[1]}} but no setup step named ${m[1]} made any id`);
    return list.map((id) => ({ name: r.name, method: r.method, path: path.replace(m[0], encodeURIComponent(id)), headers, body }));
  };
  const expanded = scenario.requests.map(expand);
  if (expanded.length === 1) return { origin, requests: expanded[0], key };
  // A weighted mix: a seeded sequence, each pick taking its request's next id in turn.
  const next = expanded.map(() => 0);
  const requests = mixOrder(scenario, seed).map((k) => expanded[k][next[k]++ % expanded[k].length]);
  return { origin, requests, key };
}

/** The seeded order of a weighted mix, as indexes into `scenario.requests` (k6 exports use it too). */
export function mixOrder(scenario: Scenario, seed: number): number[] {
  if (scenario.requests.length === 1) return [0];
  const rng = seedrandom(`${seed}:${scenario.name}`);
  const weights = scenario.requests.map((r) => r.weight ?? 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const order: number[] = [];
  for (let i = 0; i < MIX_LENGTH; i++) {
    let pick = rng() * total;
    let k = 0;
    while (k < weights.length - 1 && pick >= weights[k]) pick -= weights[k++];
    order.push(k);
  }
  return order;
}
