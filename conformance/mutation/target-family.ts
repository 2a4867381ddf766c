/**
 * Target families: the emulator with the conventions the spec leaves open drawn from a seed, so
 * the suite is scored against implementations unlike its twin (`cpsim mutation --families`,
 * and the suite's own tests). Each family is the emulator's backend behind a layer that rewrites
 * requests and answers (as a real implementation with other conventions would answer), with the
 * emulator's model, and its defects when a mutation cell switches some on, underneath.
 *
 * | convention | drawn from |
 * |------------|------------|
 * | lists      | choices.md's `{"pods": [...]}`, a bare array, `{"items": [...], "nextCursor"}` pages, `{"data": [...]}` with `Link: rel="next"` pages, `{"results": [...], "next": url}` |
 * | actions    | a body on `/action`, a verb sub-path `/{id}/{verb}`, a custom method `/{id}:{verb}` (no `:terminate`: DELETE terminates), a PATCH of `desiredStatus` (profile; no restart) |
 * | GPU catalog| `/v2/catalog/gpus`, `/v2/gpu-types`, `/v2/hardware/gpu-types` (stated by the profile only) |
 * | volumes    | `/v2/networkvolumes`, `/v2/network-volumes`, `/v2/storage/volumes` (profile), or not listed at all: then the profile names ids, or the target takes any volume id (each new one stands for another of the account's volumes) |
 * | job ids    | as the model draws them, or `job_` + that id |
 * | times      | `...000Z`, or `+00:00` without a fraction |
 * | delete     | 204 without a body, or 200 with the terminated pod |
 *
 * The conventions a probe cannot guess (a path nobody else uses, volumes listed nowhere) are in
 * `familyProfile`, as a target's owner would write them in a --target-profile file. The suite must
 * pass every family with zero failures: a failure on a family is a bug of the suite.
 */
import seedrandom from "seedrandom";
import { problem } from "../../sim/api/problem.ts";
import type { ApiOutcome, ApiRequest, ApiResponse } from "../../sim/api/types.ts";
import type { Catalog } from "../../sim/catalog/index.ts";
import type { EmulatorBackend } from "../../sim/http/index.ts";
import type { TargetProfile } from "../target-facts/index.ts";

export const LIST_SHAPES = ["choices", "bare", "items-cursor", "data-link", "results-next"] as const;
export const ACTION_SHAPES = ["body", "verb", "custom", "desired-status"] as const;
export const GPU_PATHS = ["/v2/catalog/gpus", "/v2/gpu-types", "/v2/hardware/gpu-types"] as const;
export const VOLUME_PATHS = ["/v2/networkvolumes", "/v2/network-volumes", "/v2/storage/volumes", null] as const;

export interface Conventions {
  readonly lists: (typeof LIST_SHAPES)[number];
  /** Items per page where lists are paged. */
  readonly pageSize: number;
  readonly actions: (typeof ACTION_SHAPES)[number];
  readonly gpuPath: (typeof GPU_PATHS)[number];
  /** null: the target lists no network volumes anywhere. */
  readonly volumePath: (typeof VOLUME_PATHS)[number];
  readonly jobIdPrefix: boolean;
  readonly offsetTimes: boolean;
  /** With no volume listed: any volume id is taken (and the profile names none). */
  readonly anyVolumeId: boolean;
  /** DELETE of a pod answers 200 with the terminated pod (else 204). */
  readonly deleteAnswersPod: boolean;
}

/** The family of `seed`: each convention drawn on its own. Seed 0 is the emulator's own conventions. */
export function drawConventions(seed: number): Conventions {
  if (seed === 0) return { lists: "choices", pageSize: 100, actions: "body", gpuPath: GPU_PATHS[0], volumePath: VOLUME_PATHS[0], jobIdPrefix: false, offsetTimes: false, anyVolumeId: false, deleteAnswersPod: false };
  const rng = seedrandom.alea(`cpsim-family-${seed}`);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  return {
    lists: pick(LIST_SHAPES),
    pageSize: 2 + Math.floor(rng() * 4),
    actions: pick(ACTION_SHAPES),
    gpuPath: pick(GPU_PATHS),
    volumePath: pick(VOLUME_PATHS),
    jobIdPrefix: rng() < 0.5,
    offsetTimes: rng() < 0.5,
    deleteAnswersPod: rng() < 0.5,
    anyVolumeId: rng() < 0.5,
  };
}

