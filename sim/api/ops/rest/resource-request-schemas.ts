/**
 * JSON Schemas of the REST v2 write requests for templates, network volumes, registry
 * credentials, serverless endpoints and the account's SSH keys, after the shapes the platform's
 * official Python client sends to REST v2 (`POST /v2/templates` with `serverless` and
 * `mounts.persistent`, `POST /v2/serverless` with `gpu.pools`, `workers`, `scaling`,
 * `flashboot`). Unknown properties are refused, so a misspelt field is a 400, not a silent
 * default. The bodies validate here first; the domain (sim/domain/resources) then judges what a
 * schema cannot know (does the template exist, is the volume yours).
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Nullable, schemaId } from "../../schemas/index.ts";

const Name = Type.String({ minLength: 1, maxLength: 191 });
const Port = Type.String({ pattern: "^[0-9]{1,5}/(http|tcp|udp)$", description: "port/protocol, e.g. 8888/http" });
const Env = Type.Record(Type.String({ minLength: 1, maxLength: 256, pattern: "^[^=]+$" }), Type.String({ maxLength: 32768 }), { maxProperties: 200 });
const Ids = Type.Array(Type.String({ minLength: 1, maxLength: 191 }), { maxItems: 50, uniqueItems: true });

const TemplatePersistentMount = Type.Object(
  { size: Type.Integer({ minimum: 1, maximum: 4000, description: "GB" }), path: Type.String({ pattern: "^/", maxLength: 1024 }) },
  { additionalProperties: false },
);
const TemplateMounts = Type.Object({ persistent: TemplatePersistentMount }, { additionalProperties: false });

const templateFields = {
  name: Name,
  image: Type.String({ minLength: 1, maxLength: 1024 }),
  args: Type.String({ maxLength: 32768 }),
  disk: Type.Integer({ minimum: 1, maximum: 4000, description: "Container disk in GB; default 10" }),
  ports: Type.Array(Port, { uniqueItems: true, maxItems: 64 }),
  env: Env,
  registry: Nullable(Type.String({ minLength: 1 })),
  mounts: TemplateMounts,
  serverless: Type.Boolean({ description: "A serverless template (the official client's name); isServerless is accepted too" }),
  isServerless: Type.Boolean(),
  isPublic: Type.Boolean(),
  readme: Type.String({ maxLength: 65536 }),
};

export const CreateTemplateRequest = Type.Object(
  { ...Object.fromEntries(Object.entries(templateFields).map(([k, v]) => [k, k === "name" || k === "image" ? v : Type.Optional(v)])) } as {
    name: typeof Name;
  } & Record<string, TSchema>,
  { $id: schemaId("CreateTemplateRequest"), additionalProperties: false, required: ["name", "image"] },
);
export type CreateTemplateRequest = {
  name: string; image: string; args?: string; disk?: number; ports?: string[]; env?: Record<string, string>; registry?: string | null;
  mounts?: { persistent: { size: number; path: string } }; serverless?: boolean; isServerless?: boolean; isPublic?: boolean; readme?: string;
};

export const UpdateTemplateRequest = Type.Object(
  Object.fromEntries(Object.entries(templateFields).map(([k, v]) => [k, Type.Optional(v)])),
  { $id: schemaId("UpdateTemplateRequest"), additionalProperties: false, minProperties: 1 },
);
export type UpdateTemplateRequest = Partial<CreateTemplateRequest>;

export const CreateNetworkVolumeRequest = Type.Object(
  { name: Name, size: Type.Integer({ minimum: 1, maximum: 4000, description: "GB" }), dataCenterId: Type.String({ minLength: 1 }) },
  { $id: schemaId("CreateNetworkVolumeRequest"), additionalProperties: false },
);
export type CreateNetworkVolumeRequest = Static<typeof CreateNetworkVolumeRequest>;

/** POST /v2/network-volumes, as the newest apps client writes it: the data center is `dataCenter`. */
export const CreateVolumeRequest = Type.Object(
  { name: Name, size: Type.Integer({ minimum: 1, maximum: 4000, description: "GB" }), dataCenter: Type.String({ minLength: 1 }) },
  { $id: schemaId("CreateVolumeRequest"), additionalProperties: false },
);
export type CreateVolumeRequest = Static<typeof CreateVolumeRequest>;

