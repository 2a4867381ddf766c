/**
 * Jobs move only along the spec's status table (ALLOWED_TRANSITIONS), and each move starts from
 * the state the previous one ended in. Stateful across checks: it remembers each live job's last
 * state and forgets it when the job is gone, so its memory is bounded by the held jobs.
 */
import { ALLOWED_TRANSITIONS } from "../serverless/index.ts";
import type { ServerlessChecker, ServerlessCheckState } from "./serverless-check-state.ts";

export function createJobTransitionsChecker(): ServerlessChecker {
  const last = new Map<number, string>();
  return {
    id: "serverless.job-transitions",
    title: "Jobs move only along the spec's status table",
    check(state: ServerlessCheckState): string[] {
      const out: string[] = [];
      for (const t of state.transitions ?? []) {
        const previous = last.get(t.key) ?? "(none)";
        if (previous !== t.from) out.push(`job key ${t.key}: moved from ${t.from} but was ${previous}`);
        if (!(ALLOWED_TRANSITIONS[t.from] ?? []).includes(t.to)) out.push(`job key ${t.key}: ${t.from} → ${t.to} (${t.cause}) is not in the table`);
        if (t.to === "(gone)") last.delete(t.key);
        else last.set(t.key, t.to);
      }
      for (const job of state.serverless?.jobs ?? []) {
        const known = last.get(job.key);
        if (known !== undefined && known !== job.status) out.push(`job ${job.id}: status ${job.status}, last transition to ${known}`);
      }
      return out;
    },
  };
}
