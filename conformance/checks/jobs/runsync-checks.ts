/**
 * runsync: it waits for the job and answers the whole result (spec, rule 1); `wait` bounds the
 * wait and not how long the result is kept (rule 1); and, under --profile strict, what
 * choices.md says happens when the wait elapses first and the `status-sync` route the official
 * JS client polls then.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { STEP_MS, FINISH_BUDGET_MS } from "./support/budgets.ts";
import { ACTIVE_STATUSES, asJob, has, show } from "./support/job-body.ts";
import { is2xx, type JobSession, type Submission } from "./support/job-session.ts";
import { echoInputArb, sameJson, sleep } from "./support/inputs.ts";
import { property, runsFor } from "./support/property.ts";
import { targetClock, type TargetClock } from "./support/target-clock.ts";
import { violated, withSession } from "./support/with-session.ts";

/**
 * Whether a runsync (or status-sync) that came back unfinished returned before its wait was
 * over: then it did not wait, which rule 1 forbids. Virtual time is what the session advanced
 * while the request was in flight; real time, the request's duration (read on the target's
 * clock, support/target-clock.ts) less a second of slack.
 */
function answeredEarly(session: JobSession, clock: TargetClock, sub: { res: Submission["res"] }, startedAt: number, waitMs: number): boolean {
  if (session.virtual) return session.now() - startedAt < waitMs;
  return clock.atMost(sub.res.durationMs + 1000) < waitMs;
}

export async function checkRunsyncCompleteResult(ctx: CheckContext): Promise<CheckOutcome | void> {
  const arb = fc.tuple(echoInputArb(), fc.option(fc.integer({ min: 30_000, max: 300_000 }), { nil: undefined }));
  return property(
    ctx,
    arb,
    ([input, wait]) =>
      withSession(ctx, async (session) => {
        const clock = await targetClock(ctx);
        const startedAt = session.now();
        const sub = await session.runsync(input, wait === undefined ? {} : { query: { wait } });
        const { res, job } = sub;
        const what = `runsync${wait === undefined ? "" : `?wait=${wait}`} with {input: ${show(input, 80)}} (the handler echoes at once)`;
        if (!is2xx(res) || !job) violated(session, res.exchange, `a 2xx answer carrying the job to ${what}; got ${res.status}`);
        if (ACTIVE_STATUSES.has(job.status)) {
          const waitMs = wait ?? 90_000;
          if (answeredEarly(session, clock, sub, startedAt, waitMs)) {
            violated(session, res.exchange, `${what}: runsync waits for completion (rule 1), yet it answered ${job.status} before its ${waitMs} ms wait was over${clock.note}`);
          }
          // The wait elapsed first: what then is not shown, and this run proves nothing.
          fc.pre(false);
        }
        if (job.status !== "COMPLETED") violated(session, res.exchange, `status COMPLETED in the answer to ${what}; got ${show(job.status)}`);
        if (!has(job, "output") || !sameJson(job["output"], input)) {
          violated(session, res.exchange, `the whole result in one response: output equal to the input for ${what}; got output ${show(job["output"])}`);
        }
        if (typeof job["id"] !== "string" || job["id"] === "") violated(session, res.exchange, `the job's id in the answer to ${what}`);
      }),
    { numRuns: runsFor(ctx, 5) },
  );
}

export async function checkWaitNotRetention(ctx: CheckContext): Promise<CheckOutcome | void> {
  return property(
    ctx,
    fc.integer({ min: 1_000, max: 20_000 }),
    (wait) =>
      withSession(ctx, async (session) => {
        const clock = await targetClock(ctx);
        const submittedAt = session.now();
        const { res, id } = await session.runsync({}, { query: { wait } });
        if (!is2xx(res)) violated(session, res.exchange, `a 2xx answer to runsync?wait=${wait} with {input: {}}; got ${res.status}`);
        // An unfinished answer without an id leaves nothing to follow: not shown, not judged.
        fc.pre(id !== undefined);
        const done = await session.untilFinal(id!, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
        if (!done.job) {
          violated(session, done.res.exchange, `runsync?wait=${wait}: the job and its result kept after the wait (the wait controls how long the request waits, not how long the result is kept); got ${done.res.status}`);
        }
        fc.pre(done.met);
        // The wait and two seconds more have passed on the target's clock (virtual: exactly).
        const until = Math.max(submittedAt + (session.virtual ? wait + 2_000 : clock.wallFor(wait + 2_000)), session.now());
        await session.advance(until - session.now());
        const later = await session.status(id!);
        const job = asJob(later.json);
        if (!is2xx(later) || !job || job.status !== "COMPLETED" || !has(job, "output")) {
          violated(
            session,
            later.exchange,
            `the COMPLETED job with its output still readable ${wait + 2_000} ms after a runsync?wait=${wait}${clock.note} (well within the 1 minute a runsync result is kept): wait is not retention; got ${later.status} ${show(later.json)}`,
          );
        }
      }),
    { numRuns: runsFor(ctx, 2) },
  );
}

export async function checkWaitElapsed(ctx: CheckContext): Promise<CheckOutcome | void> {
  const arb = fc.tuple(fc.integer({ min: 1_000, max: 3_000 }), fc.integer({ min: 15_000, max: 40_000 }));
  return property(
    ctx,
    arb,
    ([wait, ms]) =>
      withSession(ctx, async (session) => {
        const { res } = await session.runsync(sleep(ms), { query: { wait } });
        const body = asJob(res.json);
        const ok = res.status === 200 && body && typeof body["id"] === "string" && ACTIVE_STATUSES.has(body.status);
        if (!ok) {
          violated(
            session,
            res.exchange,
            `200 {"id", "status": "IN_QUEUE" | "IN_PROGRESS"} from runsync?wait=${wait} on a job sleeping ${ms} ms, when the wait elapses first (docs/choices.md); got ${res.status} ${show(res.json)}`,
          );
        }
      }),
    { numRuns: runsFor(ctx, 2) },
  );
}

export async function checkStatusSync(ctx: CheckContext): Promise<CheckOutcome | void> {
  return property(
    ctx,
    fc.integer({ min: 0, max: 5_000 }),
    (ms) =>
      withSession(ctx, async (session) => {
        const { res, id } = await session.run(sleep(ms));
        if (id === undefined) violated(session, res.exchange, `a job id from run, to follow with status-sync; got ${res.status}`);
        const done = await session.statusSync(id, { wait: 120_000 });
        const job = asJob(done.json);
        const expected = { slept_ms: ms };
        if (done.status !== 200 || !job || job.status !== "COMPLETED" || !sameJson(job["output"], expected) || job["id"] !== id) {
          violated(
            session,
            done.exchange,
            `status-sync/{id}?wait=120000 answers like runsync (docs/choices.md): 200 with the whole COMPLETED job, id ${id} and output ${show(expected)}; got ${done.status} ${show(done.json)}`,
          );
        }
        const long = await session.run(sleep(60_000));
        if (long.id === undefined) return;
        const early = await session.statusSync(long.id, { wait: 1_000 });
        const body = asJob(early.json);
        if (early.status !== 200 || !body || !ACTIVE_STATUSES.has(body.status) || body["id"] !== long.id) {
          violated(
            session,
            early.exchange,
            `status-sync/{id}?wait=1000 on a job sleeping 60 s answers like a runsync whose wait elapsed (docs/choices.md): 200 {id, status: IN_QUEUE | IN_PROGRESS}; got ${early.status} ${show(early.json)}`,
          );
        }
      }),
    { numRuns: runsFor(ctx, 2) },
  );
}