export const UpdateNetworkVolumeRequest = Type.Object(
  { name: Type.Optional(Name), size: Type.Optional(Type.Integer({ minimum: 1, maximum: 4000, description: "GB; may grow, never shrink" })) },
  { $id: schemaId("UpdateNetworkVolumeRequest"), additionalProperties: false, minProperties: 1 },
);
export type UpdateNetworkVolumeRequest = Static<typeof UpdateNetworkVolumeRequest>;

const Secret = Type.String({ minLength: 1, maxLength: 8192 });
export const CreateRegistryRequest = Type.Object(
  { name: Name, username: Type.String({ minLength: 1, maxLength: 1024 }), password: Secret },
  { $id: schemaId("CreateRegistryRequest"), additionalProperties: false },
);
export type CreateRegistryRequest = Static<typeof CreateRegistryRequest>;

export const UpdateRegistryRequest = Type.Object(
  { username: Type.String({ minLength: 1, maxLength: 1024 }), password: Secret },
  { $id: schemaId("UpdateRegistryRequest"), additionalProperties: false },
);
export type UpdateRegistryRequest = Static<typeof UpdateRegistryRequest>;

const EndpointGpu = Type.Object(
  {
    pools: Type.Array(Type.String({ minLength: 1, maxLength: 191 }), { minItems: 1, maxItems: 32, uniqueItems: true, description: "GPU pools (AMPERE_16, ADA_24 ...) or GPU type ids, in order of preference" }),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 8, description: "GPUs per worker; default 1" })),
    excludedTypes: Type.Optional(Ids),
    allowedCudaVersions: Type.Optional(Type.Array(Type.String({ pattern: "^[0-9]+\\.[0-9]+$" }), { maxItems: 20, description: "Recorded (GraphQL's Endpoint.allowedCudaVersions returns it), not used for placement" })),
    minCudaVersion: Type.Optional(Type.String({ pattern: "^[0-9]+\\.[0-9]+$", description: "Accepted and ignored, as allowedCudaVersions" })),
  },
  { additionalProperties: false },
);
const EndpointWorkers = Type.Object(
  {
    min: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: "Always-on workers; default 0" })),
    max: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: "Default 3" })),
    idleTimeout: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600, description: "Seconds; default 5" })),
  },
  { additionalProperties: false },
);
const EndpointScaling = Type.Object(
  {
    type: Type.Union([Type.Literal("QUEUE_DELAY"), Type.Literal("REQUEST_COUNT")]),
    queueDelay: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600, description: "Seconds a job waits before another worker starts" })),
    requestCount: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600, description: "Jobs per worker" })),
  },
  { additionalProperties: false },
);

const endpointFields = {
  name: Name,
  templateId: Type.String({ minLength: 1 }),
  type: Type.Union([Type.Literal("QUEUE"), Type.Literal("LOAD_BALANCER")], { description: "QUEUE (default): jobs at /v2/{id}/run...; LOAD_BALANCER: HTTP routes on its workers, no job queue. Fixed at creation" }),
  gpu: EndpointGpu,
  cpu: Type.Array(
    Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: "CPU flavor (cpu3c ...)" }), vcpuCount: Type.Integer({ minimum: 1, maximum: 512 }) }, { additionalProperties: false }),
    { minItems: 1, maxItems: 16, description: "A CPU endpoint's instance sizes, in order of preference: its workers take CPU stock and no GPUs (send cpu or gpu, not both)" },
  ),
  workers: EndpointWorkers,
  scaling: EndpointScaling,
  flashboot: Type.Union([Type.Literal("OFF"), Type.Literal("FLASHBOOT")]),
  networkVolumes: Type.Array(Type.String({ minLength: 1 }), { maxItems: 1, description: "At most one network volume" }),
  dataCenterIds: Ids,
  executionTimeoutMs: Type.Integer({ minimum: 5000, maximum: 604800000 }),
  // The newest apps client's spellings: `timeout` for executionTimeoutMs, and the endpoint's own
  // template given inline instead of templateId (made, changed and deleted with the endpoint).
  timeout: Type.Integer({ minimum: 5000, maximum: 604800000, description: "Same as executionTimeoutMs" }),
  image: templateFields.image,
  args: templateFields.args,
  disk: templateFields.disk,
  ports: templateFields.ports,
  env: templateFields.env,
  registry: templateFields.registry,
};

