/**
 * health (spec, rule 8 and "Other job responses"): `jobs` {completed, failed, inProgress,
 * inQueue, retried} and `workers` {idle, running}, all integers, and counts that agree with what
 * the suite can see of its own jobs. Other users may share the endpoint, so only lower bounds
 * hold; the oracle computes them (conformance/oracle/health-oracle.ts) from the platform model's
 * count of each of the suite's jobs in the states it may have been in during the read. Under
 * strict, where the suite holds the clock, the counters have ceilings too; and wherever the suite
 * holds the clock (the control API), under both profiles, inQueue has an absolute ceiling: a
 * purge-queue right after a health read removes every job it counted, whoever sent them.
 */
import type { CheckContext, CheckOutcome } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { counterValue, type HealthBody, type HealthJob } from "../../oracle/health-oracle.ts";
import { schemaErrors } from "../support/schema.ts";
import { FINISH_BUDGET_MS, STEP_MS } from "./support/budgets.ts";
import { asJob, isNonNegativeInteger, isObject, show } from "./support/job-body.ts";
import { is2xx, type JobSession } from "./support/job-session.ts";
import { fail } from "./support/inputs.ts";
import { submitQueued, submitRunning } from "./support/job-states.ts";
import { scenario, violated } from "./support/with-session.ts";

const JOB_COUNTERS = ["completed", "failed", "inProgress", "inQueue", "retried"] as const;
const WORKER_COUNTERS = ["idle", "running"] as const;

function healthProblems(res: ClientResponse): string[] {
  if (!is2xx(res)) return [`status ${res.status}`];
  const problems = schemaErrors("HealthResponse", res.json);
  const body = res.json as { jobs?: Record<string, unknown>; workers?: Record<string, unknown> };
  for (const k of JOB_COUNTERS) if (isObject(body?.jobs) && !isNonNegativeInteger(body.jobs[k])) problems.push(`jobs.${k} is ${show(body.jobs[k])}, not a count`);
  for (const k of WORKER_COUNTERS) if (isObject(body?.workers) && !isNonNegativeInteger(body.workers[k])) problems.push(`workers.${k} is ${show(body.workers[k])}, not a count`);
  return problems;
}

export async function checkHealthShape(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    const res = await session.health();
    const problems = healthProblems(res);
    if (problems.length) {
      violated(session, res.exchange, `a 2xx health answer {jobs: {completed, failed, inProgress, inQueue, retried}, workers: {idle, running}}, all non-negative integers; ${problems.join("; ")}`);
    }
    return undefined;
  });
}

async function statuses(session: JobSession): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  for (const id of session.jobIds) {
    const res = await session.status(id);
    out.set(id, is2xx(res) ? asJob(res.json)?.status : undefined);
  }
  return out;
}

/**
 * The suite's jobs at one health read, for the oracle: each in the states it may have been in
 * while health was computed (those between its read just before and its read just after), with
 * its shadow. A job not read either time may have been in any state.
 */
function healthJobs(session: JobSession, before: Map<string, string | undefined>, after: Map<string, string | undefined>): HealthJob[] {
  const drift = session.trace.oracle.jobs.drift;
  return session.jobIds.map((id) => {
    const b = before.get(id);
    const a = after.get(id);
    const shadow = session.trace.shadowHealth(id);
    const possible = b === undefined || a === undefined ? [] : drift([b]).filter((s) => drift([s]).includes(a));
    return { possible, steady: b !== undefined && b === a, ...(shadow ? { shadow } : {}) };
  });
}

/**
 * Reads health between two reads of every job, and holds each counter to the oracle's bounds:
 * at least what the suite's own jobs add, and, given a baseline, at most the baseline plus the
 * most they may add.
 */
