/**
 * Create, update and delete of templates, network volumes, registry credentials and serverless
 * endpoints, in the model's terms: REST v2 and GraphQL both translate their inputs into these and
 * their answers out of the records, so both refuse the same requests for the same reasons.
 *
 * A refusal is data: `invalid` (the request cannot be right: 400), `not-found` (no such record
 * visible to the account: 404, never telling another account's records from missing ones),
 * `conflict` (the record is in use or the name taken: 409), `limit` (the account holds its
 * maximum of that kind: 409 too). Choices where the platform is silent are in docs/resources.md's
 * "Resources you create" table.
 */
import type { Endpoint, NetworkVolume, Registry, Template } from "../../catalog/index.ts";
import type { CpuInstanceSize } from "../gpu-pool.ts";
import { isoFromMicros } from "../iso-time.ts";
import type { Platform } from "../platform.ts";
import { resolveGpuIds } from "./gpu-pools.ts";
import { dataCentersInCatalog } from "./platform-places.ts";
import type { EndpointExtra, EndpointType } from "./resources.ts";

export type Refusal = { readonly ok: false; readonly reason: "invalid" | "not-found" | "conflict" | "limit"; readonly message: string };
export type Done<T> = { readonly ok: true; readonly value: T } | Refusal;

export const refuse = (reason: Refusal["reason"], message: string): Refusal => ({ ok: false, reason, message });
export const done = <T>(value: T): Done<T> => ({ ok: true, value });
/** The refusal of an id the caller holds no such thing under: what it is, and where to list theirs. */
export const notYours = (what: string, id: unknown, listPath?: string): Refusal =>
  refuse("not-found", `you have no ${what} ${JSON.stringify(id)}${listPath === undefined ? "" : `; list yours with GET ${listPath}`}`);

/** Per account and kind: a limit on everything. */
export const RESOURCE_LIMITS = Object.freeze({ templates: 200, networkVolumes: 50, registries: 50, endpoints: 25 });
/** Bounds of the fields the schema cannot know (the model's own). */
export const ENDPOINT_BOUNDS = Object.freeze({ workersMax: 100, gpuCount: 8, idleTimeoutS: 3600, scalerValue: 3600 });
/** Cold start of a created endpoint's workers: the conformance endpoint's. */
const CREATED_COLD_START = Object.freeze({ mean: 2000, cv: 0.25 });
const PORT = /^[0-9]{1,5}\/(http|tcp|udp)$/;

// ---------------------------------------------------------------- templates

export interface TemplateFields {
  readonly name: string;
  readonly image: string;
  readonly args: string;
  readonly disk: number;
  readonly volumeInGb: number;
  readonly volumeMountPath: string;
  readonly ports: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly registry: string | null;
  readonly isServerless: boolean;
  readonly isPublic: boolean;
  readonly readme: string;
}

export const TEMPLATE_DEFAULTS: Omit<TemplateFields, "name" | "image"> = Object.freeze({
  args: "",
  disk: 10,
  volumeInGb: 0,
  volumeMountPath: "/workspace",
  ports: [],
  env: {},
  registry: null,
  isServerless: false,
  isPublic: false,
  readme: "",
});

function checkTemplate(platform: Platform, accountId: string, f: TemplateFields, selfId: string | null): Refusal | undefined {
  if (f.name.trim() === "") return refuse("invalid", "name is empty; give the template a name");
  if (f.image.trim() === "") return refuse("invalid", "image is empty; name a container image such as ubuntu:22.04");
  if (!Number.isInteger(f.disk) || f.disk < 1) return refuse("invalid", `disk is ${f.disk}; send a whole number of GB, 1 or more`);
  if (!Number.isInteger(f.volumeInGb) || f.volumeInGb < 0) return refuse("invalid", `volumeInGb is ${f.volumeInGb}; send a whole number of GB, 0 or more`);
  if (!f.volumeMountPath.startsWith("/")) return refuse("invalid", `volumeMountPath ${JSON.stringify(f.volumeMountPath)} is not an absolute path; start it with "/"`);
  const badPort = f.ports.find((p) => !PORT.test(p));
  if (badPort !== undefined) return refuse("invalid", `port ${JSON.stringify(badPort)} is not port/protocol; write it like 8888/http or 22/tcp`);
  if (new Set(f.ports).size !== f.ports.length) return refuse("invalid", "ports repeat an entry; list each port once");
  if (f.registry !== null) {
    const r = platform.resources.get("registries", f.registry);
    if (r === undefined || r.accountId !== accountId) return refuse("invalid", `registry ${JSON.stringify(f.registry)} is not one of your registry credentials; list them with GET /v2/containerregistryauth`);
  }
  // Template names are unique per account on the platform; a second one would make deleteTemplate(templateName) ambiguous.
  for (const t of platform.catalog.templates) {
    if (t.accountId === accountId && t.name === f.name && t.id !== selfId) return refuse("conflict", `you already have a template named ${JSON.stringify(f.name)} (${t.id}); choose another name or update that one`);
  }
  return undefined;
}

