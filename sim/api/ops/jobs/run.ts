/** POST /v2/{endpoint}/run: queue a job and answer `{id, status: "IN_QUEUE"}` at once. */
import type { Operation } from "../../op-context.ts";
import { json } from "../../json-response.ts";
import { respond } from "../../types.ts";
import { failureResponse } from "./failure-response.ts";
import { idAndStatus } from "./job-record.ts";
import { readSubmission } from "./read-submission.ts";

export const jobRun: Operation = (ctx) => {
  const submission = readSubmission(ctx, "run");
  if (!submission.ok) return respond(submission.response);
  const result = ctx.platform.serverless.submit(submission.request);
  if (!result.ok) return respond(failureResponse(result, { endpointId: submission.request.endpointId }));
  return respond(json(200, idAndStatus(result.jobId, result.status)));
};
