/**
 * `myself`'s resource fields and the resource mutations: updateUserSettings, saveTemplate,
 * deleteTemplate, saveEndpoint, updateEndpointTemplate, deleteEndpoint, saveRegistryAuth,
 * updateRegistryAuth, deleteRegistryAuth and the network-volume mutations. Each translates its
 * input into sim/domain/resources' commands, so REST and GraphQL refuse alike; a refusal is a
 * GraphQL error (HTTP 200, `errors`), as the platform's GraphQL answers.
 *
 * Choices: an empty string is "not given" where the Python client writes `""` for a missing value
 * (`networkVolumeId: ""`, `locations: ""`, `containerRegistryAuthId : ""`, `ports: ""`).
 */
import { TEMPLATE_DEFAULTS, createNetworkVolume, createRegistry, createTemplate, deleteEndpoint, saveEndpointWithTemplate, deleteNetworkVolume, deleteRegistry, deleteTemplate, ownEndpoint, splitGpuIds, updateEndpoint, updateNetworkVolume, updateRegistry, updateTemplate, type Done, type EndpointFields, type TemplateFields } from "../../domain/resources/index.ts";
import { catalogIndex } from "../../domain/scheduler/index.ts";
import { parseInstanceId } from "./deploy-cpu-pod.ts";
import { GraphqlCode, userError } from "./error-codes.ts";
import { InputProblems } from "./input-problems.ts";
import { globalVolumeIds } from "./volume-mounts-input.ts";
import { endpointObject, networkVolumeObject, registryObject, templateObject } from "./resource-objects.ts";
import type { ResolverContext } from "./resolver-context.ts";

type Opt<T> = T | null | undefined;
const given = (s: Opt<string>): string | undefined => (s === null || s === undefined || s === "" ? undefined : s);
const num = (n: Opt<number>): number | undefined => (n === null || n === undefined ? undefined : n);

/** The value of a domain command, or its refusal as a GraphQL error (BAD_USER_INPUT, NOT_FOUND, CONFLICT). */
export function unwrap<T>(out: Done<T>, operation: string): T {
  if (out.ok) return out.value;
  const code = out.reason === "invalid" ? GraphqlCode.BAD_USER_INPUT : out.reason === "not-found" ? GraphqlCode.NOT_FOUND : GraphqlCode.CONFLICT;
  throw userError(code, `${operation}: ${out.message}.`);
}

/** The resource fields of `myself`: functions, so a selection builds only what it asks for. */
export function userResources(ctx: ResolverContext) {
  const { platform, principal } = ctx;
  const accountId = principal.accountId;
  const catalog = () => platform.catalog;
  return {
    pubKey: () => platform.resources.pubKey(accountId),
    networkVolumes: () => catalog().networkVolumes.filter((v) => v.accountId === accountId).map(networkVolumeObject),
    endpoints: () => catalog().endpoints.filter((e) => e.accountId === accountId).map((e) => endpointObject(platform, ownEndpoint(platform, accountId, e.id)!)),
    podTemplates: () => catalog().templates.filter((t) => t.accountId === accountId).map(templateObject),
    containerRegistryCreds: () => catalog().registries.filter((r) => r.accountId === accountId).map(registryObject),
  };
}

export function updateUserSettings(args: { input: { pubKey?: Opt<string> } }, ctx: ResolverContext) {
  const { pubKey } = args.input;
  if (pubKey !== null && pubKey !== undefined) {
    if (pubKey.length > 64 * 1024) throw userError(GraphqlCode.BAD_USER_INPUT, "updateUserSettings: pubKey is longer than 65536 characters; send your public keys only.");
    ctx.platform.resources.setPubKey(ctx.principal.accountId, pubKey);
  }
  return { id: ctx.principal.accountId, ...userResources(ctx) };
}

interface SaveTemplateInput {
  id?: Opt<string>;
  name?: Opt<string>;
  imageName?: Opt<string>;
  dockerArgs?: Opt<string>;
  containerDiskInGb?: Opt<number>;
  volumeInGb?: Opt<number>;
  volumeMountPath?: Opt<string>;
  ports?: Opt<string>;
  env?: Opt<ReadonlyArray<{ key: string; value?: Opt<string> } | null>>;
  isServerless?: Opt<boolean>;
  isPublic?: Opt<boolean>;
  readme?: Opt<string>;
  containerRegistryAuthId?: Opt<string>;
}

