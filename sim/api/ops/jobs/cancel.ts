/**
 * POST /v2/{endpoint}/cancel/{jobId}: IN_QUEUE or IN_PROGRESS → CANCELLED, answered
 * `{id, status: "CANCELLED"}` at once; a job already final answers 409. The route takes no body:
 * whatever is sent (the official clients send `{}` or an empty body) is ignored, not refused.
 */
import type { Operation } from "../../op-context.ts";
import { json } from "../../json-response.ts";
import { respond } from "../../types.ts";
import { failureResponse } from "./failure-response.ts";
import { endpointIdOf, jobIdOf } from "./job-params.ts";
import { idAndStatus } from "./job-record.ts";

export const jobCancel: Operation = (ctx) => {
  const endpointId = endpointIdOf(ctx);
  const jobId = jobIdOf(ctx);
  const result = ctx.platform.serverless.cancel(endpointId, ctx.principal.accountId, jobId);
  if (!result.ok) return respond(failureResponse(result, { endpointId, jobId, action: "cancel" }));
  return respond(json(200, idAndStatus(result.jobId, result.status)));
};
