/** GpuConfig: the GPU of a GPU pod; CreateGpuConfig is the strict form a client sends. */
import { Type, type Static } from "@sinclair/typebox";
import { STRICT, schemaId } from "./schema-helpers.ts";

const fields = {
  id: Type.String({ description: "GPU type identifier" }),
  count: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
};

export const GpuConfig = Type.Object(fields, { $id: schemaId("GpuConfig") });
export type GpuConfig = Static<typeof GpuConfig>;

/** "`gpu` and `cpu` objects also reject unlisted properties" (CreatePodRequest rule 1). */
export const CreateGpuConfig = Type.Object(fields, { ...STRICT, $id: schemaId("CreateGpuConfig") });
export type CreateGpuConfig = Static<typeof CreateGpuConfig>;