function templateRecord(id: string, accountId: string, f: TemplateFields): Template {
  return {
    id,
    name: f.name,
    accountId,
    isPublic: f.isPublic,
    isServerless: f.isServerless,
    category: "NVIDIA",
    image: f.image,
    args: f.args,
    disk: f.disk,
    volumeInGb: f.volumeInGb,
    volumeMountPath: f.volumeMountPath,
    ports: [...f.ports],
    env: { ...f.env },
    registry: f.registry,
    readme: f.readme,
  };
}

/** The caller's own template (official and others' public ones are visible but not theirs to change). */
export function ownTemplate(platform: Platform, accountId: string, id: string): Template | undefined {
  const t = platform.resources.get("templates", id);
  return t !== undefined && t.accountId === accountId ? t : undefined;
}

/** A template the caller may use: official, public, or its own. */
export function usableTemplate(platform: Platform, accountId: string, id: string): Template | undefined {
  const t = platform.resources.get("templates", id);
  return t !== undefined && (t.accountId === null || t.isPublic || t.accountId === accountId) ? t : undefined;
}

export function createTemplate(platform: Platform, accountId: string, f: TemplateFields): Done<Template> {
  if (platform.resources.countOwned("templates", accountId) >= RESOURCE_LIMITS.templates) return refuse("limit", `you hold ${RESOURCE_LIMITS.templates} templates, the limit; delete one first`);
  const bad = checkTemplate(platform, accountId, f, null);
  if (bad) return bad;
  return done(platform.resources.put("templates", templateRecord(platform.resources.newId("templates"), accountId, f)));
}

export function updateTemplate(platform: Platform, accountId: string, id: string, patch: Partial<TemplateFields>): Done<Template> {
  const old = ownTemplate(platform, accountId, id);
  if (old === undefined) return notYours("template", id, "/v2/templates");
  const f: TemplateFields = { ...old, ...definedOnly(patch) };
  const bad = checkTemplate(platform, accountId, f, id);
  if (bad) return bad;
  return done(platform.resources.put("templates", templateRecord(id, accountId, f)));
}

export function deleteTemplate(platform: Platform, accountId: string, id: string): Done<Template> {
  const old = ownTemplate(platform, accountId, id);
  if (old === undefined) return notYours("template", id, "/v2/templates");
  const user = platform.catalog.endpoints.find((e) => platform.resources.endpointExtra(e.id)?.templateId === id);
  if (user !== undefined) return refuse("conflict", `template ${id} is used by serverless endpoint ${user.id}; give that endpoint another template or delete it first`);
  platform.resources.delete("templates", id);
  return done(old);
}

// ---------------------------------------------------------------- network volumes

export interface NetworkVolumeFields {
  readonly name: string;
  readonly size: number;
  readonly dataCenterId: string;
}

export const VOLUME_MAX_GB = 4000;

export function ownVolume(platform: Platform, accountId: string, id: string): NetworkVolume | undefined {
  const v = platform.resources.get("networkVolumes", id);
  return v !== undefined && v.accountId === accountId ? v : undefined;
}

function checkSize(size: number, min: number): Refusal | undefined {
  if (!Number.isInteger(size) || size < min || size > VOLUME_MAX_GB) return refuse("invalid", `size is ${size}; send a whole number of GB from ${min} to ${VOLUME_MAX_GB}`);
  return undefined;
}

