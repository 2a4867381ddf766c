/**
 * The CPU of a CPU pod. The client sends flavor and vCPU count (CreateCpuConfig, strict); the
 * response adds the memory the service derives from the flavor's RAM multiplier (CpuConfig).
 */
import { Type, type Static } from "@sinclair/typebox";
import { STRICT, schemaId } from "./schema-helpers.ts";

const FlavorId = Type.String({ minLength: 1, description: "CPU flavor identifier, as returned by GET /v2/catalog/cpus" });
const VcpuCount = Type.Integer({ minimum: 2, description: "Must be valid for the flavor and a power of two" });

export const CreateCpuConfig = Type.Object({ id: FlavorId, vcpuCount: VcpuCount }, { ...STRICT, $id: schemaId("CreateCpuConfig") });
export type CreateCpuConfig = Static<typeof CreateCpuConfig>;

export const CpuConfig = Type.Object(
  { id: FlavorId, vcpuCount: VcpuCount, memory: Type.Integer({ minimum: 1, description: "Memory in GB; derived" }) },
  { $id: schemaId("CpuConfig") },
);
export type CpuConfig = Static<typeof CpuConfig>;
