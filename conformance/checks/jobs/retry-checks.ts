/**
 * retry (spec, rule 6 and the status table): only a FAILED or TIMED_OUT job can be retried; it
 * keeps its id, goes back to IN_QUEUE (the answer is `{id, status: "IN_QUEUE"}`), runs again on
 * its original input, and its previous output is removed. A job that fails by its handler (op
 * fail) fails again on retry with the same message, which is how the original input shows.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { SETUP_NOT_REACHED } from "../../../reports/conformance-report.ts";
import { acceptsServed, acceptedText } from "../support/statuses.ts";
import { schemaErrors } from "../support/schema.ts";
import { FINISH_BUDGET_MS, STEP_MS } from "./support/budgets.ts";
import { FINAL_STATUSES, asJob, has, isFinal, show } from "./support/job-body.ts";
import { is2xx, type JobSession } from "./support/job-session.ts";
import { fail, failMessageArb, sameJson, sleep, type Input } from "./support/inputs.ts";
import { stateAtSend, submitQueued, submitRunning } from "./support/job-states.ts";
import { property, runsFor } from "./support/property.ts";
import { scenario, violated, withSession } from "./support/with-session.ts";

/** A job that failed: its id and input, or undefined when the target did not fail it. */
async function failedJob(session: JobSession, message: string): Promise<{ id: string; input: Input } | undefined> {
  const input = fail(message);
  const { res, id } = await session.run(input);
  if (id === undefined) violated(session, res.exchange, `a job id from run with {input: ${show(input)}}; got ${res.status}`);
  const done = await session.untilFinal(id, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
  return done.job?.status === "FAILED" ? { id, input } : undefined;
}

/** A property over failure messages: each run fails a job and hands it to `body`. */
function retryProperty(ctx: CheckContext, body: (session: JobSession, job: { id: string; input: Input; message: string }) => Promise<void>) {
  return property(
    ctx,
    failMessageArb(),
    (message) =>
      withSession(ctx, async (session) => {
        const job = await failedJob(session, message);
        // A handler that raised must leave the job FAILED; if this target did not, another rule says so.
        fc.pre(job !== undefined);
        await body(session, { ...job!, message });
      }),
    { numRuns: runsFor(ctx, 2) },
  );
}

export async function checkRetryOnlyFailed(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    // The states a retry was judged in: none, and the rule was not judged at all.
    const judged: string[] = [];
    const refuse = async (id: string, seen: string) => {
      // Judged against the status read right before the retry: a job seen queued may have run and
      // failed since (then a retry is legal, and this case judges nothing).
      const state = FINAL_STATUSES.has(seen) ? seen : ((await stateAtSend(session, id)) ?? seen);
      if (state === "FAILED" || state === "TIMED_OUT") return;
      const res = await session.retry(id);
      judged.push(state);
      // Lenient reading: a retry answered with the job's own final status moved nothing (an
      // idempotent answer that keeps "retry works only for FAILED or TIMED_OUT").
      if (ctx.options.profile === "lenient" && is2xx(res) && asJob(res.json)?.status === state && FINAL_STATUSES.has(state)) return;
      if (!(await acceptsServed(ctx, res))) {
        violated(session, res.exchange, `${acceptedText(ctx)} for retry of a ${state} job: retry works only for FAILED or TIMED_OUT jobs; got ${res.status} ${show(res.json)}`);
      }
    };
    const { id: done } = await session.run({});
    if (done !== undefined) {
      const end = await session.untilFinal(done, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
      if (end.job?.status === "COMPLETED") {
        await refuse(done, "COMPLETED");
        const after = await session.status(done);
        const job = asJob(after.json);
        if (!is2xx(after) || job?.status !== "COMPLETED") {
          violated(session, after.exchange, `a COMPLETED job left COMPLETED by a refused retry; got ${after.status} ${show(after.json)}`);
        }
      }
    }
    // In real time a worker may take the queued job (or the running one may end) between the read
    // and the retry, and the retry is then judged in another state: the set-up is tried again, up
    // to three times, until a retry was sent to a job still in that state.
    const tries = session.virtual ? 1 : 3;
    let queued: string | undefined;
    for (let attempt = 0; attempt < tries && !judged.includes("IN_QUEUE"); attempt++) {
      const id = await submitQueued(session);
      if (id === undefined) continue;
      queued ??= id;
      await refuse(id, "IN_QUEUE");
    }
    let running: string | undefined;
    for (let attempt = 0; attempt < tries && !judged.includes("IN_PROGRESS"); attempt++) {
      const id = session.jobIds.find((j) => session.trace.last(j) === "IN_PROGRESS") ?? (await submitRunning(session));
      if (id === undefined) continue;
      running ??= id;
      await refuse(id, "IN_PROGRESS");
    }
    const victim = queued ?? running;
    if (victim !== undefined) {
      const cancel = await session.cancel(victim);
      if (is2xx(cancel)) await refuse(victim, "CANCELLED");
    }
    if (judged.length === 0) {
      const states = "no job reached a state to retry it in (COMPLETED, IN_QUEUE, IN_PROGRESS or CANCELLED)";
      // No job made at all is the target's doing (no run route, every submission refused), not a set-up that was outrun.
      if (session.jobIds.length === 0) return ctx.skip(`nothing was judged: ${states}`);
      return ctx.skip(`${SETUP_NOT_REACHED}${tries > 1 ? ` in ${tries} tries` : ""}: ${states}`);
    }
    return undefined;
  });
}

