/**
 * Test-only: the *variant* target, the suite's standing proof that it is not tuned to its twin.
 * It is the emulator with every behaviour choices.md picks (where the spec is silent) switched to
 * a different, equally valid one, by a layer around the running emulator's backend (requests and
 * answers rewritten, a renamed catalog, a real clock) rather than edits inside sim/api. The
 * lenient suite must pass it with zero failures, and judge on it every rule it judges on the
 * emulator (conformance/variant/).
 *
 * | switch                 | the emulator (choices.md)                        | the variant                                                  |
 * |------------------------|--------------------------------------------------|--------------------------------------------------------------|
 * | action-in-path         | POST /v2/pods/{id}/action {"action": ...}        | POST /v2/pods/{id}/{start,stop,restart,terminate}, no body   |
 * | action-202             | start/stop/restart answer 200 with the pod       | 202 with the pod                                             |
 * | delete-200-body        | DELETE /v2/pods/{id}: 204, no body               | 200 with the terminated pod                                  |
 * | conflict-400           | 409 for a conflict (action not allowed, retry)   | 400, problem+json                                            |
 * | capacity-422           | createPod without capacity: 409                  | 422 "at most 0 × <gpu> are available in the <cloud> cloud"   |
 * | job-ids                | job ids as the model draws them                  | `job_` + that id                                             |
 * | catalog-ids            | GPU types "NVIDIA RTX A5000", DCs "US-TX-3"      | "nvidia-rtx-a5000", "dc-us-tx-3"                             |
 * | time-format            | createdAt "2026-01-01T00:00:00.000Z"             | "2026-01-01T00:00:00+00:00" (RFC 3339, offset, no fraction)  |
 * | charset                | application/problem+json                         | application/problem+json; charset=utf-8                      |
 * | extra-fields           | the records' fields                              | plus `provider` on every REST and job answer object          |
 * | volumes-in-catalog     | GET /v2/networkvolumes                           | no such route; each data-center entry lists its `volumes`    |
 * | no-openapi             | GET /openapi.json                                | 404 (facts come from probes)                                 |
 * | image-model-slug       | public model `flux-1-schnell`                    | `black-forest-labs-flux-1-schnell`                           |
 * | real-time              | manual virtual clock, control API                | real clock at `speed` × wall time, no control API; durations |
 * |                        |                                                  | (delayTime, executionTime, RateLimit t, Retry-After) in wall |
 * |                        |                                                  | time, and job results kept for the spec's retention in wall  |
 * |                        |                                                  | time (1 min runsync, 30 min run, a status `ttl`), as a       |
 * |                        |                                                  | real-time platform does; the handler's sleeps last their ms  |
 * |                        |                                                  | in wall time (at most 600000/speed ms: the contract's        |
 * |                        |                                                  | longest sleep)                                               |
 * | other-quotas           | second account 60/min, 3000/h, 50000/day         | 40/min, 2400/h, 40000/day                                    |
 * | clamp-wait             | runsync/status-sync `wait` out of range: 400     | clamped into 1000..300000 (a non-number: the default)        |
 * | clamp-ttl              | status `ttl` not a positive integer: 400         | ignored                                                      |
 * | global-networking-off  | global networking that cannot be honoured: 400   | the pod created (or updated) with it off (enabled: false)    |
 * | cancel-idempotent      | cancel of a final job: 409                       | 200 {id, status} with the job's final status                 |
 */
import { loadCatalog, type Catalog } from "../../sim/catalog/index.ts";
import { startEmulator, type EmulatorBackend } from "../../sim/http/index.ts";
import { PlatformBackend } from "../../sim/http/platform-backend.ts";
import type { ApiOutcome, ApiRequest, ApiResponse } from "../../sim/api/types.ts";
import { embeddedCatalog, embeddedKeys } from "../embedded.ts";
import type { Keys } from "../keys.ts";
import { mapResponse } from "./broken-target.ts";

export const VARIANT_SWITCHES = [
  "action-in-path", "action-202", "delete-200-body", "conflict-400", "capacity-422", "job-ids", "catalog-ids", "time-format", "charset",
  "extra-fields", "volumes-in-catalog", "no-openapi", "image-model-slug", "real-time", "other-quotas", "clamp-wait", "clamp-ttl",
  "global-networking-off", "cancel-idempotent",
] as const;

