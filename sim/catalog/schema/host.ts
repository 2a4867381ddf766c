/**
 * A host machine: GPU hosts carry GPUs of one type; CPU hosts serve CPU pods of some flavors.
 *
 * The two kinds share a list and are told apart by `kind`. The union is written as `oneOf` with
 * ajv's `discriminator` so that a bad GPU host is checked only against the GPU shape and the
 * loader reports its real fault, not one failure per branch.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Cloud, CudaVersion, Id, Nullable } from "./common.ts";

export const GpuHostSchema = Type.Object(
  {
    id: Id,
    kind: Type.Literal("gpu"),
    dataCenterId: Id,
    cloud: Cloud,
    gpuTypeId: Id,
    gpuCount: Type.Integer({ minimum: 1 }),
    /** The host driver's CUDA version; null on AMD hosts, which run ROCm. */
    cudaVersion: Nullable(CudaVersion),
    vcpuCount: Type.Integer({ minimum: 1 }),
    memoryInGb: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false, title: "GpuHost" },
);

export const CpuHostSchema = Type.Object(
  {
    id: Id,
    kind: Type.Literal("cpu"),
    dataCenterId: Id,
    cloud: Cloud,
    /** The CPU flavors whose pods this host can run. */
    cpuFlavorIds: Type.Array(Id, { minItems: 1, uniqueItems: true }),
    vcpuCount: Type.Integer({ minimum: 1 }),
    memoryInGb: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false, title: "CpuHost" },
);

export type GpuHostRecord = Static<typeof GpuHostSchema>;
export type CpuHostRecord = Static<typeof CpuHostSchema>;

export const HostSchema = Type.Unsafe<GpuHostRecord | CpuHostRecord>({
  type: "object",
  title: "Host",
  // ajv's strict mode wants every required property declared; the branches refine it.
  properties: { kind: { type: "string", enum: ["gpu", "cpu"] } },
  required: ["kind"],
  discriminator: { propertyName: "kind" },
  oneOf: [GpuHostSchema, CpuHostSchema],
});

export type HostRecord = GpuHostRecord | CpuHostRecord;
