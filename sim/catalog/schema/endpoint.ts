/**
 * A serverless endpoint: a queue served by autoscaled workers running one handler.
 *
 * `accountId` null marks a shared built-in (the conformance endpoint, the public models) that
 * every account may call. Public model endpoints are addressed by `slug` in place of an id.
 * Ids and slugs share the URL namespace of the emulator, so both are restricted to one
 * lowercase path segment and must avoid the REST collection names (checked by the loader).
 */
import { Type, type Static } from "@sinclair/typebox";
import { Id, Name, Nullable, StringEnum } from "./common.ts";

export const HANDLERS = ["conformance", "image-generation", "text-generation"] as const;
export const SCALER_TYPES = ["QueueDelay", "RequestCount"] as const;

/** One lowercase URL path segment. */
export const PathSegment = Type.String({ pattern: "^[a-z0-9][a-z0-9.-]*$" });

export const ColdStartSchema = Type.Object(
  {
    /** Mean cold start in milliseconds (image pull, model load). */
    mean: Type.Number({ minimum: 0 }),
    /** Coefficient of variation of the cold-start time (standard deviation / mean). */
    cv: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false, title: "ColdStart" },
);

export const EndpointSchema = Type.Object(
  {
    id: PathSegment,
    name: Name,
    accountId: Nullable(Id),
    handler: StringEnum(HANDLERS),
    /** GPU types in order of preference; a worker takes the first one in stock. */
    gpuTypeIds: Type.Array(Id, { minItems: 1, uniqueItems: true }),
    gpuCount: Type.Integer({ minimum: 1 }),
    workersMin: Type.Integer({ minimum: 0 }),
    workersMax: Type.Integer({ minimum: 1 }),
    idleTimeoutMs: Type.Integer({ minimum: 0 }),
    /** QueueDelay: add a worker when a job waited more than scalerValue seconds;
     *  RequestCount: about ceil(queue size / scalerValue) workers. */
    scalerType: StringEnum(SCALER_TYPES),
    scalerValue: Type.Integer({ minimum: 1 }),
    /** Default per-job execution timeout; choices.md bounds it to 5 s..7 days. */
    executionTimeoutMs: Type.Integer({ minimum: 5000, maximum: 604800000 }),
    coldStartMs: ColdStartSchema,
    public: Type.Boolean(),
    slug: Nullable(PathSegment),
    /** A CPU endpoint's instance sizes (made through the API): its workers take CPU stock instead of gpuTypeIds. */
    cpu: Type.Optional(Type.Array(Type.Object({ flavorId: Id, vcpuCount: Type.Integer({ minimum: 1 }), memoryInGb: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }))),
  },
  { additionalProperties: false, title: "Endpoint" },
);

export type ColdStartRecord = Static<typeof ColdStartSchema>;
export type EndpointRecord = Static<typeof EndpointSchema>;
