/**
 * JobSubmitRequest: the body of `run` and `runsync`. Besides `input`, choices.md names
 * `webhook`, `policy` and `s3Config`; unknown keys are rejected (400). Policy durations are
 * milliseconds: executionTimeout 5 s..7 days, ttl 10 s..7 days.
 */
import { Type, type Static } from "@sinclair/typebox";
import { AnyObject, Ref, STRICT, schemaId } from "./schema-helpers.ts";

export const SECOND_MS = 1000;
export const DAY_MS = 86_400_000;
export const EXECUTION_TIMEOUT_RANGE = { minimum: 5 * SECOND_MS, maximum: 7 * DAY_MS, default: 600_000 } as const;
export const JOB_TTL_RANGE = { minimum: 10 * SECOND_MS, maximum: 7 * DAY_MS, default: DAY_MS } as const;

export const JobPolicy = Type.Object(
  {
    executionTimeout: Type.Optional(Type.Integer({ ...EXECUTION_TIMEOUT_RANGE, description: "Milliseconds" })),
    ttl: Type.Optional(Type.Integer({ ...JOB_TTL_RANGE, description: "Milliseconds, counted from submission" })),
    lowPriority: Type.Optional(Type.Boolean()),
  },
  { ...STRICT, $id: schemaId("JobPolicy") },
);
export type JobPolicy = Static<typeof JobPolicy>;

export const JobSubmitRequest = Type.Object(
  {
    input: AnyObject,
    webhook: Type.Optional(Type.String({ format: "uri", pattern: "^https?://" })),
    policy: Type.Optional(Ref(JobPolicy)),
    s3Config: Type.Optional(AnyObject),
  },
  { ...STRICT, $id: schemaId("JobSubmitRequest") },
);
export type JobSubmitRequest = Static<typeof JobSubmitRequest>;
