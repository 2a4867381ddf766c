/**
 * The layer that makes the emulator answer with a point of the open-choice space (dimensions.ts):
 * the emulator's backend behind a rewrite of requests and answers, as a real implementation with
 * those conventions would answer, with the emulator's model (and its defects, when some are on)
 * underneath. GraphQL and the control API (/_sim) pass through untouched.
 */
import { problem } from "../api/problem.ts";
import type { ApiOutcome, ApiRequest, ApiResponse } from "../api/types.ts";
import type { EmulatorBackend } from "../http/backend.ts";
import { type Conventions, EMULATOR_CONVENTIONS } from "./dimensions.ts";
import { describedAnswer, describedRoutes, descriptionPath } from "./description.ts";
import { catalogAnswer } from "./catalog-answers.ts";
import { ActionEffects } from "./action-effect.ts";
import { answersUnrouted, CheckOrder, isUnroutedAnswer } from "./check-order.ts";
import { listAnswer, PAGE_PARAMS } from "./lists.ts";
import { presented } from "./present.ts";
import { StreamReads } from "./stream-reads.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const ACTIONS = ["start", "stop", "restart", "terminate"] as const;
const JOB_OPS = new Set(["status", "status-sync", "stream", "cancel", "retry"]);
const DESIRED_ACTIONS: Readonly<Record<string, string>> = { RUNNING: "start", EXITED: "stop", TERMINATED: "terminate" };
const VOLUMES = "/v2/networkvolumes";

/** The list routes the layer reshapes, with choices.md's envelope field. */
const LIST_FIELDS: Readonly<Record<string, string>> = {
  "/v2/pods": "pods",
  "/v2/catalog/gpus": "gpus",
  "/v2/catalog/cpus": "cpus",
  "/v2/catalog/datacenters": "dataCenters",
  "/v2/networkvolumes": "networkVolumes",
  "/v2/containerregistryauth": "registries",
};

/** Job ids as the conventions give them out, and back. */
export function jobIdOut(c: Conventions, id: string): string {
  return c.jobIds === "prefix-job_" ? `job_${id}` : c.jobIds === "suffix-u1" ? `${id}-u1` : id;
}
export function jobIdIn(c: Conventions, id: string): string | undefined {
  if (c.jobIds === "prefix-job_") return id.startsWith("job_") ? id.slice(4) : undefined;
  if (c.jobIds === "suffix-u1") return id.endsWith("-u1") ? id.slice(0, -3) : undefined;
  return id;
}

/** The volume collection's path under `c`, or null when volumes are listed nowhere. */
export function volumePath(c: Conventions): string | null {
  return c.volumes.startsWith("unlisted") ? null : c.volumes;
}

export function mapResponse(outcome: ApiOutcome, change: (r: ApiResponse) => ApiResponse): ApiOutcome {
  return outcome.kind === "response" ? { kind: "response", response: change(outcome.response) } : { ...outcome, render: (t) => change(outcome.render(t)) };
}

/**
 * A route the conventions do not serve answers exactly as any route the transport does not serve
 * (which never reaches the backend, so the answer's presentation is left as it is).
 */
const NO_ROUTE = new WeakSet<ApiResponse>();
const noRoute = (c: Conventions, r: ApiRequest): ApiResponse => {
  // Where the backend answers unknown paths itself (check-order.ts), it answers them as the model's router does.
  if (answersUnrouted(c)) return problem(404, `No route serves ${r.method} ${r.path}. See /openapi.json for the routes.`);
  const answer = problem(404, `no route for ${r.method} ${r.path}`);
  NO_ROUTE.add(answer);
  return answer;
};

const withStatus = (r: ApiResponse, status: number): ApiResponse =>
  r.status === status ? r : { ...r, status, ...(isObject(r.body) && typeof r.body["status"] === "number" ? { body: { ...r.body, status } } : {}) };

