/**
 * Follows each job the traffic touches across exchanges with the spec's job table: IN_QUEUE →
 * IN_PROGRESS → a final state, cancel from IN_QUEUE or IN_PROGRESS, retry from FAILED or
 * TIMED_OUT (same id, previous output removed). Observations are sampled by the client, so
 * skipped states are fine; a move the table has no row for is a finding (jobs.transition-legal),
 * a COMPLETED after CANCELLED is jobs.cancel.never-completes, a job a cancel answered CANCELLED
 * and later read still IN_QUEUE (it was seen queued before the cancel) is jobs.cancel.queued, one
 * still IN_PROGRESS (seen running before it) jobs.cancel.running, output still shown by a requeued
 * retry is jobs.retry.output-removed. A health read answered 404 on an endpoint whose other paths
 * the target served under the same /v2 prefix is versioning.v2-prefix. On the client's side: reading a finished job again and
 * again (client.poll-finished-job). Only observations ordered by the traffic are compared.
 */
import { NONE, transitionKey } from "../spec-transitions.ts";
import { kept, type SeenExchange } from "./answer.ts";
import { BoundedMap } from "./bounded-map.ts";
import { verdict, type Judgement, type PassiveCheck } from "./judgement.ts";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const FINAL_JOB_STATES: ReadonlySet<string> = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);
const JOB_STATES: ReadonlySet<string> = new Set(["IN_QUEUE", "IN_PROGRESS", ...FINAL_JOB_STATES]);
const NEXT: Readonly<Record<string, readonly string[]>> = {
  IN_QUEUE: ["IN_PROGRESS", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"],
  IN_PROGRESS: ["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"],
};

interface JobSeen {
  status: string;
  exchange: SeenExchange;
  /** The retry answer that requeued the job, until an observation judged its output. */
  retried?: { exchange: SeenExchange };
  finalReads: number;
  pollFlagged: boolean;
  /** A cancel answered CANCELLED, with the status last seen before it; kept whatever the job is read as next. */
  cancelled?: { from: string | undefined; exchange: SeenExchange };
}

const operationPath = (x: SeenExchange) => x.request.path.split("/").slice(3).join("/");

export interface JobFollowerOptions {
  /** Reads of a finished job the client may make before it counts as polling forever. */
  readonly maxFinalPolls: number;
  readonly capacity?: number;
}

export function createJobFollower(exercised: (key: string) => void, options: JobFollowerOptions): PassiveCheck {
  const jobs = new BoundedMap<string, JobSeen>(options.capacity ?? 10_000);
  /** Per endpoint id, an answer that served one of its job paths (2xx). */
  const endpoints = new BoundedMap<string, SeenExchange>(1_000);
  return {
    name: "job-follower",
    rules: [
      { id: "jobs.transition-legal", side: "target" },
      { id: "jobs.cancel.never-completes", side: "target" },
      { id: "jobs.cancel.queued", side: "target" },
      { id: "jobs.cancel.running", side: "target" },
      { id: "jobs.retry.output-removed", side: "target" },
      { id: "client.poll-finished-job", side: "client" },
      { id: "versioning.v2-prefix", side: "target" },
    ],
    judge({ exchange, op }) {
      if (op.kind !== "job") return [];
      const a = exchange.answer;
      const out: Judgement[] = [];
      if (a && op.op !== "health" && a.status >= 200 && a.status < 300 && !endpoints.has(op.endpointId)) endpoints.set(op.endpointId, kept(exchange));
      const served = endpoints.get(op.endpointId);
      if (a && op.op === "health" && served && (a.status === 404 || (a.status >= 200 && a.status < 300))) {
        const problem = a.status === 404 ? `job endpoint paths carry the prefix /v2 ("job endpoint paths carry the same prefix"): /v2/${op.endpointId}/health answered 404 where /v2/${op.endpointId}/${operationPath(served)} was served at exchange #${served.seq}` : undefined;
        out.push(verdict("versioning.v2-prefix", problem, "target", problem ? [served] : undefined));
      }
      const id = op.jobId ?? (a && isObj(a.json) && typeof a.json.id === "string" ? a.json.id : undefined);
      if (id === undefined || !a) return out;
      if (a.status === 404 && op.jobId) {
        jobs.delete(id);
        return [];
      }
      const before = jobs.get(id);
      const ordered = before !== undefined && exchange.sentAt >= before.exchange.answeredAt;
      // The client's side: a read of a job whose last answer was final.
      // A stream answer's status is the stream's own: which read reports the end is the service's choice
      // (docs/conventions.md, streamReads), so a stream read still giving chunks after the job is final is
      // no poll, and only a final stream status says where the job is.
      const streamStatus = op.op === "stream" && isObj(a.json) && typeof a.json.status === "string" ? a.json.status : undefined;
      const streamFinal = streamStatus !== undefined && FINAL_JOB_STATES.has(streamStatus);
      const read = op.op === "status" || op.op === "status-sync" || (op.op === "stream" && streamFinal);
      if (read && before && ordered && FINAL_JOB_STATES.has(before.status) && !before.retried) {
        before.finalReads++;
        if (before.finalReads > options.maxFinalPolls && !before.pollFlagged) {
          before.pollFlagged = true;
          out.push({
            ruleId: "client.poll-finished-job",
            side: "client",
            problem: `reads stop once a job is final; job ${id} was ${before.status} at exchange #${before.exchange.seq} and the client read it ${before.finalReads} times more`,
            sequence: [before.exchange],
          });
        } else if (!before.pollFlagged) out.push({ ruleId: "client.poll-finished-job", side: "client" });
      }
      if (a.status < 200 || a.status >= 300 || !isObj(a.json)) return out;
      if (op.op === "stream" && !streamFinal) return out;
      const status = typeof a.json.status === "string" ? a.json.status : undefined;
      if (op.op === "retry") {
        const slim = kept(exchange);
        // A retry answered with no job state (RETRYING, say) is jobs.retry.in-queue's finding; the job is followed as requeued.
        const seen: JobSeen = { status: status !== undefined && JOB_STATES.has(status) ? status : "IN_QUEUE", exchange: slim, retried: { exchange: slim }, finalReads: 0, pollFlagged: false };
        if (before && before.status !== seen.status) exercised(transitionKey("job", before.status, seen.status));
        jobs.set(id, seen);
        return out;
      }
      // A status that is no job state is the record rules' finding (jobs.status.values, jobs.run.in-queue), not a move.
      if (status === undefined || !JOB_STATES.has(status)) return out;
      if (!before) {
        exercised(transitionKey("job", NONE, status));
        jobs.set(id, { status, exchange: kept(exchange), finalReads: 0, pollFlagged: false });
        return out;
      }
      if (!ordered) return out;
      if (before.retried && !FINAL_JOB_STATES.has(status)) {
        // conform's reading: a requeued job shows neither the previous attempt's output nor its error.
        const left = (["output", "error"] as const).filter((k) => Object.hasOwn(a.json as object, k) && (a.json as Record<string, unknown>)[k] !== null);
        const kept = left.length > 0;
        out.push(
          verdict(
            "jobs.retry.output-removed",
            kept ? `a retried job without the previous attempt's result, its output or error ("previous output removed"); job ${id} is ${status} and still shows ${left.map((k) => `${k} ${JSON.stringify((a.json as Record<string, unknown>)[k])?.slice(0, 100)}`).join(" and ")}` : undefined,
            "target",
            kept ? [before.retried.exchange] : undefined,
          ),
        );
      }
      const cancelled = before.cancelled ?? (op.op === "cancel" && status === "CANCELLED" ? { from: before.status, exchange: kept(exchange) } : undefined);
      if (status !== before.status) {
        exercised(transitionKey("job", before.status, status));
        const legal = (NEXT[before.status] ?? []).includes(status);
        // A job seen CANCELLED (its cancel through the proxy or not) never moves on; which cancel rule, only where the cancel was seen.
        const after = before.cancelled ?? (before.status === "CANCELLED" ? { from: undefined, exchange: before.exchange } : undefined);
        const sequence = after ? [after.exchange] : [before.exchange];
        if (after && status === "COMPLETED") {
          out.push(verdict("jobs.cancel.never-completes", `a cancelled job never completes; job ${id} was CANCELLED (exchange #${after.exchange.seq}) and is now COMPLETED`, "target", sequence));
        } else if (after && status === "IN_QUEUE" && after.from === "IN_QUEUE") {
          out.push(verdict("jobs.cancel.queued", `a queued job that is cancelled is removed before starting ("Queued jobs are removed before starting"); job ${id} was IN_QUEUE, its cancel answered CANCELLED (exchange #${after.exchange.seq}) and it is read IN_QUEUE again`, "target", sequence));
        } else if (after && status === "IN_PROGRESS" && after.from === "IN_PROGRESS") {
          out.push(verdict("jobs.cancel.running", `a job in progress that is cancelled is stopped ("in-progress jobs are stopped"); job ${id} was IN_PROGRESS, its cancel answered CANCELLED (exchange #${after.exchange.seq}) and it is read IN_PROGRESS again`, "target", sequence));
        } else {
          out.push(verdict("jobs.transition-legal", legal ? undefined : `a move along the spec's job table; job ${id} went from ${before.status} (exchange #${before.exchange.seq}) to ${status}`, "target", legal ? undefined : [before.exchange]));
        }
      } else if (before.status === "CANCELLED") {
        out.push({ ruleId: "jobs.cancel.never-completes", side: "target" });
        if (before.cancelled?.from === "IN_QUEUE") out.push({ ruleId: "jobs.cancel.queued", side: "target" });
        if (before.cancelled?.from === "IN_PROGRESS") out.push({ ruleId: "jobs.cancel.running", side: "target" });
      }
      const keepsRetry = before.retried && !FINAL_JOB_STATES.has(status) ? before.retried : undefined;
      jobs.set(id, {
        status,
        exchange: kept(exchange),
        finalReads: status === before.status ? before.finalReads : 0,
        pollFlagged: before.pollFlagged && status === before.status,
        ...(keepsRetry ? { retried: keepsRetry } : {}),
        ...(cancelled ? { cancelled } : {}),
      });
      return out;
    },
  };
}
