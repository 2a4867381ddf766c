/**
 * Turns a scenario (data) into the concrete requests of a run, before the run: paths filled in,
 * headers and bodies built once as buffers, `{ids:NAME}` expanded over the ids its setup made,
 * weighted mixes laid out in a seeded order. Also the work around a run that is not on its hot
 * path: submitting setup jobs, reassembling sample streams, the canary, terminating pods.
 */
import seedrandom from "seedrandom";
import { request } from "undici";
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

/** Longest a setup or verification step may take. */
export const SETUP_TIMEOUT_MS = 60_000;
/** A weighted mix is laid out as this many requests, cycled by every connection. */
const MIX_LENGTH = 200;

export function bodyBytes(spec: BodySpec): Buffer {
  if ("json" in spec) return Buffer.from(JSON.stringify(spec.json));
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

const FINAL = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);

async function call(method: "GET" | "POST" | "DELETE", url: string, key: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await request(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json };
}

function jobUrl(target: LoadTarget, op: string, id?: string): string {
  return `${target.serverlessUrl.replace(/\/+$/, "")}/v2/${encodeURIComponent(target.endpoint)}/${op}${id ? `/${encodeURIComponent(id)}` : ""}`;
}

async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** Submits `count` jobs; returns their ids. */
export async function submitJobs(target: LoadTarget, key: string, input: unknown, count: number): Promise<string[]> {
  const ids = await inBatches(Array.from({ length: count }, (_, i) => i), 16, async () => {
    const r = await call("POST", jobUrl(target, "run"), key, { input });
    const id = (r.json as { id?: unknown } | undefined)?.id;
    if (r.status !== 200 || typeof id !== "string") throw new LoadSetupError(`setup: POST ${jobUrl(target, "run")} answered ${r.status} without a job id; is --endpoint ${target.endpoint} running the conformance handler?`);
    return id;
  });
  return ids;
}

/** Waits until every job is in a final status, polling; gives up after SETUP_TIMEOUT_MS. */
export async function waitForJobs(target: LoadTarget, key: string, ids: readonly string[], deadline = Date.now() + SETUP_TIMEOUT_MS): Promise<void> {
  let waiting = [...ids];
  while (waiting.length > 0) {
    if (Date.now() > deadline) throw new LoadSetupError(`setup: ${waiting.length} job(s) did not finish within ${SETUP_TIMEOUT_MS / 1000} s (is the target's clock running? the embedded emulator runs with --clock real)`);
    const states = await inBatches(waiting, 16, async (id) => (await call("GET", jobUrl(target, "status", id), key)).json as { status?: string } | undefined);
    waiting = waiting.filter((_, i) => !FINAL.has(String(states[i]?.status)));
    if (waiting.length > 0) await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs the setup steps; returns the ids by step name. */
export async function runSetup(scenario: Scenario, target: LoadTarget): Promise<Map<string, string[]>> {
  const ids = new Map<string, string[]>();
  const key = scenarioKey(scenario, target);
  for (const step of scenario.setup ?? []) {
    const made = await submitJobs(target, key, step.input, step.count);
    if (step.waitForCompletion) await waitForJobs(target, key, made);
    ids.set(step.name, made);
  }
  return ids;
}

/** What a `stream` job's handler yields, concatenated: K strings of B characters a..z, each starting over. */
export function expectedStreamOutput(input: Record<string, unknown>): string {
  const k = Number(input.chunks ?? 0);
  const b = Number(input.bytes ?? 0);
  const one = "abcdefghijklmnopqrstuvwxyz".repeat(Math.ceil(b / 26)).slice(0, b);
  return one.repeat(k);
}

export interface ReassemblyResult {
  readonly passes: number;
  readonly fails: number;
  readonly detail?: string;
}

/** Submits `sample` stream jobs, reads each to the end and compares the chunks with the handler's output. */
export async function checkStreamReassembly(target: LoadTarget, key: string, sample: number, input: Record<string, unknown>, maxChunkBytes: number): Promise<ReassemblyResult> {
  const ids = await submitJobs(target, key, input, sample);
  await waitForJobs(target, key, ids);
  const expected = expectedStreamOutput(input);
  let passes = 0;
  let fails = 0;
  let detail: string | undefined;
  for (const id of ids) {
    let text = "";
    let oversized = 0;
    for (let read = 0; read < 1000; read++) {
      const r = await call("GET", jobUrl(target, "stream", id), key);
      const body = r.json as { status?: string; stream?: { output?: unknown }[] } | { output?: unknown }[] | undefined;
      const chunks = Array.isArray(body) ? body : (body?.stream ?? []);
      for (const c of chunks) {
        const o = typeof c?.output === "string" ? c.output : JSON.stringify(c?.output ?? "");
        if (Buffer.byteLength(o) > maxChunkBytes) oversized++;
        text += o;
      }
      const status = Array.isArray(body) ? "COMPLETED" : body?.status;
      if (chunks.length === 0 && FINAL.has(String(status))) break;
    }
    if (text === expected && oversized === 0) passes++;
    else {
      fails++;
      detail ??= `job ${id}: reassembled ${text.length} characters, expected ${expected.length}${oversized ? `; ${oversized} chunk(s) over ${maxChunkBytes} bytes` : ""}`;
    }
  }
  return { passes, fails, detail };
}

/** Terminates pods by id (DELETE /v2/pods/{id}); returns how many the target accepted. */
export async function terminatePods(target: LoadTarget, key: string, ids: readonly string[]): Promise<number> {
  const base = target.baseUrl.replace(/\/+$/, "");
  const ok = await inBatches(ids, 8, async (id) => {
    try {
      const r = await call("DELETE", `${base}/v2/pods/${encodeURIComponent(id)}`, key);
      return r.status < 300;
    } catch {
      return false;
    }
  });
  return ok.filter(Boolean).length;
}

/** While a run lasts, GETs `url` every 100 ms on its own connection: the server must keep serving. */
export function startCanary(url: string, key: string): { stop(): Promise<ReassemblyResult> } {
  let passes = 0;
  let fails = 0;
  let detail: string | undefined;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const r = await call("GET", url, key);
        if (r.status >= 200 && r.status < 300) passes++;
        else {
          fails++;
          detail ??= `GET ${url} answered ${r.status}`;
        }
      } catch (err) {
        fails++;
        detail ??= `GET ${url} failed: ${(err as Error).message}`;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { passes, fails, detail };
    },
  };
}
