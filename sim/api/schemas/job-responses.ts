/**
 * The small `{id, status}` answers of the job endpoints: run (status IN_QUEUE), cancel
 * (CANCELLED), retry (IN_QUEUE), and runsync when its wait elapses first (choices.md). The
 * status is typed as any job status; which value each operation must give is a rule
 * (`jobs.run.in-queue`, `jobs.cancel.response`, `jobs.retry.in-queue`), not a schema matter.
 */
import { Type, type Static } from "@sinclair/typebox";
import { JobStatus } from "./job-status.ts";
import { Ref, schemaId } from "./schema-helpers.ts";

const idAndStatus = () => ({ id: Type.String(), status: Ref(JobStatus) });

export const JobSubmitResponse = Type.Object(idAndStatus(), { $id: schemaId("JobSubmitResponse") });
export type JobSubmitResponse = Static<typeof JobSubmitResponse>;

export const CancelResponse = Type.Object(idAndStatus(), { $id: schemaId("CancelResponse") });
export type CancelResponse = Static<typeof CancelResponse>;

export const RetryResponse = Type.Object(idAndStatus(), { $id: schemaId("RetryResponse") });
export type RetryResponse = Static<typeof RetryResponse>;

/** runsync: the whole job when it finished in time, else `{id, status}` (choices.md). */
export const RunsyncResponse = Type.Object(
  {
    ...idAndStatus(),
    delayTime: Type.Optional(Type.Integer()),
    executionTime: Type.Optional(Type.Integer()),
    output: Type.Optional(Type.Unknown()),
    workerId: Type.Optional(Type.String()),
    error: Type.Optional(Type.String()),
  },
  { $id: schemaId("RunsyncResponse") },
);
export type RunsyncResponse = Static<typeof RunsyncResponse>;
