/**
 * GET /v2/{endpoint}/stream/{jobId}: `{status, stream: [chunk, ...]}` (choices.md), the chunks
 * that became visible since the job's previous stream read, each at most 1 MB with `output` (and
 * `metrics` for text generation); the client reads until status is final.
 *
 * A handler that does not stream (the image model) answers 200 with the job's status and an empty
 * stream, not an error: the spec only says stream "works only for handlers that support
 * streaming", and the official JS client iterates `stream` on every answer and stops on a final
 * status, so a 4xx would crash it while this ends its loop cleanly. The result is read with status.
 */
import type { Operation } from "../../op-context.ts";
import { json } from "../../json-response.ts";
import { respond } from "../../types.ts";
import { failureResponse } from "./failure-response.ts";
import { endpointIdOf, jobIdOf } from "./job-params.ts";

export const jobStream: Operation = (ctx) => {
  const endpointId = endpointIdOf(ctx);
  const jobId = jobIdOf(ctx);
  const accountId = ctx.principal.accountId;
  const serverless = ctx.platform.serverless;
  const read = serverless.stream(endpointId, accountId, jobId);
  if (read.ok) return respond(json(200, { status: read.status, stream: read.stream }));
  if (read.error !== "not-streaming") return respond(failureResponse(read, { endpointId, jobId }));
  const job = serverless.status(endpointId, accountId, jobId);
  if (!job.ok) return respond(failureResponse(job, { endpointId, jobId }));
  return respond(json(200, { status: job.job.status, stream: [] }));
};
