/**
 * What the suite has seen of each job, as the set of states the job may be in, checked against
 * the spec's table of job transitions. Polling sees a job only now and then, so an observation
 * is legal when the spec's moves can reach it from what was possible before: IN_QUEUE to
 * COMPLETED is fine (through IN_PROGRESS), COMPLETED to anything is not. Cancel and retry are
 * moves the suite makes itself, so they are only allowed across a cancel or retry it sent.
 * Every observed move that is one of the spec's named transitions goes to the coverage report.
 *
 * A cancel or retry answered with a final status the job already had moves nothing: repeating a
 * request (a second cancel of a CANCELLED job answering CANCELLED) is not a transition, and is
 * read as an observation. Only a job that leaves a final state without being asked breaks the table.
 */
import type { CheckContext } from "../../../check.ts";
import type { Exchange } from "../../../recorder.ts";
import { NONE } from "../../../spec-transitions.ts";
import { ACTIVE_STATUSES, FINAL_STATUSES } from "./job-body.ts";

/**
 * The moves a job makes by itself, closed transitively. The causes of FAILED and TIMED_OUT are
 * not shown in the spec, so both may follow either unfinished state.
 */
const AUTOMATIC: Readonly<Record<string, readonly string[]>> = {
  IN_QUEUE: ["IN_QUEUE", "IN_PROGRESS", "COMPLETED", "FAILED", "TIMED_OUT"],
  IN_PROGRESS: ["IN_PROGRESS", "COMPLETED", "FAILED", "TIMED_OUT"],
};

const SPEC_EDGES = new Set([
  `${NONE}>IN_QUEUE`,
  "IN_QUEUE>IN_PROGRESS",
  "IN_PROGRESS>COMPLETED",
  "IN_QUEUE>CANCELLED",
  "IN_PROGRESS>CANCELLED",
  "FAILED>IN_QUEUE",
  "TIMED_OUT>IN_QUEUE",
]);

export interface IllegalMove {
  readonly jobId: string;
  /** The states the job could have been in before. */
  readonly from: readonly string[];
  readonly to: string;
  /** What made it illegal, in words. */
  readonly why: string;
  readonly exchange: Exchange;
}

interface JobState {
  possible: Set<string>;
  last: string;
}

function reachable(possible: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const s of possible) for (const t of AUTOMATIC[s] ?? [s]) out.add(t);
  return out;
}

export class JobTrace {
  private readonly jobs = new Map<string, JobState>();
  readonly illegal: IllegalMove[] = [];

  constructor(private readonly ctx: CheckContext) {}

  private note(from: string, to: string): void {
    if (SPEC_EDGES.has(`${from}>${to}`)) this.ctx.exercised("job", from, to);
  }

  /** A job the target accepted, with the status its submission answered. */
  submitted(jobId: string, status: string, observed = true): void {
    const start = FINAL_STATUSES.has(status) || ACTIVE_STATUSES.has(status) ? status : "IN_QUEUE";
    this.jobs.set(jobId, { possible: new Set([start]), last: observed ? start : NONE });
    if (observed) this.note(NONE, start);
  }

  /** The last status seen of a job, if any. */
  last(jobId: string): string | undefined {
    const s = this.jobs.get(jobId)?.last;
    return s === NONE ? undefined : s;
  }

  observed(jobId: string, status: string, exchange: Exchange): void {
    const state = this.jobs.get(jobId);
    if (!state) {
      this.jobs.set(jobId, { possible: new Set([status]), last: status });
      return;
    }
    const can = reachable(state.possible);
    if (!can.has(status)) {
      this.illegal.push({
        jobId,
        from: [...state.possible],
        to: status,
        why: `after ${[...state.possible].join(" or ")} the spec's table allows ${[...can].join(", ")} (cancel and retry only when requested), not ${status}`,
        exchange,
      });
    }
    this.note(state.last, status);
    state.possible = new Set([status]);
    state.last = status;
  }

  /** A cancel the target accepted with this status (the spec's answer is CANCELLED). */
  cancelled(jobId: string, status: string, exchange: Exchange): void {
    const state = this.jobs.get(jobId);
    if (!state) return;
    if (this.repeat(state, status)) return this.observed(jobId, status, exchange);
    const can = reachable(state.possible);
    if (![...can].some((s) => ACTIVE_STATUSES.has(s))) {
      this.illegal.push({
        jobId,
        from: [...state.possible],
        to: status,
        why: `cancel was accepted for a job already ${[...state.possible].join(" or ")}; only IN_QUEUE or IN_PROGRESS jobs move to CANCELLED`,
        exchange,
      });
    }
    this.note(state.last, status);
    state.possible = new Set([status]);
    state.last = status;
  }

  /** Whether an answer names a final status the job may already be in: nothing moved. */
  private repeat(state: JobState, status: string): boolean {
    return FINAL_STATUSES.has(status) && reachable(state.possible).has(status);
  }

  /** A retry the target accepted with this status (the spec's answer is IN_QUEUE). */
  retried(jobId: string, status: string, exchange: Exchange): void {
    const state = this.jobs.get(jobId);
    if (!state) return;
    if (this.repeat(state, status)) return this.observed(jobId, status, exchange);
    const can = reachable(state.possible);
    if (!can.has("FAILED") && !can.has("TIMED_OUT")) {
      this.illegal.push({
        jobId,
        from: [...state.possible],
        to: status,
        why: `retry was accepted for a job ${[...state.possible].join(" or ")}; only FAILED or TIMED_OUT jobs move back to IN_QUEUE`,
        exchange,
      });
    }
    this.note(state.last, status);
    state.possible = new Set([status]);
    state.last = status;
  }
}
