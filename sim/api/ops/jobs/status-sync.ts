/**
 * GET /v2/{endpoint}/status-sync/{jobId}?wait=ms: status that waits, in the shape of runsync
 * (choices.md: the official JS client polls it after a runsync whose wait elapsed). It takes the
 * same `ttl` query as status, applied when the request arrives.
 */
import type { Operation } from "../../op-context.ts";
import { validateTtlQuery, validateWaitQuery } from "../../validate/index.ts";
import { respond } from "../../types.ts";
import { failureResponse } from "./failure-response.ts";
import { invalidRequest } from "./invalid-request.ts";
import { endpointIdOf, jobIdOf } from "./job-params.ts";
import { waitForJob } from "./wait-for-job.ts";

export const jobStatusSync: Operation = (ctx) => {
  const wait = validateWaitQuery(ctx.request.query["wait"]);
  if (!wait.ok) return respond(invalidRequest(wait));
  const ttl = validateTtlQuery(ctx.request.query["ttl"]);
  if (!ttl.ok) return respond(invalidRequest(ttl));
  const endpointId = endpointIdOf(ctx);
  const jobId = jobIdOf(ctx);
  if (ttl.value !== undefined) {
    const set = ctx.platform.serverless.status(endpointId, ctx.principal.accountId, jobId, { ttlMs: ttl.value });
    if (!set.ok) return respond(failureResponse(set, { endpointId, jobId }));
  }
  return waitForJob(ctx, endpointId, jobId, wait.value);
};
