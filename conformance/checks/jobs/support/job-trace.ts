/**
 * What the suite has seen of each job, as the set of states the job may be in, checked against
 * the oracle (the platform model's job transition table, conformance/oracle): an observation must
 * be one of the states the oracle allows from what was possible before, and an accepted cancel
 * or retry must answer within the set the oracle gives for that command (under the lenient
 * profile an accepted repeat that moves nothing is allowed; under strict only the emulator's move). Polling sees a job only now and then, so an observation
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
import { describeOutcomes, nextAfter, type JobCommand, type Oracle } from "../../../oracle/oracle.ts";
import { platformOracle } from "../../../oracle/platform-oracle.ts";
import { NONE } from "../../../spec-transitions.ts";
import { ACTIVE_STATUSES, FINAL_STATUSES } from "./job-body.ts";

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

export class JobTrace {
  private readonly jobs = new Map<string, JobState>();
  readonly illegal: IllegalMove[] = [];
  private readonly oracle: Oracle;

  constructor(private readonly ctx: CheckContext) {
    this.oracle = ctx.oracle ?? platformOracle(ctx.options?.profile ?? "lenient");
  }

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
    const can = new Set(this.oracle.jobs.drift(state.possible));
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
    // The model follows the state the target chose.
    state.possible = new Set([status]);
    state.last = status;
  }

  /** A cancel the target accepted (`httpStatus`, 2xx) answering the job with `status` (the spec's answer is CANCELLED). */
  cancelled(jobId: string, status: string, exchange: Exchange, httpStatus = 200): void {
    this.commanded(jobId, "cancel", httpStatus, status, exchange);
  }

  /** A retry the target accepted answering the job with `status` (the spec's answer is IN_QUEUE). */
  retried(jobId: string, status: string, exchange: Exchange, httpStatus = 200): void {
    this.commanded(jobId, "retry", httpStatus, status, exchange);
  }

  /** Holds an answered command to the oracle's set of outcomes, then follows the answered state. */
  private commanded(jobId: string, command: JobCommand, httpStatus: number, status: string, exchange: Exchange): void {
    const state = this.jobs.get(jobId);
    if (!state) return;
    const outcomes = this.oracle.jobs.command(state.possible, command);
    const next = nextAfter(outcomes, httpStatus);
    if (!next.has(status)) {
      const only = command === "cancel" ? "only IN_QUEUE or IN_PROGRESS jobs move to CANCELLED" : "only FAILED or TIMED_OUT jobs move back to IN_QUEUE";
      this.illegal.push({
        jobId,
        from: [...state.possible],
        to: status,
        why: `${command} was answered ${httpStatus} with the job ${status} while it was ${[...state.possible].join(" or ")}; ${only} (allowed: ${describeOutcomes(outcomes)})`,
        exchange,
      });
    }
    this.note(state.last, status);
    state.possible = new Set([status]);
    state.last = status;
  }
}
