/**
 * GET /v2/{endpoint}/health: job counts by state and worker counts. Besides the spec's `idle`
 * and `running`, `workers` carries `initializing`, `ready`, `throttled` and `unhealthy`, which
 * the official JS client reads. Keys in a fixed order, so equal health gives equal bytes.
 */
import type { Operation } from "../../op-context.ts";
import type { HealthResponse } from "../../schemas/index.ts";
import { json } from "../../json-response.ts";
import { respond } from "../../types.ts";
import { failureResponse } from "./failure-response.ts";
import { endpointIdOf } from "./job-params.ts";

export const jobHealth: Operation = (ctx) => {
  const endpointId = endpointIdOf(ctx);
  const result = ctx.platform.serverless.health(endpointId, ctx.principal.accountId);
  if (!result.ok) return respond(failureResponse(result, { endpointId }));
  const { jobs: j, workers: w } = result.health;
  const body: HealthResponse = {
    jobs: { completed: j.completed, failed: j.failed, inProgress: j.inProgress, inQueue: j.inQueue, retried: j.retried },
    workers: {
      idle: w.idle,
      running: w.running,
      initializing: w.initializing,
      ready: w.ready,
      throttled: w.throttled,
      unhealthy: w.unhealthy,
    },
  };
  return respond(json(200, body));
};
