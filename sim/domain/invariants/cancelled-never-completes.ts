/**
 * A CANCELLED job never completes: its only move is to be gone, it holds no worker and no pending
 * finish event. Stateful: remembers cancelled jobs until they are gone.
 */
import type { ServerlessChecker, ServerlessCheckState } from "./serverless-check-state.ts";

export function createCancelledNeverCompletesChecker(): ServerlessChecker {
  const cancelled = new Set<number>();
  return {
    id: "serverless.cancelled-never-completes",
    title: "A CANCELLED job never completes",
    check(state: ServerlessCheckState): string[] {
      const out: string[] = [];
      for (const t of state.transitions ?? []) {
        if (cancelled.has(t.key) && t.to !== "(gone)") out.push(`cancelled job key ${t.key} moved to ${t.to} (${t.cause})`);
        if (t.to === "CANCELLED") cancelled.add(t.key);
        if (t.to === "(gone)") cancelled.delete(t.key);
      }
      for (const job of state.serverless?.jobs ?? []) {
        if (job.status !== "CANCELLED") continue;
        if (job.finishPending) out.push(`cancelled job ${job.id} still has a pending finish event`);
        if (job.workersRunningIt > 0) out.push(`cancelled job ${job.id} still occupies a worker`);
      }
      return out;
    },
  };
}
