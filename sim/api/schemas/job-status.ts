/** JobStatus: the states of a job. */
import type { Static } from "@sinclair/typebox";
import { StringEnum, schemaId } from "./schema-helpers.ts";

export const JOB_STATUSES = ["IN_QUEUE", "IN_PROGRESS", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"] as const;

export const JobStatus = StringEnum(JOB_STATUSES, { $id: schemaId("JobStatus") });
export type JobStatus = Static<typeof JobStatus>;
