/**
 * JSON Schemas of the REST answers the spec names only by group (Network Volumes, Templates,
 * Registries, Serverless endpoints, Billing): the emulator's own shapes, written once here so
 * that the views are typed from them and the tests validate against them. Response records
 * accept extra properties, as the spec's records do. `restResourceSchemas` lists every named one,
 * ready to join sim/api/schemas' `allSchemas` (and so the OpenAPI document).
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Nullable, Ref, schemaId } from "../../schemas/index.ts";

const Usd = Type.Number({ minimum: 0, description: "USD per hour" });
const StringList = Type.Array(Type.String());

export const NetworkVolumeView = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String(),
    size: Type.Integer({ minimum: 1, description: "GB" }),
    dataCenterId: Type.String({ minLength: 1 }),
  },
  { $id: schemaId("NetworkVolume") },
);
export type NetworkVolumeView = Static<typeof NetworkVolumeView>;

export const NetworkVolumeList = Type.Object({ networkVolumes: Type.Array(Ref(NetworkVolumeView)) }, { $id: schemaId("NetworkVolumeList") });
export type NetworkVolumeList = Static<typeof NetworkVolumeList>;

export const TemplateView = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String(),
    isPublic: Type.Boolean(),
    isServerless: Type.Boolean(),
    category: Type.String(),
    image: Type.String(),
    args: Type.String(),
    disk: Type.Integer({ minimum: 1 }),
    volumeInGb: Type.Integer({ minimum: 0 }),
    volumeMountPath: Type.String(),
    ports: StringList,
    env: Type.Record(Type.String(), Type.String()),
    registry: Nullable(Type.String()),
    readme: Type.String(),
    /** The volume as REST v2 writes it (the official client reads mounts.persistent); {} without one. */
    mounts: Type.Object({ persistent: Type.Optional(Type.Object({ size: Type.Integer({ minimum: 1 }), path: Type.String() })) }),
  },
  { $id: schemaId("Template") },
);
export type TemplateView = Static<typeof TemplateView>;

export const TemplateList = Type.Object({ templates: Type.Array(Ref(TemplateView)) }, { $id: schemaId("TemplateList") });
export type TemplateList = Static<typeof TemplateList>;

/** A registry credential: never its password (the model keeps none, and the API would not show it). */
export const RegistryView = Type.Object(
  { id: Type.String({ minLength: 1 }), name: Type.String(), username: Type.String() },
  { $id: schemaId("Registry"), not: { required: ["password"] } },
);
export type RegistryView = Static<typeof RegistryView>;

export const RegistryList = Type.Object({ registries: Type.Array(Ref(RegistryView)) }, { $id: schemaId("RegistryList") });
export type RegistryList = Static<typeof RegistryList>;

export const EndpointView = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String(),
    /** True for a built-in every account may call (the conformance endpoint, public models). */
    shared: Type.Boolean(),
    public: Type.Boolean(),
    slug: Nullable(Type.String()),
    handler: Type.String(),
    gpuTypeIds: StringList,
    gpuCount: Type.Integer({ minimum: 0, description: "0 for a CPU endpoint" }),
    workersMin: Type.Integer({ minimum: 0 }),
    workersMax: Type.Integer({ minimum: 0 }),
    idleTimeoutMs: Type.Integer({ minimum: 0 }),
    scalerType: Type.String(),
    scalerValue: Type.Integer({ minimum: 1 }),
    executionTimeoutMs: Type.Integer({ minimum: 1 }),
    /** REST v2's write shape, read back (the flat fields above stay for existing readers). */
    templateId: Nullable(Type.String()),
    type: Type.Union([Type.Literal("QUEUE"), Type.Literal("LOAD_BALANCER")]),
    cpu: Type.Array(Type.Object({ id: Type.String(), vcpuCount: Type.Integer({ minimum: 1 }) }), { description: "A CPU endpoint's instance sizes; empty for a GPU endpoint" }),
    gpu: Nullable(Type.Object({ pools: StringList, count: Type.Integer({ minimum: 1 }) })),
    workers: Type.Object({ min: Type.Integer({ minimum: 0 }), max: Type.Integer({ minimum: 0 }), idleTimeout: Type.Integer({ minimum: 0, description: "seconds" }) }),
    scaling: Type.Object({ type: Type.Union([Type.Literal("QUEUE_DELAY"), Type.Literal("REQUEST_COUNT")]), queueDelay: Type.Optional(Type.Integer()), requestCount: Type.Optional(Type.Integer()) }),
    flashboot: Type.Union([Type.Literal("OFF"), Type.Literal("FLASHBOOT")]),
    networkVolumes: StringList,
    dataCenterIds: StringList,
    createdAt: Type.String({ format: "date-time" }),
    version: Type.Integer({ minimum: 0 }),
  },
  { $id: schemaId("Endpoint") },
);
export type EndpointView = Static<typeof EndpointView>;

