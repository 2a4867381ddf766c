/**
 * The job-endpoint operations (`/v2/{endpointId}/...`, an endpoint id or a public model slug),
 * keyed by the route table's `op` names. Each validates, calls the serverless model and renders.
 */
import type { OperationTable } from "../../op-context.ts";
import { jobCancel } from "./cancel.ts";
import { jobHealth } from "./health.ts";
import { withLoadBalancedRefusal } from "./load-balanced.ts";
import { jobPurgeQueue } from "./purge-queue.ts";
import { jobRetry } from "./retry.ts";
import { jobRun } from "./run.ts";
import { jobRunsync } from "./runsync.ts";
import { jobStatusSync } from "./status-sync.ts";
import { jobStatus } from "./status.ts";
import { jobStream } from "./stream.ts";

export const jobOperations: OperationTable = withLoadBalancedRefusal({
  jobRun,
  jobRunsync,
  jobStatus,
  jobStatusSync,
  jobStream,
  jobCancel,
  jobRetry,
  jobPurgeQueue,
  jobHealth,
});

export { webhookBody } from "./webhook-body.ts";
export { jobRecord } from "./job-record.ts";