export const VARIANT_IMAGE_MODEL = "black-forest-labs-flux-1-schnell";
export const VARIANT_QUOTAS = { minute: 40, hour: 2400, day: 40_000 } as const;
const JOB_PREFIX = "job_";
const ACTIONS = ["start", "stop", "restart", "terminate"] as const;
const JOB_OPS = new Set(["status", "status-sync", "stream", "cancel", "retry"]);
const PROBLEM = "application/problem+json; charset=utf-8";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const gpuId = (id: string) => id.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
const dcId = (id: string) => `dc-${id.toLowerCase()}`;

/** A copy of `value` with every string (and key) found in `names` renamed. */
function rename(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") return names.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => rename(v, names));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [names.get(k) ?? k, rename(v, names)]));
}

/** The emulator's catalog with the variant's GPU type and data-center ids, model slug and quotas. */
export function variantCatalog(base: Catalog = embeddedCatalog(loadCatalog())): Catalog {
  const names = new Map<string, string>([
    ...base.gpuTypes.map((g) => [g.id, gpuId(g.id)] as const),
    ...base.dataCenters.map((d) => [d.id, dcId(d.id)] as const),
    ["flux-1-schnell", VARIANT_IMAGE_MODEL],
  ]);
  const renamed = rename(base, names) as Catalog;
  return { ...renamed, accounts: renamed.accounts.map((a) => (a.id === "acct-beta" ? { ...a, rateLimits: { ...VARIANT_QUOTAS } } : a)) };
}

function problem(status: number, title: string, detail: string): ApiResponse {
  return { status, headers: { "content-type": PROBLEM }, body: { type: "about:blank", title, status, detail } };
}

const ISO_Z = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?Z$/;

/** time-format and extra-fields on a REST or job answer body. */
function reshape(body: unknown, depth = 0): unknown {
  if (Array.isArray(body)) return body.map((v) => reshape(v, depth + 1));
  if (!isObject(body)) return body;
  const out: Json = {};
  for (const [k, v] of Object.entries(body)) {
    const iso = typeof v === "string" && /At$/.test(k) ? ISO_Z.exec(v) : null;
    out[k] = iso ? `${iso[1]}+00:00` : depth < 3 ? reshape(v, depth + 1) : v;
  }
  if (depth === 0 && !("type" in body && "title" in body)) out["provider"] = "cpsim-variant";
  return out;
}

/** Job ids out (job-ids). */
function prefixJobIds(body: unknown): unknown {
  if (!isObject(body)) return body;
  return typeof body["id"] === "string" ? { ...body, id: `${JOB_PREFIX}${body["id"]}` } : body;
}

/** What the real-time switch needs: the clock's speed and the results kept in wall time. */
interface RealTime {
  readonly speed: number;
  /** Final job answers by inner id, with the wall time they are kept until. */
  readonly kept: Map<string, { readonly body: unknown; readonly until: number }>;
  /** The wall time a job's `status?ttl=` lets it live until, by inner id. */
  readonly ttlUntil: Map<string, number>;
}

const RUN_RETENTION_MS = 30 * 60_000;
const RUNSYNC_RETENTION_MS = 60_000;
const FINAL = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);

/** Durations in wall time: the model's virtual milliseconds and seconds divided by the speed. */
function wallDurations(res: ApiResponse, rt: RealTime): ApiResponse {
  const headers: Record<string, string> = { ...res.headers };
  const scale = (s: number) => Math.max(0, Math.ceil(s / rt.speed));
  if (headers["ratelimit"]) headers["ratelimit"] = headers["ratelimit"].replace(/;t=(\d+)/g, (_m, t: string) => `;t=${scale(Number(t))}`);
  if (headers["retry-after"] && /^\d+$/.test(headers["retry-after"])) headers["retry-after"] = String(Math.max(1, scale(Number(headers["retry-after"]))));
  let body = res.body;
  if (isObject(body)) {
    const b: Json = { ...body };
    for (const k of ["delayTime", "executionTime"]) if (typeof b[k] === "number") b[k] = Math.round((b[k] as number) / rt.speed);
    body = b;
  }
  return { ...res, headers, ...(body !== undefined ? { body } : {}) };
}

const HANDLER_MAX_MS = 600_000;
/** The longest ttl the model takes (7 days). */
const MAX_TTL_MS = 604_800_000;