export const EndpointList = Type.Object({ endpoints: Type.Array(Ref(EndpointView)) }, { $id: schemaId("EndpointList") });
export type EndpointList = Static<typeof EndpointList>;

export const WorkerViewSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    status: Type.Union([Type.Literal("THROTTLED"), Type.Literal("INITIALIZING"), Type.Literal("IDLE"), Type.Literal("RUNNING")]),
    gpuTypeId: Nullable(Type.String()),
    gpuCount: Type.Integer({ minimum: 0 }),
    dataCenterId: Nullable(Type.String()),
    jobId: Nullable(Type.String({ description: "The job it runs, while RUNNING" })),
  },
  { $id: schemaId("Worker") },
);
export const WorkerList = Type.Object({ workers: Type.Array(Ref(WorkerViewSchema)) }, { $id: schemaId("WorkerList") });
export type WorkerList = Static<typeof WorkerList>;

/** What a billing answer says of itself: a rate at one instant, not a history. */
const BillingMetadata = Type.Object({
  asOf: Type.String({ format: "date-time" }),
  basis: Type.String({ description: "How the amounts were derived" }),
  recordCount: Type.Integer({ minimum: 0 }),
  totalCostPerHour: Usd,
});

export const PodBillingRecord = Type.Object(
  {
    podId: Type.String({ minLength: 1 }),
    name: Type.String(),
    status: Type.String(),
    gpuTypeId: Nullable(Type.String()),
    gpuCount: Type.Integer({ minimum: 0 }),
    cpuFlavorId: Nullable(Type.String()),
    vcpuCount: Type.Integer({ minimum: 0 }),
    computeCostPerHour: Usd,
    storageCostPerHour: Usd,
    costPerHour: Usd,
  },
  { $id: schemaId("PodBillingRecord") },
);
export type PodBillingRecord = Static<typeof PodBillingRecord>;

export const PodBilling = Type.Object(
  { records: Type.Array(Ref(PodBillingRecord)), metadata: BillingMetadata },
  { $id: schemaId("PodBilling") },
);
export type PodBilling = Static<typeof PodBilling>;

export const EndpointBillingRecord = Type.Object(
  {
    endpointId: Type.String({ minLength: 1 }),
    name: Type.String(),
    gpuTypeId: Type.String({ description: "The endpoint's first (preferred) GPU type, whose price the rate uses; for a CPU endpoint its first CPU instance id (cpu3c-2-4)" }),
    gpuCount: Type.Integer({ minimum: 0, description: "0 for a CPU endpoint" }),
    billedWorkers: Type.Integer({ minimum: 0, description: "Workers holding GPUs: initializing, idle or running" }),
    pricePerGpuHour: Usd,
    costPerHour: Usd,
  },
  { $id: schemaId("EndpointBillingRecord") },
);
export type EndpointBillingRecord = Static<typeof EndpointBillingRecord>;

export const EndpointBilling = Type.Object(
  { records: Type.Array(Ref(EndpointBillingRecord)), metadata: BillingMetadata },
  { $id: schemaId("EndpointBilling") },
);
export type EndpointBilling = Static<typeof EndpointBilling>;

/** Every named schema of this file, entries before the lists that refer to them. */
export const restResourceSchemas: readonly TSchema[] = [
  NetworkVolumeView, NetworkVolumeList, TemplateView, TemplateList, RegistryView, RegistryList, EndpointView, EndpointList,
  WorkerViewSchema, WorkerList, PodBillingRecord, PodBilling, EndpointBillingRecord, EndpointBilling,
];

/** The answer schema of each read operation of this folder, by op name (for the OpenAPI document). */
export const REST_RESOURCE_RESPONSES: Readonly<Record<string, string>> = {
  listNetworkVolumes: "NetworkVolumeList",
  getNetworkVolume: "NetworkVolume",
  listTemplates: "TemplateList",
  getTemplate: "Template",
  listRegistries: "RegistryList",
  getRegistry: "Registry",
  listEndpoints: "EndpointList",
  getEndpoint: "Endpoint",
  billingPods: "PodBilling",
  billingEndpoints: "EndpointBilling",
  listEndpointWorkers: "WorkerList",
  listServerlessWorkers: "WorkerList",
};