function templatePatch(i: SaveTemplateInput, mutation: string): Partial<TemplateFields> {
  const entries = i.env === null || i.env === undefined ? undefined : i.env.filter((e) => e !== null).map((e) => [e!.key, e!.value ?? ""] as const);
  // As REST refuses a body with a "__proto__" key: a template holding one could not be used.
  const bad = entries?.find(([key]) => key === "__proto__");
  if (bad !== undefined) throw userError(GraphqlCode.BAD_USER_INPUT, `${mutation}: env key "__proto__" is not allowed (it could alter object prototypes); rename or remove it.`);
  const env = entries === undefined ? undefined : Object.fromEntries(entries);
  return {
    name: i.name ?? undefined,
    image: i.imageName ?? undefined,
    args: i.dockerArgs ?? undefined,
    disk: num(i.containerDiskInGb),
    volumeInGb: num(i.volumeInGb),
    volumeMountPath: given(i.volumeMountPath),
    ports: i.ports === null || i.ports === undefined ? undefined : i.ports.split(",").map((p) => p.trim()).filter((p) => p !== ""),
    env,
    // `containerRegistryAuthId : ""` is the client's "none".
    registry: i.containerRegistryAuthId === undefined ? undefined : (given(i.containerRegistryAuthId) ?? null),
    isServerless: i.isServerless ?? undefined,
    isPublic: i.isPublic ?? undefined,
    readme: i.readme ?? undefined,
  };
}

export function saveTemplate(args: { input?: Opt<SaveTemplateInput> }, ctx: ResolverContext) {
  const input = args.input ?? {};
  const { platform, principal } = ctx;
  const patch = templatePatch(input, "saveTemplate");
  const id = given(input.id);
  if (id !== undefined) return templateObject(unwrap(updateTemplate(platform, principal.accountId, id, patch), "saveTemplate"));
  if (patch.name === undefined || patch.image === undefined) throw userError(GraphqlCode.BAD_USER_INPUT, "saveTemplate: a new template needs name and imageName.");
  const fields = { ...TEMPLATE_DEFAULTS, ...stripUndefined(patch) } as TemplateFields;
  return templateObject(unwrap(createTemplate(platform, principal.accountId, fields), "saveTemplate"));
}

/** The platform deletes templates by name (unique per account). */
export function deleteTemplate_(args: { templateName: string }, ctx: ResolverContext): null {
  const { platform, principal } = ctx;
  const t = platform.catalog.templates.find((x) => x.accountId === principal.accountId && x.name === args.templateName);
  if (t === undefined) throw userError(GraphqlCode.NOT_FOUND, `deleteTemplate: you have no template named ${JSON.stringify(args.templateName)}.`);
  unwrap(deleteTemplate(platform, principal.accountId, t.id), "deleteTemplate");
  return null;
}

interface EndpointInput {
  id?: Opt<string>;
  name?: Opt<string>;
  templateId?: Opt<string>;
  gpuIds?: Opt<string>;
  gpuCount?: Opt<number>;
  networkVolumeId?: Opt<string>;
  locations?: Opt<string>;
  idleTimeout?: Opt<number>;
  scalerType?: Opt<string>;
  scalerValue?: Opt<number>;
  workersMin?: Opt<number>;
  workersMax?: Opt<number>;
  executionTimeoutMs?: Opt<number>;
  flashBootType?: Opt<string>;
  allowedCudaVersions?: Opt<string>;
  type?: Opt<string>;
  instanceIds?: Opt<ReadonlyArray<string | null>>;
  template?: Opt<SaveTemplateInput>;
  networkVolumeIds?: Opt<ReadonlyArray<{ networkVolumeId: string }>>;
  volumes?: Opt<ReadonlyArray<{ volumeId: string; volumeType: string }>>;
  flashEnvironmentId?: Opt<string>;
  modelReferences?: Opt<ReadonlyArray<string | null>>;
  minCudaVersion?: Opt<string>;
}

const SCALER_TYPES: Readonly<Record<string, EndpointFields["scalerType"]>> = { QUEUE_DELAY: "QueueDelay", REQUEST_COUNT: "RequestCount", WORKER_COUNT: "RequestCount" };

