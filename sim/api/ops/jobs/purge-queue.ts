/**
 * POST /v2/{endpoint}/purge-queue: removes the caller's jobs waiting in the queue (running jobs
 * continue) and answers `{removed, status}`. On a shared endpoint only the caller's own queued
 * jobs are removed. The route takes no body; one sent anyway is ignored.
 */
import type { Operation } from "../../op-context.ts";
import { json } from "../../json-response.ts";
import { respond } from "../../types.ts";
import { failureResponse } from "./failure-response.ts";
import { endpointIdOf } from "./job-params.ts";

export const jobPurgeQueue: Operation = (ctx) => {
  const endpointId = endpointIdOf(ctx);
  const result = ctx.platform.serverless.purgeQueue(endpointId, ctx.principal.accountId);
  if (!result.ok) return respond(failureResponse(result, { endpointId }));
  return respond(json(200, { removed: result.removed, status: result.status }));
};
