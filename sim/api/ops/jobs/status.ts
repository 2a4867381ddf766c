/**
 * GET /v2/{endpoint}/status/{jobId}?ttl=ms: the Job record. With `ttl` the job's result expires
 * that many milliseconds after this request (after it finishes, for a job still running), as
 * the spec's "Setting ttl=6000 gives a time-to-live of 6 seconds" says.
 */
import type { Operation } from "../../op-context.ts";
import { validateTtlQuery } from "../../validate/index.ts";
import { json } from "../../json-response.ts";
import { respond } from "../../types.ts";
import { failureResponse } from "./failure-response.ts";
import { invalidRequest } from "./invalid-request.ts";
import { endpointIdOf, jobIdOf } from "./job-params.ts";
import { jobRecord } from "./job-record.ts";

export const jobStatus: Operation = (ctx) => {
  const ttl = validateTtlQuery(ctx.request.query["ttl"]);
  if (!ttl.ok) return respond(invalidRequest(ttl));
  const endpointId = endpointIdOf(ctx);
  const jobId = jobIdOf(ctx);
  const options = ttl.value === undefined ? {} : { ttlMs: ttl.value };
  const read = ctx.platform.serverless.status(endpointId, ctx.principal.accountId, jobId, options);
  if (!read.ok) return respond(failureResponse(read, { endpointId, jobId }));
  return respond(json(200, jobRecord(read.job)));
};