/** A job body whose handler waits (`sleep`, `stream` with ms) waits its ms in wall time: × speed in the model. */
function slowInput(body: unknown, rt: RealTime): unknown {
  if (!isObject(body) || !isObject(body["input"])) return body;
  const input = body["input"];
  const ms = input["ms"];
  if ((input["op"] !== "sleep" && input["op"] !== "stream") || !Number.isSafeInteger(ms) || (ms as number) < 0 || (ms as number) > HANDLER_MAX_MS) return body;
  return { ...body, input: { ...input, ms: Math.min(HANDLER_MAX_MS, (ms as number) * rt.speed), cpsimVariantMs: ms } };
}

/** The job record as the client sent it: the input's ms and the sleep's output back in wall time. */
function wallInput(res: ApiResponse, rt: RealTime): ApiResponse {
  if (!isObject(res.body)) return res;
  const b: Json = { ...res.body };
  const input = b["input"];
  if (isObject(input) && input["cpsimVariantMs"] !== undefined) {
    const { cpsimVariantMs, ...rest } = input;
    b["input"] = { ...rest, ms: cpsimVariantMs };
    if (isObject(b["output"]) && typeof b["output"]["slept_ms"] === "number") b["output"] = { slept_ms: cpsimVariantMs };
  } else if (isObject(b["output"]) && typeof b["output"]["slept_ms"] === "number" && b["output"]["slept_ms"] % rt.speed === 0) {
    b["output"] = { slept_ms: (b["output"]["slept_ms"] as number) / rt.speed };
  }
  return { ...res, body: b };
}

function finishing(res: ApiResponse, jobRoute: boolean): ApiResponse {
  let { status, body } = res;
  const headers: Record<string, string> = { ...res.headers };
  if (status === 409) {
    status = 400;
    if (isObject(body)) body = { ...body, status: 400, title: "Bad Request" };
  }
  if (jobRoute && status < 300) body = prefixJobIds(body);
  if (body !== undefined) body = reshape(body);
  const type = headers["content-type"];
  if (type !== undefined && /problem\+json/.test(type) && !/charset/.test(type)) headers["content-type"] = PROBLEM;
  else if (status >= 400 && type === undefined) headers["content-type"] = PROBLEM;
  return { status, headers, ...(body !== undefined ? { body } : {}) };
}