function endpointPatch(i: EndpointInput): Partial<EndpointFields> {
  let scalerType: EndpointFields["scalerType"] | undefined;
  if (given(i.scalerType) !== undefined) {
    scalerType = SCALER_TYPES[i.scalerType!];
    if (scalerType === undefined) throw userError(GraphqlCode.BAD_USER_INPUT, `saveEndpoint: scalerType ${JSON.stringify(i.scalerType)} is unknown; send QUEUE_DELAY or REQUEST_COUNT.`);
  }
  const flash = given(i.flashBootType);
  if (flash !== undefined && flash !== "OFF" && flash !== "FLASHBOOT") throw userError(GraphqlCode.BAD_USER_INPUT, `saveEndpoint: flashBootType ${JSON.stringify(flash)} is unknown; send OFF or FLASHBOOT.`);
  return {
    name: i.name ?? undefined,
    templateId: given(i.templateId),
    gpuIds: given(i.gpuIds) === undefined ? undefined : splitGpuIds(i.gpuIds!),
    gpuCount: num(i.gpuCount),
    networkVolumeIds: networkVolumeIdsOf(i),
    dataCenterIds: i.locations === undefined ? undefined : splitGpuIds(i.locations ?? ""),
    idleTimeoutS: num(i.idleTimeout),
    scalerType,
    scalerValue: num(i.scalerValue),
    workersMin: num(i.workersMin),
    workersMax: num(i.workersMax),
    executionTimeoutMs: num(i.executionTimeoutMs),
    flashboot: flash as EndpointFields["flashboot"] | undefined,
    allowedCudaVersions: i.allowedCudaVersions === undefined ? undefined : splitGpuIds(i.allowedCudaVersions ?? ""),
  };
}

/** `networkVolumeId` and the newest client's `networkVolumeIds: [{networkVolumeId}]`, together; undefined when neither is sent. */
function networkVolumeIdsOf(i: EndpointInput): string[] | undefined {
  if (i.networkVolumeId === undefined && (i.networkVolumeIds === undefined || i.networkVolumeIds === null)) return undefined;
  const one = given(i.networkVolumeId);
  return [...new Set([...(one === undefined ? [] : [one]), ...(i.networkVolumeIds ?? []).map((v) => v.networkVolumeId)])];
}

/** The newest client's `volumes`: each one of the caller's global volumes (checked; no worker mounts it here). */
function checkGlobalVolumes(i: EndpointInput, ctx: ResolverContext): void {
  const problems = new InputProblems();
  const mine = globalVolumeIds(ctx);
  (i.volumes ?? []).forEach((v, n) => {
    if (v.volumeType !== "OBJECT_STORE_VOLUME") problems.add(`volumes[${n}].volumeType`, `volumes[${n}] is a ${v.volumeType}; send network volumes in networkVolumeIds, global volumes (OBJECT_STORE_VOLUME) here.`);
    else if (!mine.has(v.volumeId)) problems.add(`volumes[${n}].volumeId`, `volumes[${n}].volumeId ${JSON.stringify(v.volumeId)} is not one of your global volumes; list them with myself { globalStoreBuckets { id name } }.`);
  });
  if (!problems.empty) throw problems.toError("saveEndpoint");
}

/** GraphQL's endpoint type: QB (queue-based, the default) or LB (load-balanced HTTP routes, no job queue). */
const ENDPOINT_TYPES: Readonly<Record<string, EndpointFields["type"]>> = { QB: "QUEUE", LB: "LOAD_BALANCER" };

/** `type` and `instanceIds` in the model's terms: a CPU endpoint's sizes parsed as deployCpuPod parses its instanceId. */
function computePatch(i: EndpointInput, platform: ResolverContext["platform"]): Partial<EndpointFields> {
  const out: { type?: EndpointFields["type"]; cpu?: EndpointFields["cpu"] } = {};
  const type = given(i.type);
  if (type !== undefined) {
    out.type = ENDPOINT_TYPES[type];
    if (out.type === undefined) throw userError(GraphqlCode.BAD_USER_INPUT, `saveEndpoint: type ${JSON.stringify(type)} is unknown; send QB (queue-based) or LB (load-balanced).`);
  }
  if (i.instanceIds !== undefined && i.instanceIds !== null) {
    const problems = new InputProblems();
    const flavors = catalogIndex(platform.catalog).cpuFlavor;
    const cpu = i.instanceIds.flatMap((id) => {
      const parsed = given(id) === undefined ? undefined : parseInstanceId(id!, flavors, problems);
      return parsed === undefined ? [] : [{ flavorId: parsed.flavor.id, vcpuCount: parsed.vcpuCount }];
    });
    if (!problems.empty) throw problems.toError("saveEndpoint");
    out.cpu = cpu;
  }
  return out;
}

/**
 * What `flash deploy` adds (runpod/apps/deploy.py's _deployed_endpoint_input): the Flash environment
 * the endpoint is deployed to, its model references and a CUDA floor; checked before anything is
 * saved, so a refusal leaves nothing behind.
 */
