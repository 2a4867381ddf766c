/**
 * Job: what `status` returns. Only `id` and `status` are always there; the others appear with
 * the job's progress (delayTime once taken, executionTime and workerId once completed, input
 * while in progress). `error` is the failure message of a FAILED job (choices.md).
 */
import { Type, type Static } from "@sinclair/typebox";
import { JobStatus } from "./job-status.ts";
import { AnyObject, Ref, schemaId } from "./schema-helpers.ts";

export const Job = Type.Object(
  {
    id: Type.String(),
    status: Ref(JobStatus),
    delayTime: Type.Optional(Type.Integer({ description: "Milliseconds the job waited in the queue" })),
    executionTime: Type.Optional(Type.Integer({ description: "Milliseconds of execution" })),
    input: Type.Optional(AnyObject),
    output: Type.Optional(Type.Unknown()),
    workerId: Type.Optional(Type.String()),
    error: Type.Optional(Type.String()),
  },
  { $id: schemaId("Job") },
);
export type Job = Static<typeof Job>;
