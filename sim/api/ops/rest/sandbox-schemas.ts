/**
 * JSON Schemas of `/v2/sandboxes`: the bodies the newest Python client's `runpod.sandbox` sends
 * (AsyncioSandbox's create body with its None values left out, PATCH and extend lifetimes, exec's
 * argv) and what it reads back (SandboxInfo.from_dict, ExecResult). Validated with the shared
 * validator and published in /openapi.json.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Nullable, Ref, schemaId } from "../../schemas/index.ts";
import { SANDBOX_LIMITS } from "../../../domain/resources/sandboxes.ts";

const Strings = (max: number) => Type.Array(Type.String({ maxLength: 4096 }), { maxItems: max });
const StringMap = Type.Record(Type.String({ minLength: 1, maxLength: 256 }), Type.String({ maxLength: 16384 }), { maxProperties: 100 });
const Idle = Type.Integer({ minimum: SANDBOX_LIMITS.idleTimeoutSeconds.min, maximum: SANDBOX_LIMITS.idleTimeoutSeconds.max, description: `Seconds without activity before it terminates; default ${SANDBOX_LIMITS.idleTimeoutSeconds.default}` });
const Lifetime = Type.Integer({ minimum: SANDBOX_LIMITS.maxLifetimeSeconds.min, maximum: SANDBOX_LIMITS.maxLifetimeSeconds.max, description: `Seconds from creation before it terminates; default ${SANDBOX_LIMITS.maxLifetimeSeconds.default}` });
const Mount = Type.Object({ volumeId: Type.String({ minLength: 1 }), path: Type.String({ pattern: "^/" }) }, { additionalProperties: false });
const Port = Type.Object({ port: Type.Integer({ minimum: 1, maximum: 65535 }), protocol: Type.Union([Type.Literal("http"), Type.Literal("tcp"), Type.Literal("udp")]) }, { additionalProperties: false });

const createFields = {
    imageName: Type.String({ minLength: 1, maxLength: 1024 }),
    templateId: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1, maxLength: 191 }),
    cpuFlavorId: Type.String({ minLength: 1, description: "Default: the catalog's first CPU flavor" }),
    vcpuCount: Type.Integer({ minimum: 1, maximum: 512, description: "Default: the flavor's smallest size" }),
    memoryInGb: Type.Integer({ minimum: 1, description: "Must be the flavor's memory for that many vCPUs" }),
    disk: Type.Integer({ minimum: 1, maximum: 1000, description: "Container disk in GB; default 10" }),
    dataCenterIds: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 50 }),
    ports: Type.Array(Port, { maxItems: 15 }),
    cmd: Strings(256),
    entrypoint: Strings(256),
    startSsh: Type.Boolean({ description: "Read and ignored: no container, no SSH" }),
    env: StringMap,
    idleTimeoutSeconds: Idle,
    maxLifetimeSeconds: Lifetime,
    labels: StringMap,
    mounts: Type.Object({ network: Type.Array(Mount, { maxItems: 1 }) }, { additionalProperties: false }),
    registry: Type.String({ minLength: 1, description: "One of your registry credentials" }),
};

/** Every field optional (the client drops its None values), but exactly one of imageName and templateId. */
export const CreateSandboxRequest = Type.Object(
  Object.fromEntries(Object.entries(createFields).map(([k, v]) => [k, Type.Optional(v)])),
  { $id: schemaId("CreateSandboxRequest"), additionalProperties: false, oneOf: [{ required: ["imageName"] }, { required: ["templateId"] }] },
);
export type CreateSandboxRequest = Partial<Static<ReturnType<typeof Type.Object<typeof createFields>>>>;

export const UpdateSandboxRequest = Type.Object(
  { idleTimeoutSeconds: Type.Optional(Idle), maxLifetimeSeconds: Type.Optional(Lifetime) },
  { $id: schemaId("UpdateSandboxRequest"), additionalProperties: false, minProperties: 1 },
);
export type UpdateSandboxRequest = Static<typeof UpdateSandboxRequest>;