export function describeConventions(c: Conventions): string {
  return `lists ${c.lists}${c.lists === "choices" || c.lists === "bare" ? "" : ` (pages of ${c.pageSize})`}, actions ${c.actions}, GPU catalog ${c.gpuPath}, volumes ${c.volumePath ?? (c.anyVolumeId ? "not listed, any id taken" : "not listed")}${c.jobIdPrefix ? ", job ids prefixed" : ""}${c.offsetTimes ? ", times with an offset" : ""}${c.deleteAnswersPod ? ", DELETE answers the pod" : ""}`;
}

/** What a probe cannot find, stated as the target's owner would in a --target-profile file. */
export function familyProfile(c: Conventions, catalog: Catalog, accountId = "acct-alpha"): TargetProfile {
  const profile: Record<string, unknown> = {};
  if (c.gpuPath === "/v2/hardware/gpu-types") profile["gpuCatalogPath"] = c.gpuPath;
  if (c.actions === "desired-status") profile["podActionPath"] = "PATCH /v2/pods/{podId}";
  if (c.volumePath === "/v2/storage/volumes") profile["networkVolumes"] = { path: c.volumePath };
  if (c.volumePath === null && !c.anyVolumeId) {
    const ids = catalog.networkVolumes.filter((v) => v.accountId === accountId).map((v) => ({ id: v.id, dataCenterId: v.dataCenterId }));
    profile["networkVolumes"] = { ids };
  }
  return profile as TargetProfile;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const ACTIONS = ["start", "stop", "restart", "terminate"] as const;
const JOB_OPS = new Set(["status", "status-sync", "stream", "cancel", "retry"]);
const JOB_PREFIX = "job_";
const DESIRED_ACTIONS: Readonly<Record<string, string>> = { RUNNING: "start", EXITED: "stop", TERMINATED: "terminate" };
const ISO_Z = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?Z$/;

/** The list routes whose answers the family reshapes, with choices.md's envelope field. */
const LIST_FIELDS: Readonly<Record<string, string>> = {
  "/v2/pods": "pods",
  "/v2/catalog/gpus": "gpus",
  "/v2/catalog/cpus": "cpus",
  "/v2/catalog/datacenters": "dataCenters",
  "/v2/networkvolumes": "networkVolumes",
  "/v2/containerregistryauth": "registries",
};
/** The query parameters that page a list: never passed to the emulator. */
const PAGE_PARAMS = ["cursor", "page"];

function mapResponse(outcome: ApiOutcome, change: (r: ApiResponse) => ApiResponse): ApiOutcome {
  return outcome.kind === "response" ? { kind: "response", response: change(outcome.response) } : { ...outcome, render: (t) => change(outcome.render(t)) };
}

/** A route the family does not serve answers as any route the emulator does not serve. */
const noRoute = (r: ApiRequest): ApiResponse => problem(404, `no route for ${r.method} ${r.path}`);

function times(body: unknown, depth = 0): unknown {
  if (Array.isArray(body)) return body.map((v) => times(v, depth + 1));
  if (!isObject(body) || depth > 4) return body;
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => {
      const iso = typeof v === "string" && /At$/.test(k) ? ISO_Z.exec(v) : null;
      return [k, iso ? `${iso[1]}+00:00` : times(v, depth + 1)];
    }),
  );
}

/** A page of `items` in the family's list shape; `path` and `query` are the request's own. */
function listAnswer(c: Conventions, res: ApiResponse, field: string, path: string, query: Readonly<Record<string, string>>): ApiResponse {
  const items = isObject(res.body) && Array.isArray(res.body[field]) ? (res.body[field] as unknown[]) : undefined;
  if (res.status !== 200 || items === undefined) return res;
  if (c.lists === "choices") return res;
  const headers: Record<string, string> = { ...res.headers };
  if (c.lists === "bare") return { ...res, headers, body: items };
  const from = Math.max(0, Number.parseInt(Buffer.from(query["cursor"] ?? query["page"] ?? "", "base64url").toString() || "0", 10) || 0);
  const page = items.slice(from, from + c.pageSize);
  const more = from + c.pageSize < items.length;
  const token = Buffer.from(String(from + c.pageSize)).toString("base64url");
  const rest = Object.entries(query).filter(([k]) => !PAGE_PARAMS.includes(k));
  const nextUrl = (param: string) => `${path}?${new URLSearchParams([...rest, [param, token]]).toString()}`;
  if (c.lists === "items-cursor") return { ...res, headers, body: { items: page, nextCursor: more ? token : null } };
  if (c.lists === "data-link") {
    if (more) headers["link"] = `<${nextUrl("page")}>; rel="next"`;
    return { ...res, headers, body: { data: page } };
  }
  return { ...res, headers, body: { count: items.length, results: page, next: more ? nextUrl("cursor") : null } };
}