function variantHandle(request: ApiRequest, inner: (r: ApiRequest) => ApiOutcome, rt: RealTime): ApiOutcome {
  const next = (r: ApiRequest): ApiOutcome => {
    const submit = r.method === "POST" && /^\/v2\/[^/]+\/(run|runsync)$/.test(r.path);
    return mapResponse(inner(submit ? { ...r, body: slowInput(r.body, rt) } : r), (res) => wallInput(wallDurations(res, rt), rt));
  };
  const parts = request.path.split("/");
  const respond = (response: ApiResponse): ApiOutcome => ({ kind: "response", response });
  const now = (r: ApiRequest): ApiResponse | undefined => {
    const o = next(r);
    return o.kind === "response" ? o.response : undefined;
  };
  if (request.path.startsWith("/graphql")) return next(request);

  // action-in-path, action-202: /v2/pods/{id}/{action}.
  if (request.method === "POST" && parts.length === 5 && parts[2] === "pods" && (ACTIONS as readonly string[]).includes(parts[4]!)) {
    const action = parts[4]!;
    const inner = now({ ...request, path: `/v2/pods/${parts[3]}/action`, body: { action } });
    if (!inner) return respond(problem(500, "Internal Server Error", "the action waited"));
    if (inner.status === 204 || (inner.status === 200 && action === "terminate")) {
      const pod = now({ ...request, method: "GET", path: `/v2/pods/${parts[3]}`, body: undefined });
      return respond(finishing({ status: 200, headers: {}, body: pod?.body }, false));
    }
    return respond(finishing(inner.status === 200 ? { ...inner, status: 202 } : inner, false));
  }
  // delete-200-body.
  if (request.method === "DELETE" && parts.length === 4 && parts[2] === "pods") {
    const inner = now(request);
    if (inner?.status === 204) {
      const pod = now({ ...request, method: "GET", body: undefined });
      return respond(finishing({ status: 200, headers: { "content-type": "application/json; charset=utf-8" }, body: pod?.body }, false));
    }
    return respond(finishing(inner ?? problem(500, "Internal Server Error", "delete waited"), false));
  }
  // volumes-in-catalog.
  if (request.method === "GET" && request.path === "/v2/catalog/datacenters") {
    const dcs = now(request);
    const volumes = now({ ...request, path: "/v2/networkvolumes", query: {} });
    if (dcs?.status === 200 && isObject(dcs.body) && Array.isArray(dcs.body["dataCenters"])) {
      const list = isObject(volumes?.body) && Array.isArray(volumes.body["networkVolumes"]) ? (volumes.body["networkVolumes"] as Json[]) : [];
      const entries = (dcs.body["dataCenters"] as Json[]).map((dc) => ({
        ...dc,
        volumes: list.filter((v) => v["dataCenterId"] === dc["id"]).map((v) => ({ id: v["id"], name: v["name"], size: v["size"] })),
      }));
      return respond(finishing({ ...dcs, body: { ...dcs.body, dataCenters: entries } }, false));
    }
    return respond(finishing(dcs ?? problem(500, "Internal Server Error", "waited"), false));
  }
  // global-networking-off and capacity-422 on createPod; global-networking-off on updatePod.
  if ((request.method === "POST" && request.path === "/v2/pods") || (request.method === "PATCH" && parts.length === 4 && parts[2] === "pods")) {
    let inner = now(request);
    const body = request.body;
    if (inner?.status === 400 && isObject(body) && body["globalNetworking"] === true && /globalNetworking/.test(JSON.stringify(inner.body))) {
      inner = now({ ...request, body: { ...body, globalNetworking: false } });
    }
    if (inner?.status === 409 && request.method === "POST" && isObject(body)) {
      const gpu = isObject(body["gpu"]) ? String(body["gpu"]["id"]) : "CPU";
      const cloud = typeof body["cloud"] === "string" ? body["cloud"] : "SECURE";
      return respond(problem(422, "Unprocessable Entity", `at most 0 × ${gpu} are available in the ${cloud} cloud right now; try another type or later`));
    }
    return respond(finishing(inner ?? problem(500, "Internal Server Error", "waited"), false));
  }

  // Job endpoints: /v2/{endpoint}/{op}/{jobId}: job-ids in, clamp-wait, clamp-ttl, cancel-idempotent.
  if (parts.length === 5 && JOB_OPS.has(parts[3]!)) {
    const jobId = parts[4]!.startsWith(JOB_PREFIX) ? parts[4]!.slice(JOB_PREFIX.length) : `unknown-${parts[4]}`;
    const query = clampQuery(request.query, parts[3]!);
    // A ttl is wall time too: the model counts it × speed, and nothing is kept past it.
    if (parts[3] === "status" && query["ttl"] !== undefined) {
      rt.ttlUntil.set(jobId, Date.now() + Number(query["ttl"]));
      query["ttl"] = String(Math.min(MAX_TTL_MS, Number(query["ttl"]) * rt.speed));
    }
    const inner: ApiRequest = { ...request, path: [...parts.slice(0, 4), jobId].join("/"), query };
    const outcome = next(inner);
    const kept = rt.kept.get(jobId);
    const alive = kept !== undefined && kept.until > Date.now() && (rt.ttlUntil.get(jobId) ?? Infinity) > Date.now();
    if ((parts[3] === "status" || parts[3] === "status-sync") && outcome.kind === "response" && outcome.response.status === 404 && alive) {
      return respond(finishing({ status: 200, headers: { "content-type": "application/json; charset=utf-8" }, body: kept.body }, true));
    }
    if (parts[3] === "status" || parts[3] === "status-sync") return mapResponse(outcome, (r) => finishing(keep(r, jobId, RUN_RETENTION_MS, rt), true));
    if (parts[3] === "cancel" && outcome.kind === "response" && outcome.response.status === 409) {
      const read = now({ ...inner, method: "GET", path: `/v2/${parts[2]}/status/${jobId}`, body: undefined });
      if (read?.status === 200 && isObject(read.body)) {
        return respond(finishing({ status: 200, headers: {}, body: { id: read.body["id"], status: read.body["status"] } }, true));
      }
    }
    return mapResponse(outcome, (r) => finishing(r, true));
  }
  if (parts.length === 4 && parts[1] === "v2" && parts[3] === "runsync") {
    return mapResponse(next({ ...request, query: clampQuery(request.query, "runsync") }), (r) => {
      const id = isObject(r.body) && typeof r.body["id"] === "string" ? r.body["id"] : undefined;
      return finishing(id ? keep(r, id, RUNSYNC_RETENTION_MS, rt, true) : r, true);
    });
  }
  const jobRoute = parts.length >= 4 && parts[1] === "v2" && ["run", "purge-queue", "health"].includes(parts[3]!);
  return mapResponse(next(request), (r) => finishing(r, jobRoute));
}

