/**
 * GraphQL records. A GraphQL answer holds only the fields the query selected, so every field is
 * optional here; which fields each operation must offer is a rule (`graphql.*.fields`). Types and
 * enums are enforced as the spec states them.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Nullable, NullableRef, Ref, StringEnum, schemaId } from "./schema-helpers.ts";

export const STOCK_STATUSES = ["High", "Medium", "Low", "None"] as const;
export const StockStatus = StringEnum(STOCK_STATUSES, { $id: schemaId("StockStatus"), description: "Low: very few GPUs available" });
export type StockStatus = Static<typeof StockStatus>;

/** `KEY=value`: a name without `=`, then `=`, then anything. */
export const GRAPHQL_ENV_PATTERN = "^[^=]+=";

export const GraphqlPodRuntime = Type.Object(
  {
    uptimeInSeconds: Type.Optional(Nullable(Type.Integer())),
    ports: Type.Optional(
      Nullable(
        Type.Array(
          Type.Object({
            ip: Type.Optional(Nullable(Type.String())),
            isIpPublic: Type.Optional(Type.Boolean()),
            privatePort: Type.Optional(Type.Integer()),
            publicPort: Type.Optional(Nullable(Type.Integer())),
            type: Type.Optional(Type.String()),
          }),
        ),
      ),
    ),
    gpus: Type.Optional(
      Nullable(
        Type.Array(
          Type.Object({
            id: Type.Optional(Type.String()),
            gpuUtilPercent: Type.Optional(Type.Number()),
            memoryUtilPercent: Type.Optional(Type.Number()),
          }),
        ),
      ),
    ),
    container: Type.Optional(
      Nullable(Type.Object({ cpuPercent: Type.Optional(Type.Number()), memoryPercent: Type.Optional(Type.Number()) })),
    ),
  },
  { $id: schemaId("GraphqlPodRuntime") },
);
export type GraphqlPodRuntime = Static<typeof GraphqlPodRuntime>;

export const GraphqlPod = Type.Object(
  {
    id: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    imageName: Type.Optional(Type.String()),
    env: Type.Optional(Type.Array(Type.String({ pattern: GRAPHQL_ENV_PATTERN }), { description: "KEY=value strings" })),
    machineId: Type.Optional(Nullable(Type.String())),
    machine: Type.Optional(Nullable(Type.Object({ podHostId: Type.Optional(Nullable(Type.String())) }))),
    desiredStatus: Type.Optional(Type.String()),
    runtime: Type.Optional(NullableRef(GraphqlPodRuntime)),
  },
  { $id: schemaId("GraphqlPod") },
);
export type GraphqlPod = Static<typeof GraphqlPod>;

export const GraphqlLowestPrice = Type.Object(
  {
    // GraphQL fields are nullable unless the schema says otherwise: a price is null where the
    // asked cloud does not offer the type.
    uninterruptablePrice: Type.Optional(Nullable(Type.Number())),
    minimumBidPrice: Type.Optional(Nullable(Type.Number())),
    stockStatus: Type.Optional(Ref(StockStatus)),
    availableGpuCounts: Type.Optional(Type.Array(Type.Integer())),
  },
  { $id: schemaId("GraphqlLowestPrice") },
);
export type GraphqlLowestPrice = Static<typeof GraphqlLowestPrice>;

export const GraphqlGpuType = Type.Object(
  {
    id: Type.Optional(Type.String()),
    displayName: Type.Optional(Type.String()),
    memoryInGb: Type.Optional(Type.Number()),
    secureCloud: Type.Optional(Type.Boolean()),
    communityCloud: Type.Optional(Type.Boolean()),
    lowestPrice: Type.Optional(NullableRef(GraphqlLowestPrice)),
  },
  { $id: schemaId("GraphqlGpuType") },
);
export type GraphqlGpuType = Static<typeof GraphqlGpuType>;

/** A successful answer: `{data: {...}}`. */
export const GraphqlDataEnvelope = Type.Object({ data: Type.Unsafe<Record<string, unknown>>({ type: "object" }) }, { $id: schemaId("GraphqlDataEnvelope") });
export type GraphqlDataEnvelope = Static<typeof GraphqlDataEnvelope>;

/** An error answer in the standard GraphQL envelope (choices.md). */
export const GraphqlErrorEnvelope = Type.Object(
  {
    errors: Type.Array(
      Type.Object({
        message: Type.String(),
        extensions: Type.Optional(Type.Object({ code: Type.Optional(Type.String()) })),
      }),
      { minItems: 1 },
    ),
  },
  { $id: schemaId("GraphqlErrorEnvelope") },
);
export type GraphqlErrorEnvelope = Static<typeof GraphqlErrorEnvelope>;
