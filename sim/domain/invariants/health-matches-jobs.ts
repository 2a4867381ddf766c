/**
 * Health counters equal the jobs' states: for each endpoint, completed = visible COMPLETED jobs,
 * failed = visible FAILED + TIMED_OUT, inProgress, inQueue and retried likewise (visible = held
 * and not past expiry); workers add up (ready = idle + running, and the states sum to the
 * endpoint's workers, within [0, workersMax]).
 */
import type { ServerlessChecker, ServerlessCheckState } from "./serverless-check-state.ts";

export const healthMatchesJobs: ServerlessChecker = {
  id: "serverless.health-matches-jobs",
  title: "Health counters equal the jobs' states",
  check(state: ServerlessCheckState): string[] {
    const out: string[] = [];
    const s = state.serverless;
    if (s === undefined) return out;
    const expected = new Map<string, { completed: number; failed: number; inProgress: number; inQueue: number; retried: number }>();
    for (const e of s.endpoints) expected.set(e.endpointId, { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 });
    for (const job of s.jobs) {
      const c = expected.get(job.endpointId);
      if (c === undefined) {
        out.push(`job ${job.id} belongs to unknown endpoint ${job.endpointId}`);
        continue;
      }
      if (job.expired) continue;
      if (job.status === "COMPLETED") c.completed++;
      else if (job.status === "FAILED" || job.status === "TIMED_OUT") c.failed++;
      else if (job.status === "IN_PROGRESS") c.inProgress++;
      else if (job.status === "IN_QUEUE") c.inQueue++;
      if (job.retried) c.retried++;
    }
    for (const e of s.endpoints) {
      const want = expected.get(e.endpointId);
      for (const [name, value] of Object.entries(e.health.jobs)) {
        const w = want?.[name as keyof typeof want];
        if (w !== value) out.push(`endpoint ${e.endpointId}: health jobs.${name}=${value}, jobs say ${w}`);
      }
      const wk = e.health.workers;
      if (wk.ready !== wk.idle + wk.running) out.push(`endpoint ${e.endpointId}: ready ${wk.ready} != idle ${wk.idle} + running ${wk.running}`);
      const sum = wk.idle + wk.running + wk.initializing + wk.throttled + wk.unhealthy;
      if (sum !== e.workers) out.push(`endpoint ${e.endpointId}: worker states sum to ${sum}, endpoint has ${e.workers}`);
      if (e.workers > e.workersMax) out.push(`endpoint ${e.endpointId}: ${e.workers} workers > max ${e.workersMax}`);
      if (e.workers < e.workersMin) out.push(`endpoint ${e.endpointId}: ${e.workers} workers < min ${e.workersMin}`);
      for (const [name, value] of Object.entries(wk)) if (value < 0) out.push(`endpoint ${e.endpointId}: workers.${name}=${value}`);
    }
    return out;
  },
};