async function judgeHealth(session: JobSession, baseline?: HealthBody): Promise<void> {
  const before = await statuses(session);
  const health = await session.health();
  const after = await statuses(session);
  const problems = healthProblems(health);
  if (problems.length) violated(session, health.exchange, `a well-formed health answer; ${problems.join("; ")}`);
  const body = health.json as HealthBody;
  for (const { counter, floor, ceiling } of session.trace.oracle.health.bounds(healthJobs(session, before, after), baseline)) {
    const value = counterValue(body, counter);
    if (value < floor) {
      violated(
        session,
        health.exchange,
        `${counter} of at least ${floor}: the suite's own jobs, in the states they read just before and just after this health read, count that much in the platform model (health reports the endpoint's job and worker counts; other users' jobs may only add to it); got ${value}`,
      );
    }
    if (ceiling !== undefined && value > ceiling) {
      violated(
        session,
        health.exchange,
        `${counter} of at most ${ceiling}: its value before this check's jobs (${counterValue(baseline!, counter)}) plus the most those jobs add in the platform model, which counts each job once (strict: the emulator counts the caller's own jobs, and while the suite moves the clock nothing else adds to them); got ${value}`,
      );
    }
  }
}

/**
 * A ceiling where the suite holds the clock (nothing leaves the queue between two of its
 * requests; purge-queue empties the queue, other users' jobs too): every job health counts in the
 * queue is still there for the purge that follows, so inQueue is at most the purge's `removed`.
 * Unlike the oracle's ceilings, this one needs no baseline, so a counter off by a constant fails.
 */
async function judgeQueueCeiling(session: JobSession): Promise<void> {
  const health = await session.health();
  const purge = await session.purge();
  const inQueue = is2xx(health) && isObject(health.json) && isObject(health.json["jobs"]) ? health.json["jobs"]["inQueue"] : undefined;
  const removed = isObject(purge.json) ? purge.json["removed"] : undefined;
  if (is2xx(purge) && isNonNegativeInteger(removed) && isNonNegativeInteger(inQueue) && inQueue > removed) {
    violated(
      session,
      purge.exchange,
      `jobs.inQueue of at most ${removed}: a purge-queue sent right after the health read (the clock held still between them) removed ${removed} queued job(s), so health could have counted no more in the queue; health said ${inQueue}`,
    );
  }
}

/**
 * Health read after each step of a small history (a job completed, one failed and, under
 * strict, retried, one running, one queued, then time with nothing sent), each read held to the
 * bounds the oracle computes from the suite's jobs at that moment: a counter that goes back below
 * what the suite's own jobs make it fails, wherever in the history it happens, and under strict
 * one that counts a job twice.
 */
export async function checkHealthCounters(ctx: CheckContext): Promise<CheckOutcome | void> {
  const strict = ctx.options.profile === "strict";
  return scenario(ctx, async (session) => {
    // Ceilings need a baseline nothing else moves: under strict, where the suite moves the clock
    // (no other check runs meanwhile, and what earlier checks left is final, so it can only expire).
    const first = strict && ctx.controlApi ? await session.health() : undefined;
    const baseline = first && is2xx(first) && isObject(first.json) ? (first.json as HealthBody) : undefined;
    const finish = async (input: Record<string, unknown>) => {
      const { id } = await session.run(input);
      if (id !== undefined) await session.untilFinal(id, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
      return id;
    };
    await finish({});
    await judgeHealth(session, baseline);
    const failed = await finish(fail("cpsim health counters"));
    if (strict && failed !== undefined && session.trace.last(failed) === "FAILED") {
      if (is2xx(await session.retry(failed))) await session.untilFinal(failed, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
    }
    await judgeHealth(session, baseline);
    await submitRunning(session);
    await submitQueued(session);
    await judgeHealth(session, baseline);
    // With nothing sent, time passes (on a real-time target it passes anyway): the jobs move as the model lets them, and the bounds with them.
    if (session.virtual) await session.advance(5_000);
    await judgeHealth(session, baseline);
    // The queue ceiling holds under both profiles wherever the clock is held: other users' queued
    // jobs are in the queue health counts and in the purge that empties it alike.
    if (session.virtual) await judgeQueueCeiling(session);
    return undefined;
  });
}