export async function checkRetrySameId(ctx: CheckContext): Promise<CheckOutcome | void> {
  return retryProperty(ctx, async (session, job) => {
    const res = await session.retry(job.id);
    const body = asJob(res.json);
    if (!is2xx(res) || body?.["id"] !== job.id) {
      violated(session, res.exchange, `a 2xx answer naming the same job id ${job.id} for retry of a FAILED job (retry keeps the job id); got ${res.status} ${show(res.json)}`);
    }
    const read = await session.status(job.id);
    if (!is2xx(read) || asJob(read.json)?.["id"] !== job.id) {
      violated(session, read.exchange, `the retried job readable under its id ${job.id}; got ${read.status} ${show(read.json)}`);
    }
  });
}

export async function checkRetryInQueue(ctx: CheckContext): Promise<CheckOutcome | void> {
  const failed = await retryProperty(ctx, async (session, job) => {
    const res = await session.retry(job.id);
    const errors = is2xx(res) ? schemaErrors("RetryResponse", res.json) : [];
    const body = asJob(res.json);
    if (!is2xx(res) || errors.length || body?.status !== "IN_QUEUE") {
      violated(session, res.exchange, `a 2xx {id, status: "IN_QUEUE"} for retry of a FAILED job${errors.length ? ` (${errors.join("; ")})` : ""}; got ${res.status} ${show(res.json)}`);
    }
  });
  if (failed) return failed;
  // TIMED_OUT needs an execution timeout, which only choices.md's `policy` sets: tried where it
  // costs no real time (or under strict), and judged only if the target timed the job out.
  if (!ctx.controlApi && ctx.options.profile !== "strict") return undefined;
  return scenario(ctx, async (session) => {
    const { id } = await session.run(sleep(30_000), { policy: { executionTimeout: 5_000 } });
    if (id === undefined) return undefined;
    const end = await session.untilFinal(id, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
    if (end.job?.status !== "TIMED_OUT") return undefined;
    const res = await session.retry(id);
    if (!is2xx(res) || asJob(res.json)?.status !== "IN_QUEUE") {
      violated(session, res.exchange, `a 2xx {id, status: "IN_QUEUE"} for retry of a TIMED_OUT job; got ${res.status} ${show(res.json)}`);
    }
    return undefined;
  });
}

export async function checkRetryOriginalInput(ctx: CheckContext): Promise<CheckOutcome | void> {
  const strict = ctx.options.profile === "strict";
  return retryProperty(ctx, async (session, job) => {
    const res = await session.retry(job.id);
    if (!is2xx(res)) violated(session, res.exchange, `a 2xx answer to retry of a FAILED job; got ${res.status}`);
    await session.pollUntil(
      job.id,
      (body, answer) => {
        if (!body) violated(session, answer.exchange, `the retried job readable until it ends; got ${answer.status}`);
        if (has(body, "input") && !sameJson(body["input"], job.input)) {
          violated(session, answer.exchange, `the retried job's echoed input equal to the original ${show(job.input)}; got ${show(body["input"])}`);
        }
        if (!isFinal(body.status)) return false;
        const error = body["error"];
        if (body.status !== "FAILED" || (strict && (typeof error !== "string" || !error.includes(job.message)))) {
          violated(
            session,
            answer.exchange,
            `the retried job failing again${strict ? ` with an error containing ${show(job.message)}` : ""}: requeued with its original input ${show(job.input)}, the handler raises the same error; got ${show(body)}`,
          );
        }
        return true;
      },
      { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS },
    );
  });
}

/**
 * The previous attempt's result goes: its output, and for a FAILED job (which has no output, its
 * handler raised) the error that is its result. Both profiles: a requeued job still showing the
 * last attempt's error reads as if it had failed again.
 *
 * In real time a free worker takes the retried job at once and it may fail again before the
 * read, which then judges nothing (issue 31 item 6): so every worker is held first (long sleeps
 * until one stays queued, as for a queued job), the retried job waits behind them while it is
 * read, and the holders are cancelled after. A read that still finds the job final (the workers
 * could not be held) is tried again, up to three times, and a run that judged nothing says so.
 */
export async function checkRetryOutputRemoved(ctx: CheckContext): Promise<CheckOutcome | void> {
  let judged = 0;
  let runs = 0;
  const failed = await retryProperty(ctx, async (session, job) => {
    runs++;
    for (let attempt = 0; attempt < (session.virtual ? 1 : 3); attempt++) {
      const holders = session.virtual ? [] : await holdWorkers(session);
      const res = await session.retry(job.id);
      if (!is2xx(res)) violated(session, res.exchange, `a 2xx answer to retry of a FAILED job; got ${res.status}`);
      const read = await session.status(job.id);
      for (const h of holders) await session.cancel(h);
      const body = asJob(read.json);
      if (!is2xx(read) || !body) violated(session, read.exchange, `the retried job readable; got ${read.status}`);
      if (isFinal(body.status)) continue;
      judged++;
      if (has(body, "output") || has(body, "error")) {
        violated(session, read.exchange, `a requeued job without the previous attempt's result, its output or error (retry removes previous output); got ${show(body)}`);
      }
      return;
    }
  });
  if (failed) return failed;
  if (runs > 0 && judged === 0) return ctx.skip(`${SETUP_NOT_REACHED}: every retried job was final again before it could be read (its workers could not be held)`);
  return undefined;
}

/** Holds every worker of the endpoint with long sleeps, until one more would queue; their ids (none when that did not come about). */
async function holdWorkers(session: JobSession): Promise<string[]> {
  const before = new Set(session.jobIds);
  const queued = await submitQueued(session);
  const mine = session.jobIds.filter((id) => !before.has(id));
  if (queued !== undefined) return mine;
  for (const id of mine) await session.cancel(id);
  return [];
}