export const ExtendSandboxRequest = Type.Object({ maxLifetimeSeconds: Lifetime }, { $id: schemaId("ExtendSandboxRequest"), additionalProperties: false });
export type ExtendSandboxRequest = Static<typeof ExtendSandboxRequest>;

export const ExecSandboxRequest = Type.Object(
  {
    command: Type.Array(Type.String({ maxLength: 65536 }), { minItems: 1, maxItems: 1024, description: "argv" }),
    timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
    background: Type.Optional(Type.Boolean()),
  },
  { $id: schemaId("ExecSandboxRequest"), additionalProperties: false },
);
export type ExecSandboxRequest = Static<typeof ExecSandboxRequest>;

export const SandboxView = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    state: Type.Union([Type.Literal("CREATING"), Type.Literal("RUNNING"), Type.Literal("TERMINATED")]),
    idleTimeoutSeconds: Type.Integer(),
    maxLifetimeSeconds: Type.Integer(),
    lastActivityAt: Type.String({ format: "date-time" }),
    idleExpiresAt: Type.String({ format: "date-time" }),
    expiresAt: Type.String({ format: "date-time" }),
    createdAt: Type.String({ format: "date-time" }),
    updatedAt: Type.String({ format: "date-time" }),
    startedAt: Nullable(Type.String({ format: "date-time" })),
    terminatedAt: Nullable(Type.String({ format: "date-time" })),
    terminationReason: Nullable(Type.String()),
    templateId: Nullable(Type.String()),
    imageName: Nullable(Type.String()),
    cpuFlavorId: Type.String(),
    dataCenterId: Type.String(),
    compute: Nullable(Type.Object({ vcpuCount: Type.Integer(), memoryInGb: Type.Number(), containerDiskInGb: Type.Integer(), costPerHr: Type.Number() }, { description: "null once terminated" })),
    env: Nullable(Type.Record(Type.String(), Type.String())),
    labels: Nullable(Type.Record(Type.String(), Type.String())),
    registry: Nullable(Type.String()),
    ports: Nullable(Type.Array(Port)),
    mounts: Nullable(Type.Record(Type.String(), Type.Array(Mount))),
    cmd: Nullable(Type.Array(Type.String())),
    entrypoint: Nullable(Type.Array(Type.String())),
    ssh: Type.Null({ description: "Always null: no container, no SSH" }),
  },
  { $id: schemaId("Sandbox") },
);
export const SandboxList = Type.Object({ sandboxes: Type.Array(Ref(SandboxView)) }, { $id: schemaId("SandboxList") });

export const SandboxExecResult = Type.Object(
  {
    output: Type.String(),
    error: Nullable(Type.String()),
    stdout: Type.Null(),
    stderr: Type.Null(),
    exitCode: Type.Null({ description: "null: the command was not run" }),
    durationMs: Type.Null(),
    truncated: Type.Boolean(),
  },
  { $id: schemaId("SandboxExecResult") },
);

export const sandboxSchemas: readonly TSchema[] = [CreateSandboxRequest, UpdateSandboxRequest, ExtendSandboxRequest, ExecSandboxRequest, SandboxView, SandboxList, SandboxExecResult];

export const SANDBOX_OP_SCHEMAS: Readonly<Record<string, { request?: string; responses: Readonly<Record<number, string | null>> }>> = {
  listSandboxes: { responses: { 200: "SandboxList" } },
  createSandbox: { request: "CreateSandboxRequest", responses: { 201: "Sandbox" } },
  getSandbox: { responses: { 200: "Sandbox" } },
  updateSandbox: { request: "UpdateSandboxRequest", responses: { 200: "Sandbox" } },
  extendSandbox: { request: "ExtendSandboxRequest", responses: { 200: "Sandbox" } },
  deleteSandbox: { responses: { 204: null } },
  execSandbox: { request: "ExecSandboxRequest", responses: { 200: "SandboxExecResult" } },
};