export function createNetworkVolume(platform: Platform, accountId: string, f: NetworkVolumeFields): Done<NetworkVolume> {
  if (platform.resources.countOwned("networkVolumes", accountId) >= RESOURCE_LIMITS.networkVolumes) return refuse("limit", `you hold ${RESOURCE_LIMITS.networkVolumes} network volumes, the limit; delete one first`);
  if (f.name.trim() === "") return refuse("invalid", "name is empty; give the volume a name");
  const bad = checkSize(f.size, 1);
  if (bad) return bad;
  if (!platform.catalog.dataCenters.some((d) => d.id === f.dataCenterId)) return refuse("invalid", `dataCenterId ${JSON.stringify(f.dataCenterId)} is no data center; list them with GET /v2/catalog/datacenters`);
  const v: NetworkVolume = { id: platform.resources.newId("networkVolumes"), accountId, name: f.name, size: f.size, dataCenterId: f.dataCenterId };
  return done(platform.resources.put("networkVolumes", v));
}

/** Name and size only; a volume can grow, never shrink (its data would not fit), and never moves. */
export function updateNetworkVolume(platform: Platform, accountId: string, id: string, patch: { name?: string; size?: number }): Done<NetworkVolume> {
  const old = ownVolume(platform, accountId, id);
  if (old === undefined) return notYours("network volume", id, "/v2/networkvolumes");
  if (patch.name !== undefined && patch.name.trim() === "") return refuse("invalid", "name is empty; give the volume a name");
  if (patch.size !== undefined) {
    const bad = checkSize(patch.size, old.size);
    if (bad) return refuse("invalid", `${bad.message} (a volume can grow but not shrink; it is ${old.size} GB)`);
  }
  return done(platform.resources.put("networkVolumes", { ...old, name: patch.name ?? old.name, size: patch.size ?? old.size }));
}

export function deleteNetworkVolume(platform: Platform, accountId: string, id: string): Done<NetworkVolume> {
  const old = ownVolume(platform, accountId, id);
  if (old === undefined) return notYours("network volume", id, "/v2/networkvolumes");
  const pod = platform.pods.list(accountId).find((p) => p.status !== "TERMINATED" && (p.mounts.network ?? []).some((m) => m.volumeId === id));
  if (pod !== undefined) return refuse("conflict", `network volume ${id} is mounted by pod ${pod.id}; terminate that pod first`);
  const endpoint = platform.catalog.endpoints.find((e) => platform.resources.endpointExtra(e.id)?.networkVolumeIds.includes(id));
  if (endpoint !== undefined) return refuse("conflict", `network volume ${id} is attached to serverless endpoint ${endpoint.id}; detach it or delete the endpoint first`);
  platform.resources.delete("networkVolumes", id);
  return done(old);
}

// ---------------------------------------------------------------- registry credentials

export interface RegistryFields {
  readonly name: string;
  readonly username: string;
  /** Checked for presence and never kept: the model pulls no images, and no answer ever shows it. */
  readonly password: string;
}

export function ownRegistry(platform: Platform, accountId: string, id: string): Registry | undefined {
  const r = platform.resources.get("registries", id);
  return r !== undefined && r.accountId === accountId ? r : undefined;
}

function checkCredential(username: string, password: string): Refusal | undefined {
  if (username.trim() === "") return refuse("invalid", "username is empty; send the registry user name");
  if (password === "") return refuse("invalid", "password is empty; send the registry password or access token");
  return undefined;
}

export function createRegistry(platform: Platform, accountId: string, f: RegistryFields): Done<Registry> {
  if (platform.resources.countOwned("registries", accountId) >= RESOURCE_LIMITS.registries) return refuse("limit", `you hold ${RESOURCE_LIMITS.registries} registry credentials, the limit; delete one first`);
  if (f.name.trim() === "") return refuse("invalid", "name is empty; give the credential a name");
  const bad = checkCredential(f.username, f.password);
  if (bad) return bad;
  const r: Registry = { id: platform.resources.newId("registries"), accountId, name: f.name, username: f.username };
  return done(platform.resources.put("registries", r));
}