/**
 * anyVolumeId: volume ids the account does not have, each standing for another of its real volumes
 * (in the order they are first named), named in requests and given back in answers.
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
        real = this.real[this.toReal.size % Math.max(1, this.real.length)];
        if (real === undefined || this.toAlias.has(real)) return m;
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

function familyHandle(c: Conventions, request: ApiRequest, inner: (r: ApiRequest) => ApiOutcome, aliases: VolumeAliases | undefined): ApiOutcome {
  const parts = request.path.split("/");
  const respond = (response: ApiResponse): ApiOutcome => ({ kind: "response", response });
  const finish = (o: ApiOutcome, jobRoute = false) =>
    mapResponse(o, (r) => {
      let body = r.body;
      if (jobRoute && c.jobIdPrefix && r.status < 300 && isObject(body) && typeof body["id"] === "string") body = { ...body, id: `${JOB_PREFIX}${body["id"]}` };
      if (c.offsetTimes && body !== undefined) body = times(body);
      return { ...r, ...(body !== undefined ? { body } : {}) };
    });
  if (request.path.startsWith("/graphql") || request.path.startsWith("/_sim")) return inner(request);
  if (aliases && parts[1] === "v2" && parts[2] === "pods") {
    const aliased = (r: ApiRequest) => mapResponse(inner(r), (res) => (res.body === undefined ? res : { ...res, body: aliases.answer(res.body) }));
    return familyHandle(c, { ...request, body: aliases.request(request.body) }, aliased, undefined);
  }

  // Actions.
  if (request.method === "POST" && parts[1] === "v2" && parts[2] === "pods") {
    if (parts.length === 5 && parts[4] === "action" && c.actions !== "body") return respond(noRoute(request));
    if (parts.length === 5 && c.actions === "verb" && (ACTIONS as readonly string[]).includes(parts[4]!)) {
      return finish(inner({ ...request, path: `/v2/pods/${parts[3]}/action`, body: { action: parts[4] } }));
    }
    if (parts.length === 4 && c.actions === "custom") {
      const at = parts[3]!.lastIndexOf(":");
      const verb = at > 0 ? parts[3]!.slice(at + 1) : "";
      if (!["start", "stop", "restart"].includes(verb)) return respond(problem(404, `pods have no method "${verb}"`));
      return finish(inner({ ...request, path: `/v2/pods/${parts[3]!.slice(0, at)}/action`, body: { action: verb } }));
    }
  }
  // desired-status: a PATCH naming only the pod's desired status is the action.
  if (request.method === "PATCH" && parts.length === 4 && parts[2] === "pods" && c.actions === "desired-status" && isObject(request.body) && "desiredStatus" in request.body) {
    const wanted = request.body["desiredStatus"];
    const action = typeof wanted === "string" ? DESIRED_ACTIONS[wanted] : undefined;
    if (action === undefined || Object.keys(request.body).length !== 1) {
      return respond(problem(400, `desiredStatus must be one of ${Object.keys(DESIRED_ACTIONS).join(", ")}, alone`));
    }
    return finish(inner({ ...request, method: "POST", path: `/v2/pods/${parts[3]}/action`, body: { action } }));
  }
  // The GPU catalog and the volume collection where the family keeps them.
  if (request.method === "GET" && request.path === c.gpuPath && c.gpuPath !== "/v2/catalog/gpus") {
    return reshapeList(c, { ...request, path: "/v2/catalog/gpus" }, request, inner, "gpus");
  }
  if (request.path === "/v2/catalog/gpus" && c.gpuPath !== "/v2/catalog/gpus") return respond(noRoute(request));
  if (/^\/v2\/(networkvolumes|network-volumes|storage\/volumes)(\/|$)/.test(request.path)) {
    const base = c.volumePath;
    if (base === null || !(request.path === base || request.path.startsWith(`${base}/`))) return respond(noRoute(request));
    const path = `/v2/networkvolumes${request.path.slice(base.length)}`;
    if (request.method === "GET" && path === "/v2/networkvolumes") return reshapeList(c, { ...request, path }, request, inner, "networkVolumes");
    return finish(inner({ ...request, path }));
  }
  if (request.path === "/openapi.json") return respond(noRoute(request));
  if (request.method === "DELETE" && parts.length === 4 && parts[2] === "pods" && c.deleteAnswersPod) {
    const deleted = inner(request);
    if (deleted.kind !== "response" || deleted.response.status !== 204) return finish(deleted);
    return finish(mapResponse(inner({ ...request, method: "GET", body: undefined }), (r) => (r.status === 200 ? r : deleted.response)));
  }
  if (request.method === "GET" && LIST_FIELDS[request.path]) return reshapeList(c, request, request, inner, LIST_FIELDS[request.path]!);

  // Job routes: the ids the family gives out come back in.
  if (parts.length === 5 && parts[1] === "v2" && JOB_OPS.has(parts[3]!) && c.jobIdPrefix) {
    const id = parts[4]!.startsWith(JOB_PREFIX) ? parts[4]!.slice(JOB_PREFIX.length) : `unknown-${parts[4]}`;
    return finish(inner({ ...request, path: [...parts.slice(0, 4), id].join("/") }), true);
  }
  const jobRoute = parts.length >= 4 && parts[1] === "v2" && ["run", "runsync", "status", "status-sync", "cancel", "retry"].includes(parts[3]!);
  return finish(inner(request), jobRoute);
}

function reshapeList(c: Conventions, to: ApiRequest, from: ApiRequest, inner: (r: ApiRequest) => ApiOutcome, field: string): ApiOutcome {
  const query = Object.fromEntries(Object.entries(to.query).filter(([k]) => !PAGE_PARAMS.includes(k)));
  return mapResponse(inner({ ...to, query }), (r) => {
    const shaped = listAnswer(c, r, field, from.path, from.query);
    return c.offsetTimes && shaped.body !== undefined ? { ...shaped, body: times(shaped.body) } : shaped;
  });
}

/** The family's layer around an emulator backend. */
export function familyBackend(inner: EmulatorBackend, c: Conventions, accountVolumes: readonly string[] = []): EmulatorBackend {
  const aliases = c.volumePath === null && c.anyVolumeId ? new VolumeAliases(accountVolumes) : undefined;
  const extra = [
    ...(c.actions === "verb" ? ACTIONS.map((a) => ({ method: "POST" as const, pattern: `/v2/pods/:podId/${a}` })) : []),
    ...(c.actions === "custom" ? [{ method: "POST" as const, pattern: "/v2/pods/:podId" }] : []),
    ...(c.gpuPath !== "/v2/catalog/gpus" ? [{ method: "GET" as const, pattern: c.gpuPath }] : []),
    ...(c.volumePath !== null && c.volumePath !== "/v2/networkvolumes"
      ? [{ method: "GET" as const, pattern: c.volumePath }, { method: "GET" as const, pattern: `${c.volumePath}/:id` }]
      : []),
  ];
  return {
    now: () => inner.now(),
    advanceTo: (t) => inner.advanceTo(t),
    nextEventTime: () => inner.nextEventTime(),
    handle: (request) => familyHandle(c, request, (r) => inner.handle(r), aliases),
    onJobFinal: (e, j, l) => inner.onJobFinal(e, c.jobIdPrefix && j.startsWith(JOB_PREFIX) ? j.slice(JOB_PREFIX.length) : j, l),
    drainWebhooks: () => inner.drainWebhooks(),
    webhookResult: (d, ok) => inner.webhookResult(d, ok),
    reset: (seed) => inner.reset(seed),
    apiKeys: () => inner.apiKeys(),
    routes: () => [...inner.routes(), ...extra],
  };
}

export interface FamilyTarget {
  readonly conventions: Conventions;
  readonly rest: string;
  readonly serverless: string;
  readonly keys: { readonly api?: string; readonly restricted?: string; readonly other?: string };
  /** What a probe cannot find: pass as `conform({targetProfileFacts})` or write to a --target-profile file. */
  readonly profile: TargetProfile;
  stop(): Promise<void>;
}