function checkFlashFields(i: EndpointInput, ctx: ResolverContext): { environmentId?: string; models?: string[] } {
  const apps = ctx.platform.resources.apps;
  const environmentId = given(i.flashEnvironmentId);
  const models = i.modelReferences === undefined || i.modelReferences === null ? undefined : i.modelReferences.filter((m): m is string => m !== null);
  const refusal =
    (environmentId === undefined ? undefined : apps.checkBinding(ctx.principal.accountId, environmentId, given(i.id))) ??
    (models === undefined ? undefined : apps.checkModelReferences(models));
  if (refusal) unwrap(refusal, "saveEndpoint");
  const cuda = given(i.minCudaVersion);
  if (cuda !== undefined && !/^[0-9]{1,3}\.[0-9]{1,3}$/.test(cuda)) throw userError(GraphqlCode.BAD_USER_INPUT, `saveEndpoint: minCudaVersion ${JSON.stringify(cuda.slice(0, 32))} is not a CUDA version; send major.minor, e.g. "12.8".`);
  return { ...(environmentId !== undefined ? { environmentId } : {}), ...(models !== undefined ? { models } : {}) };
}

/** A nested template: made for a new endpoint (or an existing one without), changed in place on update. */
export function saveEndpoint(args: { input: EndpointInput }, ctx: ResolverContext) {
  const { platform, principal } = ctx;
  checkGlobalVolumes(args.input, ctx);
  const flash = checkFlashFields(args.input, ctx);
  // A nested template is the endpoint's own: made with it, changed with it, deleted with it.
  const template = args.input.template ? templatePatch(args.input.template, "saveEndpoint") : undefined;
  const saved = unwrap(saveEndpointWithTemplate(platform, principal.accountId, given(args.input.id), { ...endpointPatch(args.input), ...computePatch(args.input, platform) }, template), "saveEndpoint");
  if (flash.environmentId !== undefined) platform.resources.apps.bindEndpoint(flash.environmentId, saved.endpoint.id);
  if (flash.models !== undefined) platform.resources.apps.setModelReferences(saved.endpoint.id, flash.models);
  return endpointObject(platform, saved);
}

export function updateEndpointTemplate(args: { input?: Opt<{ endpointId?: Opt<string>; id?: Opt<string>; templateId: string }> }, ctx: ResolverContext) {
  const input = args.input;
  const id = given(input?.endpointId) ?? given(input?.id);
  if (input === null || input === undefined || id === undefined) throw userError(GraphqlCode.BAD_USER_INPUT, "updateEndpointTemplate: send input {endpointId, templateId}.");
  const { platform, principal } = ctx;
  return endpointObject(platform, unwrap(updateEndpoint(platform, principal.accountId, id, { templateId: input.templateId }), "updateEndpointTemplate"));
}

/** `true` once deleted: the apps client reports success only for a truthy answer (its own tests mock `true`). */
export function deleteEndpoint_(args: { id: string }, ctx: ResolverContext): true {
  unwrap(deleteEndpoint(ctx.platform, ctx.principal.accountId, args.id), "deleteEndpoint");
  return true;
}

export function saveRegistryAuth(args: { input: { name: string; username: string; password: string } }, ctx: ResolverContext) {
  return registryObject(unwrap(createRegistry(ctx.platform, ctx.principal.accountId, args.input), "saveRegistryAuth"));
}

export function updateRegistryAuth(args: { input: { id: string; username: string; password: string } }, ctx: ResolverContext) {
  const { id, username, password } = args.input;
  return registryObject(unwrap(updateRegistry(ctx.platform, ctx.principal.accountId, id, { username, password }), "updateRegistryAuth"));
}

/** `true` once deleted, as deleteEndpoint. */
export function deleteRegistryAuth(args: { registryAuthId: string }, ctx: ResolverContext): true {
  unwrap(deleteRegistry(ctx.platform, ctx.principal.accountId, args.registryAuthId), "deleteRegistryAuth");
  return true;
}

export function createNetworkVolume_(args: { input: { name: string; size: number; dataCenterId: string } }, ctx: ResolverContext) {
  return networkVolumeObject(unwrap(createNetworkVolume(ctx.platform, ctx.principal.accountId, args.input), "createNetworkVolume"));
}

export function updateNetworkVolume_(args: { input: { id: string; name?: Opt<string>; size?: Opt<number> } }, ctx: ResolverContext) {
  const { id, name, size } = args.input;
  return networkVolumeObject(unwrap(updateNetworkVolume(ctx.platform, ctx.principal.accountId, id, { name: name ?? undefined, size: size ?? undefined }), "updateNetworkVolume"));
}

export function deleteNetworkVolume_(args: { input: { id: string } }, ctx: ResolverContext): null {
  unwrap(deleteNetworkVolume(ctx.platform, ctx.principal.accountId, args.input.id), "deleteNetworkVolume");
  return null;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