/**
 * unlisted-any-id: the account has one volume, listed nowhere, whose id is the first id a client
 * names in a network mount (standing for the account's first real volume, in requests and in
 * answers); any other id is unknown, and refused as the emulator refuses one.
 */
class VolumeAliases {
  private readonly toReal = new Map<string, string>();
  private readonly toAlias = new Map<string, string>();
  constructor(private readonly real: readonly string[]) {}
  request(body: unknown): unknown {
    if (!isObject(body) || !isObject(body["mounts"]) || !Array.isArray(body["mounts"]["network"])) return body;
    const network = (body["mounts"]["network"] as unknown[]).map((m) => {
      if (!isObject(m) || typeof m["volumeId"] !== "string" || this.real.includes(m["volumeId"])) return m;
      const alias = m["volumeId"];
      let real = this.toReal.get(alias);
      if (real === undefined) {
        real = this.toReal.size === 0 ? this.real[0] : undefined;
        if (real === undefined) return m;
        this.toReal.set(alias, real);
        this.toAlias.set(real, alias);
      }
      return { ...m, volumeId: real };
    });
    return { ...body, mounts: { ...body["mounts"], network } };
  }
  answer(body: unknown, depth = 0): unknown {
    if (this.toAlias.size === 0 || depth > 6) return body;
    if (typeof body === "string") return this.toAlias.get(body) ?? body;
    if (Array.isArray(body)) return body.map((v) => this.answer(v, depth + 1));
    if (!isObject(body)) return body;
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, this.answer(v, depth + 1)]));
  }
}

function reshapeList(c: Conventions, to: ApiRequest, from: ApiRequest, inner: (r: ApiRequest) => ApiOutcome, field: string): ApiOutcome {
  const query = Object.fromEntries(Object.entries(to.query).filter(([k]) => !PAGE_PARAMS.includes(k)));
  return mapResponse(inner({ ...to, query }), (r) => listAnswer(c, r, field, from.path, from.query));
}

/** The routes' rewrites: paths, methods, lists, ids and statuses. */
/** Job ids the layer gave out, so that only ids it never gave out answer with the `jobNotFound` status. */
class IssuedJobs {
  private readonly ids = new Set<string>();
  add(id: string): void {
    if (this.ids.size >= 100_000) this.ids.delete(this.ids.values().next().value!);
    this.ids.add(id);
  }
  has(id: string): boolean {
    return this.ids.has(id);
  }
}

interface LayerState {
  readonly aliases: VolumeAliases | undefined;
  readonly issued: IssuedJobs;
  readonly description: () => ApiOutcome;
  readonly streams: StreamReads;
}

