/**
 * Every job is in exactly one state: a held job appears once, an IN_QUEUE job has exactly one live
 * queue entry and no worker, an IN_PROGRESS job exactly one worker and a pending finish event, and
 * a final job neither.
 */
import type { ServerlessChecker, ServerlessCheckState } from "./serverless-check-state.ts";

export const jobSingleState: ServerlessChecker = {
  id: "serverless.job-single-state",
  title: "Every job in exactly one state",
  check(state: ServerlessCheckState): string[] {
    const out: string[] = [];
    const seen = new Set<number>();
    for (const job of state.serverless?.jobs ?? []) {
      if (seen.has(job.key)) out.push(`job ${job.id} (key ${job.key}) is held twice`);
      seen.add(job.key);
      const queued = job.status === "IN_QUEUE" ? 1 : 0;
      const running = job.status === "IN_PROGRESS" ? 1 : 0;
      if (job.queueEntries !== queued) out.push(`job ${job.id} is ${job.status} with ${job.queueEntries} live queue entries`);
      if (job.workersRunningIt !== running) out.push(`job ${job.id} is ${job.status} and ${job.workersRunningIt} workers run it`);
      if (job.finishPending !== (running === 1)) out.push(`job ${job.id} is ${job.status} and its finish event pending is ${job.finishPending}`);
    }
    return out;
  },
};
