/**
 * REST v2 create, update and delete of templates, network volumes, registry credentials and
 * serverless endpoints, and the account's SSH keys. Each body is validated against its schema
 * (resource-request-schemas.ts; 400 with every violation listed), then handed to the domain's
 * commands (sim/domain/resources), whose refusals map to 400, 404 and 409. Only the caller's own
 * records can be changed: another account's, or a shared built-in, answers 404 exactly like an
 * unknown id. Read-only keys are refused (403) by the route table's `write` flag before any of
 * this runs. Create answers 201 with the record, update 200, delete 204.
 */
import type { Platform } from "../../../domain/platform.ts";
import {
  TEMPLATE_DEFAULTS, createNetworkVolume, createRegistry, createTemplate, deleteEndpoint,
  deleteNetworkVolume, deleteRegistry, deleteTemplate, saveEndpointWithTemplate, updateNetworkVolume, updateRegistry, updateTemplate,
  type Done, type EndpointAnswer, type EndpointFields, type TemplateFields,
} from "../../../domain/resources/index.ts";
import { json } from "../../json-response.ts";
import type { Operation, OpContext } from "../../op-context.ts";
import { problem } from "../../problem.ts";
import { respond } from "../../types.ts";
import { sharedValidator } from "../../validate/shared-validator.ts";
import type {
  CreateEndpointRequest, CreateNetworkVolumeRequest, CreateRegistryRequest, CreateTemplateRequest, CreateVolumeRequest, SshKeys, UpdateEndpointRequest,
  UpdateNetworkVolumeRequest, UpdateRegistryRequest, UpdateTemplateRequest,
} from "./resource-request-schemas.ts";
import { resourceRequestSchemas } from "./resource-request-schemas.ts";
import { sandboxSchemas } from "./sandbox-schemas.ts";
import { v1PodSchemas } from "./v1-pod-schemas.ts";
import { restResourceSchemas } from "./resource-schemas.ts";
import { endpointView, networkVolumeView, registryView, templateView } from "./resource-views.ts";

const STATUS = { invalid: 400, "not-found": 404, conflict: 409, limit: 409 } as const;

/** The shared validator, having learnt this folder's schemas once (they are not in the pod records' list). */
export function restValidator() {
  const v = sharedValidator();
  for (const s of [...restResourceSchemas, ...resourceRequestSchemas, ...sandboxSchemas, ...v1PodSchemas]) if (v.ajv.getSchema(s.$id as string) === undefined) v.ajv.addSchema(s);
  return v;
}

type Body<T> = { ok: true; value: T } | { ok: false; response: ReturnType<typeof respond> };

export function body<T>(ctx: OpContext, schema: string, example: string): Body<T> {
  const value = ctx.request.body;
  const result = restValidator().validate(`cpsim:${schema}`, value);
  if (result.ok) return { ok: true, value: value as T };
  return {
    ok: false,
    response: respond(problem(400, `The request body does not fit ${schema}; send ${example}.`, { errors: result.errors.map((e: string) => (e.startsWith(":") ? `(body)${e}` : e)) })),
  };
}

export function answer<T>(out: Done<T>, status: number, view: (value: T) => unknown) {
  if (!out.ok) return respond(problem(STATUS[out.reason], sentence(out.message)));
  return respond(status === 204 ? json(204, undefined) : json(status, view(out.value)));
}

const sentence = (m: string) => `${m.charAt(0).toUpperCase()}${m.slice(1)}${/[.!?]$/.test(m) ? "" : "."}`;
const id = (ctx: OpContext) => ctx.params.id ?? "";

// ---------------------------------------------------------------- templates

function templatePatch(b: UpdateTemplateRequest): Partial<TemplateFields> {
  return {
    name: b.name,
    image: b.image,
    args: b.args,
    disk: b.disk,
    ports: b.ports,
    env: b.env,
    registry: b.registry,
    volumeInGb: b.mounts === undefined ? undefined : b.mounts.persistent.size,
    volumeMountPath: b.mounts?.persistent.path,
    isServerless: b.serverless ?? b.isServerless,
    isPublic: b.isPublic,
    readme: b.readme,
  };
}

function serverlessFlagsAgree(b: UpdateTemplateRequest): string | undefined {
  if (b.serverless !== undefined && b.isServerless !== undefined && b.serverless !== b.isServerless) return "serverless and isServerless disagree; send one of them";
  return undefined;
}