export function updateRegistry(platform: Platform, accountId: string, id: string, f: { username: string; password: string }): Done<Registry> {
  const old = ownRegistry(platform, accountId, id);
  if (old === undefined) return notYours("registry credential", id, "/v2/containerregistryauth");
  const bad = checkCredential(f.username, f.password);
  if (bad) return bad;
  return done(platform.resources.put("registries", { ...old, username: f.username }));
}

export function deleteRegistry(platform: Platform, accountId: string, id: string): Done<Registry> {
  const old = ownRegistry(platform, accountId, id);
  if (old === undefined) return notYours("registry credential", id, "/v2/containerregistryauth");
  const user = platform.catalog.templates.find((t) => t.accountId === accountId && t.registry === id);
  if (user !== undefined) return refuse("conflict", `registry credential ${id} is used by template ${user.id}; change that template's registry first`);
  platform.resources.delete("registries", id);
  return done(old);
}

// ---------------------------------------------------------------- serverless endpoints

export interface EndpointFields {
  readonly name: string;
  readonly templateId: string;
  /** Pools (AMPERE_16 ...), GPU type ids, and `-<type>` exclusions, in order of preference. */
  readonly gpuIds: readonly string[];
  readonly gpuCount: number;
  readonly workersMin: number;
  readonly workersMax: number;
  readonly idleTimeoutS: number;
  readonly scalerType: "QueueDelay" | "RequestCount";
  readonly scalerValue: number;
  readonly executionTimeoutMs: number;
  readonly networkVolumeIds: readonly string[];
  readonly dataCenterIds: readonly string[];
  readonly flashboot: "OFF" | "FLASHBOOT";
  /** Fixed at creation: an update may not change it. */
  readonly type: EndpointType;
  /** A CPU endpoint's instance sizes (flavor and vCPUs; memory follows the flavor); empty: a GPU endpoint. */
  readonly cpu: readonly { readonly flavorId: string; readonly vcpuCount: number }[];
}

/** choices.md's endpoint defaults: 0 active workers, 3 max, idle 5 s, QueueDelay 4 s, 600 s execution timeout. */
export const ENDPOINT_DEFAULTS: Omit<EndpointFields, "name" | "templateId" | "gpuIds"> = Object.freeze({
  gpuCount: 1,
  workersMin: 0,
  workersMax: 3,
  idleTimeoutS: 5,
  scalerType: "QueueDelay",
  scalerValue: 4,
  executionTimeoutMs: 600_000,
  networkVolumeIds: [],
  dataCenterIds: [],
  flashboot: "OFF",
  type: "QUEUE",
  cpu: [],
});

export interface EndpointAnswer {
  readonly endpoint: Endpoint;
  readonly extra: EndpointExtra;
}

/** The caller's own endpoint (the shared built-ins are visible, but not theirs to change). */
export function ownEndpoint(platform: Platform, accountId: string, id: string): EndpointAnswer | undefined {
  const e = platform.resources.get("endpoints", id);
  if (e === undefined || e.accountId !== accountId) return undefined;
  return { endpoint: e, extra: platform.resources.endpointExtra(id) ?? catalogEndpointExtra(platform, e) };
}

/** What a catalog endpoint (created by no request) shows of the client fields. */
export function catalogEndpointExtra(platform: Platform, e: Endpoint): EndpointExtra {
  return { templateId: null, networkVolumeIds: [], dataCenterIds: [], gpuIds: e.gpuTypeIds.join(","), flashboot: "OFF", type: "QUEUE", createdAt: isoFromMicros(0, platform.epochMs), version: 0 };
}

function int(name: string, value: number, min: number, max: number): Refusal | undefined {
  if (!Number.isInteger(value) || value < min || value > max) return refuse("invalid", `${name} is ${value}; send a whole number from ${min} to ${max}`);
  return undefined;
}

/** `f.templateId` "" passes only for a catalog endpoint that never had a template (updates keep it so). */
type CheckedCompute = { readonly gpuTypeIds: string[]; readonly cpu: CpuInstanceSize[] };