export const CreateEndpointRequest = Type.Object(
  Object.fromEntries(Object.entries(endpointFields).map(([k, v]) => [k, k === "name" ? v : Type.Optional(v)])),
  {
    $id: schemaId("CreateEndpointRequest"),
    additionalProperties: false,
    required: ["name"],
    allOf: [{ anyOf: [{ required: ["templateId"] }, { required: ["image"] }] }, { anyOf: [{ required: ["gpu"] }, { required: ["cpu"] }] }],
  },
);
export interface CreateEndpointRequest {
  name: string; templateId?: string; type?: "QUEUE" | "LOAD_BALANCER";
  cpu?: { id: string; vcpuCount: number }[];
  gpu?: { pools: string[]; count?: number; excludedTypes?: string[]; allowedCudaVersions?: string[]; minCudaVersion?: string };
  workers?: { min?: number; max?: number; idleTimeout?: number };
  scaling?: { type: "QUEUE_DELAY" | "REQUEST_COUNT"; queueDelay?: number; requestCount?: number };
  flashboot?: "OFF" | "FLASHBOOT"; networkVolumes?: string[]; dataCenterIds?: string[]; executionTimeoutMs?: number; timeout?: number;
  image?: string; args?: string; disk?: number; ports?: string[]; env?: Record<string, string>; registry?: string | null;
}

export const UpdateEndpointRequest = Type.Object(
  Object.fromEntries(Object.entries(endpointFields).map(([k, v]) => [k, Type.Optional(v)])),
  { $id: schemaId("UpdateEndpointRequest"), additionalProperties: false, minProperties: 1 },
);
export type UpdateEndpointRequest = Partial<CreateEndpointRequest>;

export const SshKeys = Type.Object(
  { keys: Type.Array(Type.String({ minLength: 1, maxLength: 16384, pattern: "^[^\\n\\r]+$" }), { maxItems: 100, description: "OpenSSH public keys, one per entry" }) },
  { $id: schemaId("SshKeys"), additionalProperties: false },
);
export type SshKeys = Static<typeof SshKeys>;

export const resourceRequestSchemas: readonly TSchema[] = [
  CreateTemplateRequest, UpdateTemplateRequest, CreateNetworkVolumeRequest, CreateVolumeRequest, UpdateNetworkVolumeRequest,
  CreateRegistryRequest, UpdateRegistryRequest, CreateEndpointRequest, UpdateEndpointRequest, SshKeys,
];

/** Request and answer schemas of the write operations, by op name (for the OpenAPI document). */
export const REST_RESOURCE_WRITES: Readonly<Record<string, { request?: string; responses: Readonly<Record<number, string | null>> }>> = {
  createTemplate: { request: "CreateTemplateRequest", responses: { 201: "Template" } },
  updateTemplate: { request: "UpdateTemplateRequest", responses: { 200: "Template" } },
  deleteTemplate: { responses: { 204: null } },
  createNetworkVolume: { request: "CreateNetworkVolumeRequest", responses: { 201: "NetworkVolume" } },
  updateNetworkVolume: { request: "UpdateNetworkVolumeRequest", responses: { 200: "NetworkVolume" } },
  deleteNetworkVolume: { responses: { 204: null } },
  createRegistry: { request: "CreateRegistryRequest", responses: { 201: "Registry" } },
  updateRegistry: { request: "UpdateRegistryRequest", responses: { 200: "Registry" } },
  deleteRegistry: { responses: { 204: null } },
  createEndpoint: { request: "CreateEndpointRequest", responses: { 201: "Endpoint" } },
  updateEndpoint: { request: "UpdateEndpointRequest", responses: { 200: "Endpoint" } },
  deleteEndpoint: { responses: { 204: null } },
  getSshKeys: { responses: { 200: "SshKeys" } },
  putSshKeys: { request: "SshKeys", responses: { 200: "SshKeys" } },
};
