/**
 * POST /v2/{endpoint}/retry/{jobId}: a FAILED or TIMED_OUT job goes back to IN_QUEUE with the
 * same id and its original input, its previous output removed; answered `{id, status: "IN_QUEUE"}`.
 * Any other status answers 409 (choices.md); an expired job 404. A body, if any, is ignored.
 */
import type { Operation } from "../../op-context.ts";
import { json } from "../../json-response.ts";
import { respond } from "../../types.ts";
import { failureResponse } from "./failure-response.ts";
import { endpointIdOf, jobIdOf } from "./job-params.ts";
import { idAndStatus } from "./job-record.ts";

export const jobRetry: Operation = (ctx) => {
  const endpointId = endpointIdOf(ctx);
  const jobId = jobIdOf(ctx);
  const result = ctx.platform.serverless.retry(endpointId, ctx.principal.accountId, jobId);
  if (!result.ok) return respond(failureResponse(result, { endpointId, jobId, action: "retry" }));
  return respond(json(200, idAndStatus(result.jobId, result.status)));
};