/** A CPU endpoint's sizes against the catalog's flavors; memory is the flavor's per-vCPU memory times vCPUs. */
function checkCpu(platform: Platform, cpu: EndpointFields["cpu"]): Done<CpuInstanceSize[]> {
  const out: CpuInstanceSize[] = [];
  for (const c of cpu) {
    const flavor = platform.catalog.cpuFlavors.find((f) => f.id === c.flavorId);
    if (flavor === undefined) return refuse("invalid", `CPU flavor ${JSON.stringify(c.flavorId)} is unknown; use one of ${platform.catalog.cpuFlavors.map((f) => f.id).join(", ")} (GET /v2/catalog/cpus)`);
    if (!flavor.vcpuCounts.includes(c.vcpuCount)) return refuse("invalid", `CPU flavor ${flavor.id} has no ${c.vcpuCount}-vCPU size; use one of ${flavor.vcpuCounts.join(", ")}`);
    out.push({ flavorId: flavor.id, vcpuCount: c.vcpuCount, memoryInGb: c.vcpuCount * flavor.ramGbPerVcpu });
  }
  return done(out);
}

function checkEndpoint(platform: Platform, accountId: string, f: EndpointFields, templateOptional = false): Done<CheckedCompute> {
  if (f.name.trim() === "") return refuse("invalid", "name is empty; give the endpoint a name");
  if (!(templateOptional && f.templateId === "") && usableTemplate(platform, accountId, f.templateId) === undefined) return refuse("invalid", `templateId ${JSON.stringify(f.templateId)} names no template you can use; list them with GET /v2/templates`);
  const b = ENDPOINT_BOUNDS;
  const bad =
    int("gpuCount", f.gpuCount, 1, b.gpuCount) ??
    int("workersMax", f.workersMax, 0, b.workersMax) ??
    int("workersMin", f.workersMin, 0, f.workersMax) ??
    int("idleTimeout", f.idleTimeoutS, 0, b.idleTimeoutS) ??
    int("scalerValue", f.scalerValue, 1, b.scalerValue) ??
    int("executionTimeoutMs", f.executionTimeoutMs, 5000, 604_800_000);
  if (bad) return bad.message.startsWith("workersMin") ? refuse("invalid", `${bad.message} (workersMin may not exceed workersMax)`) : bad;
  for (const v of f.networkVolumeIds) {
    const volume = ownVolume(platform, accountId, v);
    if (volume === undefined) return refuse("invalid", `network volume ${JSON.stringify(v)} is not one of yours; list them with GET /v2/networkvolumes`);
    if (f.dataCenterIds.length > 0 && !f.dataCenterIds.includes(volume.dataCenterId)) return refuse("invalid", `network volume ${v} is in ${volume.dataCenterId}, outside the endpoint's data centers ${f.dataCenterIds.join(", ")}`);
  }
  if (f.cpu.length > 0) {
    // A CPU endpoint's workers take no GPUs: a GPU selection as well would say two things.
    if (f.gpuIds.length > 0) return refuse("invalid", "a CPU endpoint (cpu, instanceIds) takes no GPUs; send the CPU sizes or the GPU pools, not both");
    const cpu = checkCpu(platform, f.cpu);
    return cpu.ok ? done({ gpuTypeIds: [], cpu: cpu.value }) : cpu;
  }
  const gpus = resolveGpuIds(f.gpuIds, platform.catalog);
  if (!gpus.ok) return refuse("invalid", gpus.message);
  return done({ gpuTypeIds: gpus.gpuTypeIds, cpu: [] });
}

function endpointRecord(id: string, accountId: string, f: EndpointFields, compute: CheckedCompute, handler: string): Endpoint {
  const { gpuTypeIds, cpu } = compute;
  return {
    id,
    name: f.name,
    accountId,
    // The catalog's type names its built-in handlers; an attached handler's name is resolved by serverless alike.
    handler: handler as Endpoint["handler"],
    gpuTypeIds,
    // A CPU worker holds no GPU.
    gpuCount: cpu.length > 0 ? 0 : f.gpuCount,
    workersMin: f.workersMin,
    workersMax: f.workersMax,
    idleTimeoutMs: f.idleTimeoutS * 1000,
    scalerType: f.scalerType,
    scalerValue: f.scalerValue,
    executionTimeoutMs: f.executionTimeoutMs,
    coldStartMs: CREATED_COLD_START,
    public: false,
    slug: null,
    ...(cpu.length > 0 ? { cpu } : {}),
  };
}

