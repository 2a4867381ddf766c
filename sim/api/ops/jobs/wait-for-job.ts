/**
 * The waiting half of runsync and status-sync. A job that is final already is answered at once;
 * otherwise the operation returns a wait that the transport resolves by calling `render` when the
 * job becomes final or virtual time reaches the deadline. `render` reads the job as it stands
 * then, so the answer depends on the job's state, not on which of the two came first:
 *   - final: the whole Job (status, delayTime, executionTime, output or error, workerId, id);
 *   - still IN_QUEUE or IN_PROGRESS: 200 `{id, status}` (choices.md), and the client goes on
 *     with status or status-sync;
 *   - gone meanwhile (purged, or dropped at its lifetime): 404, as status would answer.
 */
import { US_PER_MS } from "../../../core/index.ts";
import { isFinalStatus } from "../../../domain/serverless/index.ts";
import type { Serverless } from "../../../domain/serverless/index.ts";
import type { OpContext } from "../../op-context.ts";
import { json } from "../../json-response.ts";
import type { ApiOutcome, ApiResponse } from "../../types.ts";
import { respond } from "../../types.ts";
import { failureResponse } from "./failure-response.ts";
import { idAndStatus, jobRecord } from "./job-record.ts";

/** The runsync-shaped answer for the job as it stands now. */
export function renderSyncAnswer(serverless: Serverless, accountId: string, endpointId: string, jobId: string): ApiResponse {
  const read = serverless.status(endpointId, accountId, jobId);
  if (!read.ok) return failureResponse(read, { endpointId, jobId });
  const job = read.job;
  return json(200, isFinalStatus(job.status) ? jobRecord(job) : idAndStatus(job.id, job.status));
}

/** Answers now when the job is final (or gone), else parks the request until `waitMs` has passed. */
export function waitForJob(ctx: OpContext, endpointId: string, jobId: string, waitMs: number): ApiOutcome {
  const serverless = ctx.platform.serverless;
  const accountId = ctx.principal.accountId;
  const read = serverless.status(endpointId, accountId, jobId);
  if (!read.ok) return respond(failureResponse(read, { endpointId, jobId }));
  if (isFinalStatus(read.job.status)) return respond(json(200, jobRecord(read.job)));
  // The closure keeps only what it reads: never the request, whose body may be 20 MB.
  return {
    kind: "wait",
    endpointId,
    jobId,
    accountId,
    deadline: ctx.now + waitMs * US_PER_MS,
    render: () => renderSyncAnswer(serverless, accountId, endpointId, jobId),
  };
}