export const createTemplateOp: Operation = (ctx) => {
  const b = body<CreateTemplateRequest>(ctx, "CreateTemplateRequest", '{"name": "my-template", "image": "ubuntu:22.04"}');
  if (!b.ok) return b.response;
  const clash = serverlessFlagsAgree(b.value);
  if (clash) return respond(problem(400, sentence(clash)));
  const fields = { ...TEMPLATE_DEFAULTS, ...defined(templatePatch(b.value)) } as TemplateFields;
  return answer(createTemplate(ctx.platform, ctx.principal.accountId, fields), 201, templateView);
};

export const updateTemplateOp: Operation = (ctx) => {
  const b = body<UpdateTemplateRequest>(ctx, "UpdateTemplateRequest", 'the fields to change, e.g. {"image": "ubuntu:24.04"}');
  if (!b.ok) return b.response;
  const clash = serverlessFlagsAgree(b.value);
  if (clash) return respond(problem(400, sentence(clash)));
  return answer(updateTemplate(ctx.platform, ctx.principal.accountId, id(ctx), defined(templatePatch(b.value))), 200, templateView);
};

export const deleteTemplateOp: Operation = (ctx) => answer(deleteTemplate(ctx.platform, ctx.principal.accountId, id(ctx)), 204, () => undefined);

// ---------------------------------------------------------------- network volumes

export const createNetworkVolumeOp: Operation = (ctx) => {
  const b = body<CreateNetworkVolumeRequest>(ctx, "CreateNetworkVolumeRequest", '{"name": "datasets", "size": 50, "dataCenterId": "EU-RO-1"}');
  if (!b.ok) return b.response;
  return answer(createNetworkVolume(ctx.platform, ctx.principal.accountId, b.value), 201, networkVolumeView);
};

export const createVolumeOp: Operation = (ctx) => {
  const b = body<CreateVolumeRequest>(ctx, "CreateVolumeRequest", '{"name": "datasets", "size": 50, "dataCenter": "EU-RO-1"}');
  if (!b.ok) return b.response;
  const { name, size, dataCenter } = b.value;
  return answer(createNetworkVolume(ctx.platform, ctx.principal.accountId, { name, size, dataCenterId: dataCenter }), 201, networkVolumeView);
};

export const updateNetworkVolumeOp: Operation = (ctx) => {
  const b = body<UpdateNetworkVolumeRequest>(ctx, "UpdateNetworkVolumeRequest", '{"name": "new-name"} or {"size": 100}');
  if (!b.ok) return b.response;
  return answer(updateNetworkVolume(ctx.platform, ctx.principal.accountId, id(ctx), b.value), 200, networkVolumeView);
};

export const deleteNetworkVolumeOp: Operation = (ctx) => answer(deleteNetworkVolume(ctx.platform, ctx.principal.accountId, id(ctx)), 204, () => undefined);

// ---------------------------------------------------------------- registry credentials

export const createRegistryOp: Operation = (ctx) => {
  const b = body<CreateRegistryRequest>(ctx, "CreateRegistryRequest", '{"name": "ghcr", "username": "me", "password": "<token>"}');
  if (!b.ok) return b.response;
  return answer(createRegistry(ctx.platform, ctx.principal.accountId, b.value), 201, registryView);
};

export const updateRegistryOp: Operation = (ctx) => {
  const b = body<UpdateRegistryRequest>(ctx, "UpdateRegistryRequest", '{"username": "me", "password": "<token>"}');
  if (!b.ok) return b.response;
  return answer(updateRegistry(ctx.platform, ctx.principal.accountId, id(ctx), b.value), 200, registryView);
};

export const deleteRegistryOp: Operation = (ctx) => answer(deleteRegistry(ctx.platform, ctx.principal.accountId, id(ctx)), 204, () => undefined);

// ---------------------------------------------------------------- serverless endpoints

