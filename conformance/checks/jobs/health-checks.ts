/**
 * health (spec, rule 8 and "Other job responses"): `jobs` {completed, failed, inProgress,
 * inQueue, retried} and `workers` {idle, running}, all integers, and counts that agree with what
 * the suite can see of its own jobs. Other users may share the endpoint, so only lower bounds
 * hold: a job of the suite's that reads the same state just before and just after the health
 * read was in that state when health was computed (no state comes back once left, without a
 * retry), so health's counter for that state must count it. Under strict, where the suite holds
 * the clock, inQueue has a ceiling too: a purge-queue right after removes every job it counted.
 */
import type { CheckContext, CheckOutcome } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
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

export async function checkHealthCounters(ctx: CheckContext): Promise<CheckOutcome | void> {
  const strict = ctx.options.profile === "strict";
  return scenario(ctx, async (session) => {
    const finish = async (input: Record<string, unknown>) => {
      const { id } = await session.run(input);
      if (id !== undefined) await session.untilFinal(id, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
      return id;
    };
    await finish({});
    const failed = await finish(fail("cpsim health counters"));
    let retried = false;
    if (strict && failed !== undefined && session.trace.last(failed) === "FAILED") {
      retried = is2xx(await session.retry(failed));
      if (retried) await session.untilFinal(failed, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
    }
    await submitRunning(session);
    await submitQueued(session);

    const before = await statuses(session);
    const health = await session.health();
    const after = await statuses(session);
    const problems = healthProblems(health);
    if (problems.length) violated(session, health.exchange, `a well-formed health answer; ${problems.join("; ")}`);

    const steady = (status: string) => session.jobIds.filter((id) => before.get(id) === status && after.get(id) === status).length;
    const body = health.json as { jobs: Record<string, number>; workers: Record<string, number> };
    const floors: [string, number, number][] = [
      ["jobs.completed", body.jobs["completed"] as number, steady("COMPLETED")],
      ["jobs.failed", body.jobs["failed"] as number, steady("FAILED")],
      ["jobs.inProgress", body.jobs["inProgress"] as number, steady("IN_PROGRESS")],
      ["jobs.inQueue", body.jobs["inQueue"] as number, steady("IN_QUEUE")],
    ];
    const busy = steady("IN_PROGRESS");
    if (strict) {
      floors.push(["workers.running", body.workers["running"] as number, busy]);
      if (retried && before.get(failed as string) !== undefined && after.get(failed as string) !== undefined) floors.push(["jobs.retried", body.jobs["retried"] as number, 1]);
    } else {
      floors.push(["workers.idle + workers.running", (body.workers["idle"] as number) + (body.workers["running"] as number), Math.min(busy, 1)]);
    }
    for (const [name, value, floor] of floors) {
      if (value < floor) {
        violated(
          session,
          health.exchange,
          `${name} of at least ${floor}: that many of the suite's own jobs read the matching state both just before and just after this health read (health reports the endpoint's job and worker counts); got ${value}`,
        );
      }
    }
    // A ceiling too, where the suite holds the clock (nothing leaves the queue between two of its
    // requests) and under strict (purge-queue empties the queue): every job health counted in the
    // queue is still there for the purge that follows, so inQueue is at most the purge's `removed`.
    if (strict && session.virtual) {
      const purge = await session.purge();
      const removed = isObject(purge.json) ? purge.json["removed"] : undefined;
      if (is2xx(purge) && isNonNegativeInteger(removed) && body.jobs["inQueue"]! > removed) {
        violated(
          session,
          purge.exchange,
          `jobs.inQueue of at most ${removed}: a purge-queue sent right after the health read (the clock held still between them) removed ${removed} queued job(s), so health could have counted no more in the queue; health said ${body.jobs["inQueue"]}`,
        );
      }
    }
    return undefined;
  });
}