/** Notes a final job answer, kept for `ms` of wall time from now (a runsync's first, a run's on its first final read). */
function keep(res: ApiResponse, innerId: string, ms: number, rt: RealTime, runsync = false): ApiResponse {
  if (res.status !== 200 || !isObject(res.body) || !FINAL.has(String(res.body["status"]))) return res;
  const before = rt.kept.get(innerId);
  if (!before || runsync) rt.kept.set(innerId, { body: res.body, until: Date.now() + ms });
  else rt.kept.set(innerId, { ...before, body: res.body });
  // Bounded: the oldest entries go first.
  if (rt.kept.size > 10_000) rt.kept.delete(rt.kept.keys().next().value as string);
  if (rt.ttlUntil.size > 10_000) rt.ttlUntil.delete(rt.ttlUntil.keys().next().value as string);
  return res;
}

/** clamp-wait and clamp-ttl. */
function clampQuery(query: Readonly<Record<string, string>>, op: string): Record<string, string> {
  const out: Record<string, string> = { ...query };
  if ((op === "runsync" || op === "status-sync") && out["wait"] !== undefined) {
    const n = Number(out["wait"]);
    if (/^-?\d+$/.test(out["wait"]) && Number.isSafeInteger(n)) out["wait"] = String(Math.min(300_000, Math.max(1_000, n)));
    else delete out["wait"];
  }
  if (op === "status" && out["ttl"] !== undefined && !(/^\d+$/.test(out["ttl"]) && Number(out["ttl"]) > 0)) delete out["ttl"];
  return out;
}

export function variantBackend(inner: EmulatorBackend, speed = 1): EmulatorBackend {
  const rt: RealTime = { speed, kept: new Map(), ttlUntil: new Map() };
  // volumes-in-catalog hides both spellings of the volume collection (the newest apps client's too).
  const hidden = new Set(["/v2/pods/:podId/action", "/v2/networkvolumes", "/v2/networkvolumes/:id", "/v2/network-volumes", "/v2/network-volumes/:id", "/openapi.json"]);
  return {
    now: () => inner.now(),
    advanceTo: (t) => inner.advanceTo(t),
    nextEventTime: () => inner.nextEventTime(),
    handle: (request) => variantHandle(request, (r) => inner.handle(r), rt),
    onJobFinal: (e, j, l) => inner.onJobFinal(e, j.startsWith(JOB_PREFIX) ? j.slice(JOB_PREFIX.length) : j, l),
    drainWebhooks: () => inner.drainWebhooks(),
    webhookResult: (d, ok) => inner.webhookResult(d, ok),
    reset: (seed) => inner.reset(seed),
    apiKeys: () => inner.apiKeys(),
    routes: () => [
      ...inner.routes().filter((r) => !hidden.has(r.pattern)),
      ...ACTIONS.map((a) => ({ method: "POST" as const, pattern: `/v2/pods/:podId/${a}` })),
    ],
  };
}

export interface VariantTarget {
  readonly rest: string;
  readonly serverless: string;
  readonly keys: Keys;
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** The variant on a real clock at `speed` × wall time (real-time), without the control API. */
export async function startVariant(options: { speed?: number; seed?: number } = {}): Promise<VariantTarget> {
  const catalog = variantCatalog();
  const speed = options.speed ?? 20;
  const emulator = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    seed: options.seed ?? 1,
    clock: "real",
    speed,
    control: false,
    createBackend: (o) => variantBackend(new PlatformBackend({ ...o, catalog }), speed),
  });
  return { rest: emulator.baseUrl, serverless: emulator.serverlessUrl, keys: embeddedKeys(catalog), endpoint: "conformance", stop: () => emulator.close() };
}