function route(c: Conventions, request: ApiRequest, inner: (r: ApiRequest) => ApiOutcome, state: LayerState): ApiOutcome {
  const parts = request.path.split("/");
  const respond = (response: ApiResponse): ApiOutcome => ({ kind: "response", response });
  const aliases = state.aliases;
  if (aliases && parts[1] === "v2" && parts[2] === "pods") {
    const aliased = (r: ApiRequest) => mapResponse(inner(r), (res) => (res.body === undefined ? res : { ...res, body: aliases.answer(res.body) }));
    return route(c, { ...request, body: aliases.request(request.body) }, aliased, { ...state, aliases: undefined });
  }
  // The description, where the conventions advertise it.
  const at = descriptionPath(c);
  if (request.path === "/openapi.json" || request.path === at) {
    return request.path === at && request.method === "GET" ? state.description() : respond(noRoute(c, request));
  }

  // Actions.
  if (request.method === "POST" && parts[1] === "v2" && parts[2] === "pods") {
    if (parts.length === 5 && parts[4] === "action" && c.actions !== "body") return respond(noRoute(c, request));
    if (parts.length === 5 && c.actions === "verb" && (ACTIONS as readonly string[]).includes(parts[4]!)) {
      return inner({ ...request, path: `/v2/pods/${parts[3]}/action`, body: { action: parts[4] } });
    }
    if (parts.length === 4 && c.actions === "custom") {
      const at = parts[3]!.lastIndexOf(":");
      const verb = at > 0 ? parts[3]!.slice(at + 1) : "";
      if (!["start", "stop", "restart"].includes(verb)) return respond(problem(404, `pods have no method "${verb}"`));
      return inner({ ...request, path: `/v2/pods/${parts[3]!.slice(0, at)}/action`, body: { action: verb } });
    }
  }
  // desired-status: a PATCH naming only the pod's desired status is the action.
  if (request.method === "PATCH" && parts.length === 4 && parts[2] === "pods" && c.actions === "desired-status" && isObject(request.body) && "desiredStatus" in request.body) {
    const wanted = request.body["desiredStatus"];
    const action = typeof wanted === "string" ? DESIRED_ACTIONS[wanted] : undefined;
    if (action === undefined || Object.keys(request.body).length !== 1) {
      return respond(problem(400, `desiredStatus must be one of ${Object.keys(DESIRED_ACTIONS).join(", ")}, alone`));
    }
    return inner({ ...request, method: "POST", path: `/v2/pods/${parts[3]}/action`, body: { action } });
  }
  // The GPU catalog and the volume collection where the conventions keep them.
  if (request.method === "GET" && request.path === c.gpuPath && c.gpuPath !== "/v2/catalog/gpus") {
    return reshapeList(c, { ...request, path: "/v2/catalog/gpus" }, request, inner, "gpus");
  }
  if (request.path === "/v2/catalog/gpus" && c.gpuPath !== "/v2/catalog/gpus") return respond(noRoute(c, request));
  if (/^\/v2\/(networkvolumes|network-volumes|storage\/volumes)(\/|$)/.test(request.path)) {
    const base = volumePath(c);
    if (base === null || !(request.path === base || request.path.startsWith(`${base}/`))) return respond(noRoute(c, request));
    const path = `${VOLUMES}${request.path.slice(base.length)}`;
    if (request.method === "GET" && path === VOLUMES) return reshapeList(c, { ...request, path }, request, inner, "networkVolumes");
    return inner({ ...request, path });
  }
  if (request.method === "DELETE" && parts.length === 4 && parts[2] === "pods" && c.deletePod !== "204") {
    const deleted = inner(request);
    if (deleted.kind !== "response" || deleted.response.status !== 204) return deleted;
    const status = c.deletePod === "202-pod" ? 202 : 200;
    return mapResponse(inner({ ...request, method: "GET", body: undefined }), (r) => (r.status === 200 ? { ...r, status } : deleted.response));
  }
  if (request.method === "GET" && LIST_FIELDS[request.path]) return reshapeList(c, request, request, inner, LIST_FIELDS[request.path]!);

  // Job routes: the ids the conventions give out come back in; the open error statuses.
  const jobRoute = parts.length >= 4 && parts[1] === "v2" && ["run", "runsync", "status", "status-sync", "stream", "cancel", "retry"].includes(parts[3]!);
  if (!jobRoute) return inner(request);
  let forward = request;
  let id: string | undefined;
  if (parts.length === 5 && JOB_OPS.has(parts[3]!)) {
    id = jobIdIn(c, parts[4]!) ?? `unknown-${parts[4]}`;
    forward = { ...request, path: [...parts.slice(0, 4), id].join("/") };
  }
  return mapResponse(inner(forward), (answer) => {
    const r = parts[3] === "stream" ? state.streams.answer(forward.path, answer) : answer;
    if (r.status < 300 && isObject(r.body) && typeof r.body["id"] === "string") {
      state.issued.add(r.body["id"]);
      return { ...r, body: { ...r.body, id: jobIdOut(c, r.body["id"]) } };
    }
    // An id it gave out and no longer shows (another account's, expired, purged) stays 404: a valid key without access must not learn more.
    if (r.status === 404 && id !== undefined && !state.issued.has(id)) return withStatus(r, c.jobNotFound);
    if (r.status === 409 && parts[3] === "retry") return withStatus(r, c.retryRefused);
    return r;
  });
}

