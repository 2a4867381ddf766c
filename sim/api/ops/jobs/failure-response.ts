/**
 * The problem+json answer for each typed failure of the serverless model. Another account's
 * private endpoint answers 404 exactly like an unknown one: a caller cannot learn which endpoint
 * ids exist elsewhere (the same rule as for another account's pods). Job lookups already fold
 * "unknown", "another account's" and "expired" into one not-found in the model.
 */
import type { Failure } from "../../../domain/serverless/index.ts";
import { problem } from "../../problem.ts";
import type { ApiResponse } from "../../types.ts";

export interface FailureSubject {
  readonly endpointId: string;
  readonly jobId?: string;
  /** What the caller tried, for conflict details: "cancel" or "retry". */
  readonly action?: "cancel" | "retry";
}

export function unknownEndpoint(endpointId: string): ApiResponse {
  return problem(
    404,
    `No endpoint ${JSON.stringify(endpointId)} is available to this API key. Use the id of one of your endpoints (GET /v2/endpoints) or a public model slug.`,
  );
}

export function unknownJob(endpointId: string, jobId: string): ApiResponse {
  return problem(
    404,
    `No job ${JSON.stringify(jobId)} on endpoint ${endpointId}: the id is unknown, or the job may have expired after its retention ` +
      "(results are kept 30 minutes after a run job finishes, 1 minute after a runsync job, or as long as the ttl set on it). Submit the job again with run.",
  );
}

function conflictDetail(f: Failure, s: FailureSubject): string {
  const job = `Job ${JSON.stringify(s.jobId ?? "")}`;
  const status = f.status ?? "in a state that does not allow this";
  if (s.action === "cancel") {
    return `${job} is ${status}, a final state, so it cannot be cancelled; only IN_QUEUE or IN_PROGRESS jobs can be.`;
  }
  if (s.action === "retry") {
    const why = f.status === "IN_QUEUE" || f.status === "IN_PROGRESS" ? "; it has not finished yet" : "";
    return `${job} is ${status}${why}. Only FAILED or TIMED_OUT jobs can be retried; submit a new job with run to run it again.`;
  }
  return `${job} is ${status}: ${f.message}.`;
}

export function failureResponse(f: Failure, s: FailureSubject): ApiResponse {
  switch (f.error) {
    case "unknown-endpoint":
    case "forbidden":
      return unknownEndpoint(s.endpointId);
    case "not-found":
      return unknownJob(s.endpointId, s.jobId ?? "");
    case "conflict":
    case "already-final":
      return problem(409, conflictDetail(f, s));
    case "not-streaming":
      return problem(400, `The handler of endpoint ${s.endpointId} does not stream; read the job's result with status instead.`);
    case "too-many-listeners":
      return problem(503, `Too many requests are already waiting for job ${JSON.stringify(s.jobId ?? "")}; poll status instead, or try again shortly.`);
    case "over-budget":
      return problem(503, `${f.message}.`, { headers: { "retry-after": "60" } });
    default: {
      const unreachable: never = f.error;
      return problem(500, `Unexpected model failure ${String(unreachable)}: ${f.message}`);
    }
  }
}
