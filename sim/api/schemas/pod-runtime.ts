/** PodRuntime: live utilization of a running pod; every field optional. */
import { Type, type Static } from "@sinclair/typebox";
import { Nullable, schemaId } from "./schema-helpers.ts";

const Percent = Type.Integer({ minimum: 0, maximum: 100 });

export const PodRuntime = Type.Object(
  {
    uptime: Type.Optional(Type.Integer({ description: "Seconds since the container started" })),
    gpus: Type.Optional(Type.Array(Type.Object({ util: Type.Integer(), memoryUtil: Type.Integer() }))),
    cpu: Type.Optional(Type.Object({ util: Percent })),
    memory: Type.Optional(Type.Object({ util: Percent })),
    ports: Type.Optional(
      Type.Array(
        Type.Object({
          private: Type.Integer(),
          public: Nullable(Type.Integer()),
          type: Type.String(),
          ip: Nullable(Type.String()),
        }),
      ),
    ),
  },
  { $id: schemaId("PodRuntime") },
);
export type PodRuntime = Static<typeof PodRuntime>;
