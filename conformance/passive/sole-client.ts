/**
 * What the traffic can judge when it is all the job traffic the target gets (`cpsim proxy
 * --sole-client`: every job request to the target passes through the proxy, from before the
 * first one): others' jobs and others' cancels no longer explain what the traffic shows.
 * - jobs.transition-legal: a job moves to CANCELLED only by a cancel ("cancel from IN_QUEUE or
 *   IN_PROGRESS") or a purge-queue of its endpoint while it was queued; a job seen IN_QUEUE or
 *   IN_PROGRESS and then read CANCELLED, with no cancel of it and no purge of its endpoint sent
 *   since, did not move along the table.
 * - jobs.health.counters: health's `inQueue` is at most the jobs of the endpoint that may still be
 *   queued when it answered: submitted (or retried) before its answer, and not seen out of the
 *   queue (a status other than IN_QUEUE, a cancel, a 404, a purge) before it was asked.
 * - jobs.purge.count: purge-queue's `removed` is at most those same jobs.
 * Without the flag none of these is judged. The jobs followed are bounded: past the bound, counts
 * are no longer judged (a job let go may still be queued).
 */
import { kept, type SeenExchange } from "./answer.ts";
import { BoundedMap } from "./bounded-map.ts";
import { FINAL_JOB_STATES } from "./follow-jobs.ts";
import type { Judgement, PassiveCheck } from "./judgement.ts";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

interface Followed {
  readonly endpoint: string;
  /** When the request that (re)queued it was sent. */
  queuedAt: number;
  /** When the first answer showing it out of the queue was received. */
  leftAt?: number;
  /** The last status seen, and the answer that showed it. */
  status?: string;
  seen?: SeenExchange;
  /** A cancel of it was sent (whatever it answered). */
  cancelSent?: number;
}

export function createSoleClientCheck(capacity = 10_000): PassiveCheck {
  const jobs = new BoundedMap<string, Followed>(capacity);
  /** When each endpoint's last purge-queue was sent. */
  const purged = new BoundedMap<string, number>(1_000);
  let letGo = false;

  /** Jobs of `endpoint` that may still be queued when an answer sent at `sentAt` and received at `answeredAt` was made. */
  const mayBeQueued = (endpoint: string, sentAt: number, answeredAt: number): number => {
    let n = 0;
    for (const j of jobs.values()) if (j.endpoint === endpoint && j.queuedAt < answeredAt && (j.leftAt === undefined || j.leftAt > sentAt)) n++;
    return n;
  };

  /** An answer showing job `id` in `status`: a CANCELLED no cancel or purge asked for is a move the table has no row for. */
  const observe = (id: string, job: Followed, exchange: SeenExchange, status: string): Judgement[] => {
    if (status !== "IN_QUEUE") job.leftAt ??= exchange.answeredAt;
    const out: Judgement[] = [];
    const before = job.seen;
    if (status === "CANCELLED" && before && (job.status === "IN_QUEUE" || job.status === "IN_PROGRESS") && exchange.sentAt >= before.answeredAt) {
      const purge = purged.get(job.endpoint);
      const asked = (job.cancelSent !== undefined && job.cancelSent <= exchange.sentAt) || (purge !== undefined && purge >= job.queuedAt && purge <= exchange.sentAt && job.status === "IN_QUEUE");
      out.push(
        asked
          ? { ruleId: "jobs.transition-legal", side: "target" }
          : {
              ruleId: "jobs.transition-legal",
              side: "target",
              problem: `a job becomes CANCELLED only by a cancel (or a purge-queue while queued); job ${id} was ${job.status} (exchange #${before.seq}) and reads CANCELLED, with no cancel or purge sent for it (--sole-client: every job request passes through the proxy)`,
              sequence: [before],
            },
      );
    }
    if (!FINAL_JOB_STATES.has(job.status ?? "") || status !== job.status) {
      job.status = status;
      job.seen = kept(exchange);
    }
    return out;
  };

  return {
    name: "sole-client",
    rules: [
      { id: "jobs.transition-legal", side: "target" },
      { id: "jobs.health.counters", side: "target" },
      { id: "jobs.purge.count", side: "target" },
    ],
    judge({ exchange, op }) {
      const a = exchange.answer;
      if (op.kind !== "job" || !a) return [];
      const ok = a.status >= 200 && a.status < 300;
      const body = ok && !a.truncated && isObj(a.json) ? a.json : undefined;
      const endpoint = op.endpointId;
      if (op.op === "purge-queue") {
        purged.set(endpoint, exchange.sentAt);
        const removed = body?.removed;
        const out: Judgement[] = [];
        if (typeof removed === "number" && !letGo) {
          const most = mayBeQueued(endpoint, exchange.sentAt, exchange.answeredAt);
          out.push(
            removed <= most
              ? { ruleId: "jobs.purge.count", side: "target" }
              : { ruleId: "jobs.purge.count", side: "target", problem: `\`removed\` is the number of queued jobs purge-queue removed; at most ${most} of endpoint ${endpoint}'s jobs could still be queued (--sole-client: every job request passes through the proxy), and it answered removed ${removed}` },
          );
        }
        if (ok) for (const j of jobs.values()) if (j.endpoint === endpoint && j.queuedAt < exchange.sentAt && j.leftAt === undefined) j.leftAt = exchange.answeredAt;
        return out;
      }
      if (op.op === "health") {
        const counted = isObj(body?.jobs) ? (body.jobs as Record<string, unknown>).inQueue : undefined;
        if (typeof counted !== "number" || letGo) return [];
        const most = mayBeQueued(endpoint, exchange.sentAt, exchange.answeredAt);
        return [
          counted <= most
            ? { ruleId: "jobs.health.counters", side: "target" }
            : { ruleId: "jobs.health.counters", side: "target", problem: `health's inQueue counts the endpoint's queued jobs; at most ${most} of endpoint ${endpoint}'s jobs could be queued when it answered (--sole-client: every job request passes through the proxy), and it answered inQueue ${counted}` },
        ];
      }
      if (op.op === "run" || op.op === "runsync") {
        if (body && typeof body.id === "string") {
          if (jobs.size >= jobs.capacity && !jobs.has(body.id)) letGo = true;
          const job: Followed = { endpoint, queuedAt: exchange.sentAt };
          jobs.set(body.id, job);
          if (typeof body.status === "string") observe(body.id, job, exchange, body.status);
        }
        return [];
      }
      const id = op.jobId;
      const job = id === undefined ? undefined : jobs.get(id);
      if (id === undefined || job === undefined) return [];
      if (op.op === "cancel") job.cancelSent ??= exchange.sentAt;
      if (op.op === "retry" && ok) {
        job.queuedAt = exchange.sentAt;
        job.leftAt = undefined;
        job.status = undefined;
        return [];
      }
      if (a.status === 404 || (ok && op.op === "cancel")) job.leftAt ??= exchange.answeredAt;
      const status = typeof body?.status === "string" ? body.status : undefined;
      if (status === undefined) return [];
      return observe(id, job, exchange, status);
    },
  };
}