function extraOf(f: EndpointFields, createdAt: string, version: number): EndpointExtra {
  return { templateId: f.templateId, networkVolumeIds: f.networkVolumeIds, dataCenterIds: f.dataCenterIds, gpuIds: f.gpuIds.join(","), flashboot: f.flashboot, type: f.type, createdAt, version };
}

/**
 * The fields with their data centers as the catalog holds them: the platform's that the catalog
 * lacks are left out (the newest client's default `locations` names all of the platform's), an id
 * neither knows is refused (platform-places.ts).
 */
function inCatalogPlaces(platform: Platform, f: EndpointFields): Done<EndpointFields> {
  const places = dataCentersInCatalog(f.dataCenterIds, platform.catalog);
  return places.ok ? done({ ...f, dataCenterIds: places.ids }) : refuse("invalid", places.message);
}

/** Creates the record and the live endpoint: jobs can be sent to its id at once. */
export function createEndpoint(platform: Platform, accountId: string, fields: EndpointFields): Done<EndpointAnswer> {
  if (platform.resources.countOwned("endpoints", accountId) >= RESOURCE_LIMITS.endpoints) return refuse("limit", `you hold ${RESOURCE_LIMITS.endpoints} serverless endpoints, the limit; delete one first`);
  const placed = inCatalogPlaces(platform, fields);
  if (!placed.ok) return placed;
  const f = placed.value;
  const checked = checkEndpoint(platform, accountId, f);
  if (!checked.ok) return checked;
  const endpoint = endpointRecord(platform.resources.newId("endpoints"), accountId, f, checked.value, platform.resources.endpointHandler);
  platform.serverless.addEndpoint(endpoint);
  const extra = extraOf(f, isoFromMicros(platform.now, platform.epochMs), 0);
  platform.resources.put("endpoints", endpoint);
  platform.resources.setEndpointExtra(endpoint.id, extra);
  return done({ endpoint: platform.resources.get("endpoints", endpoint.id)!, extra: platform.resources.endpointExtra(endpoint.id)! });
}

/** The fields of an own endpoint as a full input, so an update is "old fields, then the patch". */
export function endpointFields(a: EndpointAnswer): EndpointFields {
  const e = a.endpoint;
  return {
    name: e.name,
    templateId: a.extra.templateId ?? "",
    gpuIds: a.extra.gpuIds.split(",").filter((s) => s !== ""),
    gpuCount: Math.max(1, e.gpuCount),
    workersMin: e.workersMin,
    workersMax: e.workersMax,
    idleTimeoutS: Math.round(e.idleTimeoutMs / 1000),
    scalerType: e.scalerType,
    scalerValue: e.scalerValue,
    executionTimeoutMs: e.executionTimeoutMs,
    networkVolumeIds: a.extra.networkVolumeIds,
    dataCenterIds: a.extra.dataCenterIds,
    flashboot: a.extra.flashboot,
    type: a.extra.type,
    cpu: (e.cpu ?? []).map((c) => ({ flavorId: c.flavorId, vcpuCount: c.vcpuCount })),
  };
}

/** Applies the patch to the record and to the live endpoint (scaling at once; queued jobs stay). */
export function updateEndpoint(platform: Platform, accountId: string, id: string, patch: Partial<EndpointFields>): Done<EndpointAnswer> {
  const old = ownEndpoint(platform, accountId, id);
  if (old === undefined) return notYours("serverless endpoint", id, "/v2/endpoints");
  const before = endpointFields(old);
  if (patch.type !== undefined && patch.type !== before.type) return refuse("invalid", `endpoint ${id} is ${before.type}; the type is fixed at creation, so make a new endpoint of type ${patch.type}`);
  const placed = inCatalogPlaces(platform, { ...before, ...definedOnly(patch) });
  if (!placed.ok) return placed;
  const f = placed.value;
  // Moving between GPU and CPU workers: the new selection replaces the old one.
  if (patch.cpu !== undefined && patch.cpu.length > 0 && patch.gpuIds === undefined) (f as { gpuIds: readonly string[] }).gpuIds = [];
  if (patch.gpuIds !== undefined && patch.gpuIds.length > 0 && patch.cpu === undefined) (f as { cpu: EndpointFields["cpu"] }).cpu = [];
  // A catalog endpoint has no template; it keeps none unless the patch gives one.
  const checked = checkEndpoint(platform, accountId, f, old.extra.templateId === null);
  if (!checked.ok) return checked;
  const endpoint: Endpoint = { ...endpointRecord(id, accountId, f, checked.value, old.endpoint.handler), coldStartMs: old.endpoint.coldStartMs, public: old.endpoint.public, slug: old.endpoint.slug };
  platform.serverless.reconfigureEndpoint(id, endpoint);
  platform.resources.put("endpoints", endpoint);
  platform.resources.setEndpointExtra(id, { ...extraOf(f, old.extra.createdAt, old.extra.version + 1), templateId: f.templateId === "" ? null : f.templateId });
  return done({ endpoint: platform.resources.get("endpoints", id)!, extra: platform.resources.endpointExtra(id)! });
}

