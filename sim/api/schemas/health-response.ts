/**
 * HealthResponse: job and worker counts of an endpoint. The spec lists five job counters and two
 * worker counters; the real platform adds more worker states, accepted here as optional.
 */
import { Type, type Static } from "@sinclair/typebox";
import { schemaId } from "./schema-helpers.ts";

export const HealthResponse = Type.Object(
  {
    jobs: Type.Object({
      completed: Type.Integer(),
      failed: Type.Integer(),
      inProgress: Type.Integer(),
      inQueue: Type.Integer(),
      retried: Type.Integer(),
    }),
    workers: Type.Object({
      idle: Type.Integer(),
      running: Type.Integer(),
      initializing: Type.Optional(Type.Integer()),
      ready: Type.Optional(Type.Integer()),
      throttled: Type.Optional(Type.Integer()),
      unhealthy: Type.Optional(Type.Integer()),
    }),
  },
  { $id: schemaId("HealthResponse") },
);
export type HealthResponse = Static<typeof HealthResponse>;
