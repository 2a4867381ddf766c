/**
 * The job as the job endpoints show it: the spec's Job record built from the model's JobView,
 * with a fixed key order so that equal jobs serialise to equal bytes. The model's `retries`
 * count is not part of the record and is left out.
 */
import type { JobView } from "../../../domain/serverless/index.ts";
import type { Job } from "../../schemas/index.ts";

type MutableJob = { -readonly [K in keyof Job]: Job[K] };

/** status, webhook bodies and finished runsync answers: every field the job has at this point. */
export function jobRecord(view: JobView): Job {
  const job: MutableJob = { id: view.id, status: view.status };
  if (view.delayTime !== undefined) job.delayTime = view.delayTime;
  if (view.executionTime !== undefined) job.executionTime = view.executionTime;
  if (view.input !== undefined) job.input = view.input as Job["input"];
  if (view.output !== undefined) job.output = view.output;
  if (view.error !== undefined) job.error = view.error;
  if (view.workerId !== undefined) job.workerId = view.workerId;
  return job;
}

/** `{id, status}`: run, cancel, retry, and a runsync whose wait elapsed first (choices.md). */
export function idAndStatus(id: string, status: Job["status"]): { id: string; status: Job["status"] } {
  return { id, status };
}
