/**
 * JSON Schemas of the small REST v1 pod surface (`/v1/pods`), after the platform's public v1
 * reference as the JavaScript SDK repository's `Pod` class uses it: V1PodOptions is the create
 * body (its PodOptions, every field optional, unknown properties refused like the v2 body's),
 * V1Pod the pod it reads back. Validated with the shared validator, published in /openapi.json.
 * What V1PodOptions accepts but the emulator cannot translate is refused after the schema, by
 * v1-pod-translation.ts, naming the options.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Nullable, StringEnum, schemaId } from "../../schemas/index.ts";
import { PORT_PATTERN } from "../../schemas/container-config.ts";

const Ids = (description: string) => Type.Array(Type.String({ minLength: 1, maxLength: 191 }), { maxItems: 50, description });
const Priority = StringEnum(["availability", "custom"], { description: "Accepted; the emulator always tries the listed ids in order" });

/** Every option is optional, as in PodOptions. */
export const V1PodOptions = Type.Partial(
  Type.Object({
    allowedCudaVersions: Type.Array(Type.String({ maxLength: 16 }), { maxItems: 20, description: "Refused unless empty: the v2 pod body has no CUDA filter" }),
    cloudType: StringEnum(["SECURE", "COMMUNITY"], { default: "SECURE" }),
    computeType: StringEnum(["GPU", "CPU"], { default: "GPU" }),
    containerDiskInGb: Nullable(Type.Integer({ minimum: 1, maximum: 4000, default: 50 })),
    containerRegistryAuthId: Type.String({ minLength: 1, maxLength: 191 }),
    countryCodes: Type.Array(Type.String({ maxLength: 8 }), { maxItems: 50, description: "Refused unless empty" }),
    cpuFlavorIds: Ids("CPU flavors to try, in order (CPU pods)"),
    cpuFlavorPriority: Priority,
    dataCenterIds: Ids("Data centers the pod may be placed in"),
    dataCenterPriority: Priority,
    dockerEntrypoint: Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 256, description: "Refused unless empty: the v2 pod body has no entrypoint" }),
    dockerStartCmd: Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 256, description: "Sent as v2 args, shell-quoted" }),
    env: Type.Record(Type.String({ minLength: 1, maxLength: 256 }), Type.String({ maxLength: 32768 }), { maxProperties: 200 }),
    globalNetworking: Type.Boolean({ default: false }),
    gpuCount: Type.Integer({ minimum: 1, default: 1 }),
    gpuTypeIds: Ids("GPU types to try, in order (GPU pods)"),
    gpuTypePriority: Priority,
    imageName: Type.String({ minLength: 1, maxLength: 1024 }),
    interruptible: Type.Boolean({ default: false, description: "Refused when true: no interruptible pods here" }),
    locked: Type.Boolean({ default: false, description: "true: the pod is locked once made (as PATCH /v2/pods/{id} {locked: true})" }),
    minDiskBandwidthMBps: Type.Number({ description: "Refused: no such placement filter here" }),
    minDownloadMbps: Type.Number({ description: "Refused: no such placement filter here" }),
    minRAMPerGPU: Type.Number({ description: "Refused: no such placement filter here" }),
    minUploadMbps: Type.Number({ description: "Refused: no such placement filter here" }),
    minVCPUPerGPU: Type.Number({ description: "Refused: no such placement filter here" }),
    name: Type.String({ minLength: 1, maxLength: 191, default: "my pod" }),
    networkVolumeId: Type.String({ minLength: 1, maxLength: 191 }),
    ports: Type.Array(Type.String({ pattern: PORT_PATTERN }), { maxItems: 64, default: ["8888/http", "22/tcp"] }),
    supportPublicIp: Type.Boolean({ description: "Accepted and ignored" }),
    templateId: Nullable(Type.String({ minLength: 1, maxLength: 191 })),
    vcpuCount: Type.Integer({ minimum: 1, maximum: 512, default: 2 }),
    volumeInGb: Nullable(Type.Integer({ minimum: 0, maximum: 4000, description: "Pod volume in GB; default 20 for a GPU pod, 0 for a CPU pod" })),
    volumeMountPath: Type.String({ pattern: "^/", maxLength: 1024, default: "/workspace" }),
  }),
  { additionalProperties: false, $id: schemaId("V1PodOptions") },
);
export type V1PodOptions = Static<typeof V1PodOptions>;

export const V1Pod = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    image: Type.String(),
    desiredStatus: StringEnum(["RUNNING", "EXITED", "TERMINATED"]),
    consumerUserId: Type.String(),
    costPerHr: Type.Number(),
    adjustedCostPerHr: Type.Number(),
    gpuCount: Type.Integer(),
    gpu: Nullable(Type.Object({ id: Type.String(), count: Type.Integer(), displayName: Type.String() })),
    cpuFlavorId: Nullable(Type.String()),
    vcpuCount: Nullable(Type.Integer()),
    memoryInGb: Nullable(Type.Integer()),
    containerDiskInGb: Type.Integer(),
    volumeInGb: Type.Integer(),
    volumeMountPath: Nullable(Type.String()),
    networkVolumeId: Nullable(Type.String()),
    ports: Type.Array(Type.String()),
    portMappings: Nullable(Type.Record(Type.String(), Type.Integer())),
    publicIp: Nullable(Type.String()),
    env: Type.Record(Type.String(), Type.String()),
    dockerEntrypoint: Type.Array(Type.String()),
    dockerStartCmd: Type.Array(Type.String()),
    interruptible: Type.Boolean(),
    locked: Type.Boolean(),
    templateId: Nullable(Type.String()),
    containerRegistryAuthId: Nullable(Type.String()),
    machine: Nullable(Type.Object({ dataCenterId: Type.String() })),
    lastStartedAt: Nullable(Type.String()),
  },
  { $id: schemaId("V1Pod") },
);
export type V1Pod = Static<typeof V1Pod>;

export const V1PodList = Type.Array(Type.Unsafe({ $ref: V1Pod.$id! }), { $id: schemaId("V1PodList") });

export const v1PodSchemas: readonly TSchema[] = [V1PodOptions, V1Pod, V1PodList];

/** What each v1 operation takes and answers, by component name (for /openapi.json). */
export const V1_POD_OP_SCHEMAS: Readonly<Record<string, { request?: string; responses: Readonly<Record<number, string | null>> }>> = {
  listPodsV1: { responses: { 200: "V1PodList" } },
  createPodV1: { request: "V1PodOptions", responses: { 201: "V1Pod" } },
  getPodV1: { responses: { 200: "V1Pod" } },
  stopPodV1: { responses: { 200: "V1Pod" } },
  startPodV1: { responses: { 200: "V1Pod" } },
  restartPodV1: { responses: { 200: "V1Pod" } },
  deletePodV1: { responses: { 204: null } },
};