function endpointPatch(b: UpdateEndpointRequest): Partial<EndpointFields> {
  const scaling = b.scaling;
  const scalerValue = scaling === undefined ? undefined : scaling.type === "QUEUE_DELAY" ? scaling.queueDelay : scaling.requestCount;
  return {
    name: b.name,
    templateId: b.templateId,
    gpuIds: b.gpu === undefined ? undefined : [...b.gpu.pools, ...(b.gpu.excludedTypes ?? []).map((t) => `-${t}`)],
    gpuCount: b.gpu?.count,
    workersMin: b.workers?.min,
    workersMax: b.workers?.max,
    idleTimeoutS: b.workers?.idleTimeout,
    scalerType: scaling === undefined ? undefined : scaling.type === "QUEUE_DELAY" ? "QueueDelay" : "RequestCount",
    scalerValue,
    executionTimeoutMs: b.executionTimeoutMs ?? b.timeout,
    networkVolumeIds: b.networkVolumes,
    dataCenterIds: b.dataCenterIds,
    flashboot: b.flashboot,
    allowedCudaVersions: b.gpu === undefined ? undefined : (b.gpu.allowedCudaVersions ?? []),
    type: b.type,
    cpu: b.cpu?.map((c) => ({ flavorId: c.id, vcpuCount: c.vcpuCount })),
  };
}

const endpointAnswer = (a: EndpointAnswer) => endpointView(a.endpoint, a.extra);

/** Fields that name the same thing twice, or a template twice; undefined when the body is consistent. */
function endpointClash(b: UpdateEndpointRequest): string | undefined {
  if (b.timeout !== undefined && b.executionTimeoutMs !== undefined && b.timeout !== b.executionTimeoutMs) return "timeout and executionTimeoutMs disagree; send one of them";
  if (b.templateId !== undefined && inlineTemplate(b) !== undefined) return "send templateId or the template's own fields (image, args, disk, ports, env, registry), not both";
  return undefined;
}

/** The endpoint's own template from inline fields (named after the endpoint when it is made), or undefined. */
function inlineTemplate(b: UpdateEndpointRequest): Partial<TemplateFields> | undefined {
  const { image, args, disk, ports, env, registry } = b;
  if ([image, args, disk, ports, env, registry].every((v) => v === undefined)) return undefined;
  return defined({ ...templatePatch({ image, args, disk, ports, env, registry }), ...(b.name !== undefined ? { name: `${b.name} (endpoint template)` } : {}) });
}

export const createEndpointOp: Operation = (ctx) => {
  const b = body<CreateEndpointRequest>(ctx, "CreateEndpointRequest", '{"name": "my-endpoint", "templateId": "<id>", "gpu": {"pools": ["ADA_24"]}} (or "image" instead of "templateId")');
  if (!b.ok) return b.response;
  const clash = endpointClash(b.value);
  if (clash) return respond(problem(400, sentence(clash)));
  return answer(saveEndpointWithTemplate(ctx.platform, ctx.principal.accountId, undefined, defined(endpointPatch(b.value)), inlineTemplate(b.value)), 201, endpointAnswer);
};

export const updateEndpointOp: Operation = (ctx) => {
  const b = body<UpdateEndpointRequest>(ctx, "UpdateEndpointRequest", 'the fields to change, e.g. {"templateId": "<id>"} or {"workers": {"max": 5}}');
  if (!b.ok) return b.response;
  const clash = endpointClash(b.value);
  if (clash) return respond(problem(400, sentence(clash)));
  return answer(saveEndpointWithTemplate(ctx.platform, ctx.principal.accountId, id(ctx), defined(endpointPatch(b.value)), inlineTemplate(b.value)), 200, endpointAnswer);
};

/** Jobs in flight are cancelled (Serverless.removeEndpoint); the answer says how many. */
export const deleteEndpointOp: Operation = (ctx) => {
  const out = deleteEndpoint(ctx.platform, ctx.principal.accountId, id(ctx));
  if (!out.ok) return respond(problem(STATUS[out.reason], sentence(out.message)));
  return respond(json(204, undefined, { "x-cancelled-jobs": String(out.value.cancelledJobs) }));
};

// ---------------------------------------------------------------- the account's SSH keys

export const getSshKeysOp: Operation = ({ platform, principal }) => respond(json(200, sshKeys(platform, principal.accountId)));

/** Replaces the keys; the answer is the new list. GraphQL's `myself.pubKey` reads them newline-joined. */
export const putSshKeysOp: Operation = (ctx) => {
  const b = body<SshKeys>(ctx, "SshKeys", '{"keys": ["ssh-ed25519 AAAA... me@laptop"]}');
  if (!b.ok) return b.response;
  ctx.platform.resources.setPubKey(ctx.principal.accountId, b.value.keys.map((k) => k.trim()).join("\n"));
  return respond(json(200, sshKeys(ctx.platform, ctx.principal.accountId)));
};

function sshKeys(platform: Platform, accountId: string): SshKeys {
  return { keys: platform.resources.pubKey(accountId).split("\n").filter((k) => k !== "") };
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
