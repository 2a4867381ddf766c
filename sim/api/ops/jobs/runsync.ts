/**
 * POST /v2/{endpoint}/runsync?wait=ms: queue a job (its result kept 1 minute after it finishes)
 * and answer with the whole job when it finishes within `wait` (1000..300000 ms, default 90000),
 * else with `{id, status}` when the wait elapses (see wait-for-job.ts). `wait` is checked before
 * the body, so a bad query never leaves a job behind.
 */
import type { Operation } from "../../op-context.ts";
import { validateWaitQuery } from "../../validate/index.ts";
import { respond } from "../../types.ts";
import { failureResponse } from "./failure-response.ts";
import { invalidRequest } from "./invalid-request.ts";
import { readSubmission } from "./read-submission.ts";
import { waitForJob } from "./wait-for-job.ts";

export const jobRunsync: Operation = (ctx) => {
  const wait = validateWaitQuery(ctx.request.query["wait"]);
  if (!wait.ok) return respond(invalidRequest(wait));
  const submission = readSubmission(ctx, "runsync");
  if (!submission.ok) return respond(submission.response);
  const result = ctx.platform.serverless.submit(submission.request);
  if (!result.ok) return respond(failureResponse(result, { endpointId: submission.request.endpointId }));
  return waitForJob(ctx, submission.request.endpointId, result.jobId, wait.value);
};