/**
 * Creates (no `id`) or updates an endpoint together with a template of its own: GraphQL's nested
 * `saveEndpoint(input: {template})` and REST's inline image fields. On create the template is made
 * (it needs a name and an image) and bound to the endpoint, so it goes when the endpoint goes; on
 * update the template made before is changed, or one is made and bound now. A template made for an
 * endpoint that is then refused is deleted again. Without `template` it is a plain create/update.
 */
export function saveEndpointWithTemplate(
  platform: Platform,
  accountId: string,
  id: string | undefined,
  patch: Partial<EndpointFields>,
  template: Partial<TemplateFields> | undefined,
): Done<EndpointAnswer> {
  if (id !== undefined && ownEndpoint(platform, accountId, id) === undefined) return notYours("serverless endpoint", id);
  let made: string | undefined;
  let templateId = patch.templateId;
  if (template !== undefined) {
    const bound = id === undefined ? undefined : platform.resources.boundTemplate(id);
    if (bound !== undefined) {
      const changed = updateTemplate(platform, accountId, bound, template);
      if (!changed.ok) return changed;
      templateId = bound;
    } else {
      if (template.name === undefined || template.image === undefined) return refuse("invalid", "a template of its own needs a name and an image");
      const created = createTemplate(platform, accountId, { ...TEMPLATE_DEFAULTS, isServerless: true, ...definedOnly(template) } as TemplateFields);
      if (!created.ok) return created;
      templateId = made = created.value.id;
    }
  }
  const withTemplate = { ...patch, templateId };
  let out: Done<EndpointAnswer>;
  if (id !== undefined) out = updateEndpoint(platform, accountId, id, withTemplate);
  else if (withTemplate.name === undefined || withTemplate.templateId === undefined || (withTemplate.gpuIds === undefined && (withTemplate.cpu ?? []).length === 0)) {
    out = refuse("invalid", "a new endpoint needs name, templateId (or a template of its own) and gpuIds (or CPU instanceIds)");
  } else out = createEndpoint(platform, accountId, { ...ENDPOINT_DEFAULTS, gpuIds: [], ...definedOnly(withTemplate) } as EndpointFields);
  if (made !== undefined) {
    if (out.ok) platform.resources.bindTemplate(out.value.endpoint.id, made);
    else deleteTemplate(platform, accountId, made);
  }
  return out;
}

/** Deletes the record and the live endpoint; jobs in flight are cancelled (Serverless.removeEndpoint). */
export function deleteEndpoint(platform: Platform, accountId: string, id: string): Done<{ endpoint: Endpoint; cancelledJobs: number }> {
  const old = ownEndpoint(platform, accountId, id);
  if (old === undefined) return notYours("serverless endpoint", id, "/v2/endpoints");
  const cancelledJobs = platform.serverless.removeEndpoint(id) ?? 0;
  const bound = platform.resources.boundTemplate(id);
  platform.resources.delete("endpoints", id);
  platform.resources.apps.forgetEndpoint(id);
  // A template made with the endpoint (GraphQL saveEndpoint's nested template) goes with it.
  if (bound !== undefined) platform.resources.delete("templates", bound);
  return done({ endpoint: old.endpoint, cancelledJobs });
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
