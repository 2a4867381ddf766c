/**
 * What the suite has seen of each job, with a job of the platform model (the oracle's shadow
 * platform) stepped beside it, checked against the oracle (conformance/oracle): an observation
 * must be one of the states the oracle allows from the shadow's state, and an accepted cancel
 * or retry must answer within the set the oracle gives for that command (under the lenient
 * profile an accepted repeat that moves nothing is allowed; under strict only the emulator's
 * move). Polling sees a job only now and then, so an observation
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
import type { ShadowPlatform } from "../../../oracle/shadow-platform.ts";
import type { Health } from "../../../../sim/domain/serverless/index.ts";
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

export class JobTrace {
  /** The last status seen of each job (NONE until one is seen). */
  private readonly lastSeen = new Map<string, string>();
  readonly illegal: IllegalMove[] = [];
  readonly oracle: Oracle;
  /** The platform model's job beside each of the target's, stepped along with it. */
  private readonly shadow: ShadowPlatform;

  constructor(private readonly ctx: CheckContext) {
    this.oracle = ctx.oracle ?? platformOracle(ctx.options?.profile ?? "lenient");
    this.shadow = this.oracle.shadow(ctx.seed ?? 0);
  }

  private note(from: string, to: string): void {
    if (SPEC_EDGES.has(`${from}>${to}`)) this.ctx.exercised("job", from, to);
  }

  /** A job the target accepted, with the status its submission answered. */
  submitted(jobId: string, status: string, observed = true): void {
    const start = FINAL_STATUSES.has(status) || ACTIVE_STATUSES.has(status) ? status : "IN_QUEUE";
    this.shadow.jobSubmitted(jobId, start);
    this.lastSeen.set(jobId, observed ? start : NONE);
    if (observed) this.note(NONE, start);
  }

  /** How many jobs the trace follows (each with its shadow). */
  get size(): number {
    return this.lastSeen.size;
  }

  /** The last status seen of a job, if any. */
  last(jobId: string): string | undefined {
    const s = this.lastSeen.get(jobId);
    return s === NONE ? undefined : s;
  }

  /** The states the shadow says the job is in (one: the shadow follows what the target shows). */
  private possible(jobId: string): string[] {
    const s = this.shadow.jobStatus(jobId);
    return s === undefined || s === "(gone)" ? [] : [s];
  }

  /** The shadow's health of the job: what it adds to the endpoint's counters. */
  shadowHealth(jobId: string): Health | undefined {
    return this.shadow.jobHealth(jobId);
  }

  observed(jobId: string, status: string, exchange: Exchange): void {
    const possible = this.possible(jobId);
    if (!this.lastSeen.has(jobId) || possible.length === 0) {
      this.shadow.jobSubmitted(jobId, status);
      this.lastSeen.set(jobId, status);
      return;
    }
    const can = new Set(this.oracle.jobs.drift(possible));
    if (!can.has(status)) {
      this.illegal.push({
        jobId,
        from: possible,
        to: status,
        why: `after ${possible.join(" or ")} the spec's table allows ${[...can].join(", ")} (cancel and retry only when requested), not ${status}`,
        exchange,
      });
    }
    this.note(this.lastSeen.get(jobId)!, status);
    // The model follows the state the target chose.
    this.shadow.jobObserved(jobId, status);
    this.lastSeen.set(jobId, status);
  }

  /** A cancel the target accepted (`httpStatus`, 2xx) answering the job with `status` (the spec's answer is CANCELLED). */
  cancelled(jobId: string, status: string, exchange: Exchange, httpStatus = 200): void {
    this.commanded(jobId, "cancel", httpStatus, status, exchange);
  }

  /** A retry the target accepted answering the job with `status` (the spec's answer is IN_QUEUE). */
  retried(jobId: string, status: string, exchange: Exchange, httpStatus = 200): void {
    this.commanded(jobId, "retry", httpStatus, status, exchange);
  }

  /** Holds an answered command to the oracle's set of outcomes from the shadow's state, then sends it to the shadow and follows the answered state. */
  private commanded(jobId: string, command: JobCommand, httpStatus: number, status: string, exchange: Exchange): void {
    const possible = this.possible(jobId);
    if (!this.lastSeen.has(jobId) || possible.length === 0) return;
    const outcomes = this.oracle.jobs.command(possible, command);
    const next = nextAfter(outcomes, httpStatus);
    if (!next.has(status)) {
      const only = command === "cancel" ? "only IN_QUEUE or IN_PROGRESS jobs move to CANCELLED" : "only FAILED or TIMED_OUT jobs move back to IN_QUEUE";
      this.illegal.push({
        jobId,
        from: possible,
        to: status,
        why: `${command} was answered ${httpStatus} with the job ${status} while it was ${possible.join(" or ")}; ${only} (allowed: ${describeOutcomes(outcomes)})`,
        exchange,
      });
    }
    this.note(this.lastSeen.get(jobId)!, status);
    this.shadow.jobSent(jobId, command, httpStatus);
    this.shadow.jobObserved(jobId, status);
    this.lastSeen.set(jobId, status);
  }
}
