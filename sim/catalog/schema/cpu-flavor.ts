/**
 * A CPU flavor: a family of CPU pod sizes. A CPU pod's memory is its vCPU count times the
 * flavor's RAM multiplier (spec: "memory is derived ... from the selected flavor's RAM
 * multiplier"); instance ids such as `cpu3c-2-4` name flavor, vCPUs and memory.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Id, IntegerEnum, Name } from "./common.ts";

/** vCPU counts must be powers of two, at least 2 (spec, Limits). */
export const VCPU_COUNTS = [2, 4, 8, 16, 32, 64, 128] as const;

export const CpuFlavorSchema = Type.Object(
  {
    id: Type.String({ pattern: "^[a-z0-9]+$" }),
    name: Name,
    /** "Compute-Optimized", "General Purpose", "Memory-Optimized". */
    group: Name,
    /** GB of RAM per vCPU: 2, 4 or 8 on the platform. */
    ramGbPerVcpu: Type.Integer({ minimum: 1 }),
    vcpuCounts: Type.Array(IntegerEnum(VCPU_COUNTS), { minItems: 1, uniqueItems: true }),
    /** USD per vCPU per hour; a pod costs vcpuCount times this. */
    pricePerVcpuHour: Type.Number({ exclusiveMinimum: 0 }),
    dataCenterIds: Type.Array(Id, { minItems: 1, uniqueItems: true }),
  },
  { additionalProperties: false, title: "CpuFlavor" },
);

export type CpuFlavorRecord = Static<typeof CpuFlavorSchema>;