/** The layer around an emulator backend; `accountVolumes` are the ids unlisted-any-id aliases. */
export function conventionsBackend(inner: EmulatorBackend, c: Conventions, accountVolumes: readonly string[] = []): EmulatorBackend {
  if (c === EMULATOR_CONVENTIONS) return inner;
  const base = volumePath(c);
  const described = descriptionPath(c);
  const extra = [
    ...(c.actions === "verb" ? ACTIONS.map((a) => ({ method: "POST" as const, pattern: `/v2/pods/:podId/${a}` })) : []),
    ...(c.actions === "custom" ? [{ method: "POST" as const, pattern: "/v2/pods/:podId" }] : []),
    ...(c.gpuPath !== "/v2/catalog/gpus" ? [{ method: "GET" as const, pattern: c.gpuPath }] : []),
    ...(base !== null && base !== VOLUMES ? [{ method: "GET" as const, pattern: base }, { method: "GET" as const, pattern: `${base}/:id` }] : []),
    ...(described !== undefined && described !== "/openapi.json" ? [{ method: "GET" as const, pattern: described }] : []),
  ];
  let requests = 0;
  const requestId = () => `req_${(++requests).toString(36).padStart(8, "0")}`;
  const routes = () => [...inner.routes(), ...extra];
  const description = (): ApiOutcome => mapResponse(inner.handle({ method: "GET", path: "/openapi.json", query: {}, headers: {}, body: undefined }), (r) => (r.status === 200 ? describedAnswer(c, { ...r, body: describedRoutes(c, r.body) }) : r));
  const state: LayerState = { aliases: c.volumes === "unlisted-any-id" ? new VolumeAliases(accountVolumes) : undefined, issued: new IssuedJobs(), description, streams: new StreamReads(c) };
  const order = new CheckOrder(c, () => inner.apiKeys());
  let effects = new ActionEffects(c);
  return {
    answersUnrouted: answersUnrouted(c),
    now: () => inner.now(),
    advanceTo: (t) => inner.advanceTo(t),
    nextEventTime: () => inner.nextEventTime(),
    handle: (request) => {
      if (request.path.startsWith("/graphql") || request.path.startsWith("/_sim")) return inner.handle(request);
      const model = (r: ApiRequest) => mapResponse(inner.handle(r), (res) => effects.answer(r.method, r.path, catalogAnswer(c, r.method, r.path, res), inner.now()));
      return mapResponse(route(c, request, model, state), (r) => {
        // A request no route serves answers as the point orders its checks (check-order.ts).
        const reordered = isUnroutedAnswer(r, NO_ROUTE.has(r)) ? order.answer(request, r, (x) => inner.handle(x)) : undefined;
        if (reordered !== undefined) return presented(c, reordered, requestId);
        return NO_ROUTE.has(r) ? r : presented(c, r, requestId);
      });
    },
    onJobFinal: (e, j, l) => inner.onJobFinal(e, jobIdIn(c, j) ?? j, l),
    drainWebhooks: () => inner.drainWebhooks(),
    webhookResult: (d, ok) => inner.webhookResult(d, ok),
    reset: (seed) => {
      effects = new ActionEffects(c);
      state.streams.clear();
      inner.reset(seed);
    },
    apiKeys: () => inner.apiKeys(),
    routes,
    ...(inner.attachTransport ? { attachTransport: (t) => inner.attachTransport!(t) } : {}),
    ...(inner.captureStateApart ? { captureStateApart: () => inner.captureStateApart!() } : {}),
    ...(inner.restoreState ? { restoreState: (b) => inner.restoreState!(b) } : {}),
    ...(inner.saveState ? { saveState: (capture, seed, dir) => inner.saveState!(capture, seed, dir) } : {}),
    ...(inner.close ? { close: () => inner.close!() } : {}),
  };
}
