/**
 * Retention and time-to-live: results kept 30 minutes after a `run` job completes, 1 minute after
 * a `runsync` one (up to 5 with `wait`: the spec leaves the two unreconciled, so the lenient
 * profile accepts either and strict takes choices.md's 1 minute), never longer than 30 minutes
 * overall; `status?ttl=N` gives the job N ms to live; an expired job cannot be retried.
 *
 * Each check reads the job once while the rule says it must still be there and once when it must
 * be gone. On the emulator virtual time is advanced past the deadlines; elsewhere these checks
 * wait in real time, which is why they run there only with --slow, but for the runsync retention
 * and the status ttl (a minute or five, and 25 s), which also run where the target's own clock is
 * fast enough for their time to pass within 30 s (support/target-clock.ts). policy.ttl is in
 * policy-checks.ts.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { accepts, acceptedText } from "../support/statuses.ts";
import { FINISH_BUDGET_MS, STEP_MS } from "./support/budgets.ts";
import { goneText, showsGone } from "./support/gone.ts";
import { asJob, has, show } from "./support/job-body.ts";
import { is2xx, type JobSession } from "./support/job-session.ts";
import { fail, type Input } from "./support/inputs.ts";
import { submitQueued } from "./support/job-states.ts";
import { property } from "./support/property.ts";
import { sessionMsFor, targetClock, timeToPass } from "./support/target-clock.ts";
import { scenario, violated, withSession } from "./support/with-session.ts";

const MINUTE = 60_000;

/** Whether a read shows the finished job with its result still kept. */
function kept(res: ClientResponse): boolean {
  const job = is2xx(res) ? asJob(res.json) : undefined;
  return job !== undefined && (has(job, "output") || job.status === "FAILED" || job.status === "CANCELLED");
}

/** Lets time run to `at` on the session's clock (no-op if already past). */
async function advanceTo(session: JobSession, at: number): Promise<void> {
  const now = session.now();
  if (at > now) await session.advance(at - now);
}

/** Submits with run and follows the job to its end; the session time of the final read. */
async function finished(session: JobSession, input: Input): Promise<{ id: string; at: number; status?: string }> {
  const { res, id } = await session.run(input);
  if (id === undefined) violated(session, res.exchange, `a job id from run with {input: ${show(input)}}; got ${res.status}`);
  const end = await session.untilFinal(id, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
  return { id, at: session.now(), ...(end.job ? { status: end.job.status } : {}) };
}

async function expectKept(session: JobSession, id: string, what: string): Promise<void> {
  const res = await session.status(id);
  if (!kept(res)) violated(session, res.exchange, `${what}; got ${res.status} ${show(res.json)}`);
}

async function expectGone(ctx: CheckContext, session: JobSession, id: string, what: string): Promise<void> {
  const res = await session.status(id);
  if (!showsGone(ctx, res)) violated(session, res.exchange, `${what}: ${goneText(ctx)}; got ${res.status} ${show(res.json)}`);
}

export async function checkRetentionRun(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    const job = await finished(session, { marker: "retention-run" });
    if (job.status !== "COMPLETED") return ctx.skip(`the job did not complete within ${session.bound(FINISH_BUDGET_MS)}, the wait's bound (${job.status ?? "unreadable"})`);
    await advanceTo(session, job.at + 25 * MINUTE);
    await expectKept(session, job.id, "the COMPLETED run job with its output, 25 minutes after it completed (run results are kept 30 minutes after completion)");
    await advanceTo(session, job.at + 31 * MINUTE);
    await expectGone(ctx, session, job.id, "the run job's result gone 31 minutes after it completed (kept 30 minutes)");
    return undefined;
  });
}

export async function checkRetention(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    const jobs = [await finished(session, { marker: "retention" }), await finished(session, fail("cpsim retention"))];
    const queued = await submitQueued(session);
    if (queued !== undefined && is2xx(await session.cancel(queued))) jobs.push({ id: queued, at: session.now(), status: "CANCELLED" });
    const last = Math.max(...jobs.map((j) => j.at));
    await advanceTo(session, last + 31 * MINUTE);
    for (const job of jobs) {
      if (job.status === undefined) continue;
      await expectGone(ctx, session, job.id, `the ${job.status} job's input and output gone 31 minutes after it ended (inputs and outputs are not kept longer than 30 minutes)`);
    }
    return undefined;
  });
}

export async function checkRetentionRunsync(ctx: CheckContext): Promise<CheckOutcome | void> {
  const strict = ctx.options.profile === "strict";
  const limit = strict ? MINUTE : 5 * MINUTE;
  const cannot = await timeToPass(ctx, limit + 1_000);
  if (cannot !== undefined) return ctx.skip(cannot);
  const clock = await targetClock(ctx);
  return scenario(ctx, async (session) => {
    const { res, id, job } = await session.runsync({ marker: "retention-runsync" }, { query: { wait: 120_000 } });
    if (!is2xx(res) || id === undefined || job?.status !== "COMPLETED") {
      return ctx.skip(`runsync did not answer a COMPLETED job with its id (${res.status}); its retention cannot be followed`);
    }
    const doneAt = session.now();
    // On a target's fast clock, the time read may overshoot by the rate's margin: 30 s is half the minute.
    await advanceTo(session, doneAt + sessionMsFor(session, clock, 30_000));
    await expectKept(session, id, `the runsync job's result still there 30 s after it completed${clock.note} (runsync results are kept 1 minute after completion)`);
    await advanceTo(session, doneAt + sessionMsFor(session, clock, limit + 1_000));
    await expectGone(
      ctx,
      session,
      id,
      `the runsync job's result gone ${limit / 1000 + 1} s after it completed (${strict ? "kept 1 minute (docs/choices.md)" : "kept 1 minute, or up to 5 minutes with wait"})`,
    );
    return undefined;
  });
}

/** How far inside the ttl a read must be answered to say the job outlived half of it. */
const TTL_READ_MARGIN_MS = 2_000;

export async function checkStatusTtl(ctx: CheckContext): Promise<CheckOutcome | void> {
  const ttlArb = ctx.controlApi ? fc.integer({ min: 15_000, max: 600_000 }) : fc.constant(20_000);
  const cannot = await timeToPass(ctx, 25_000);
  if (cannot !== undefined) return ctx.skip(cannot);
  const clock = await targetClock(ctx);
  const wait = (session: JobSession, ms: number) => sessionMsFor(session, clock, ms);
  return property(
    ctx,
    ttlArb,
    (ttl) =>
      withSession(ctx, async (session) => {
        const { res, id } = await session.run({ marker: "ttl" });
        if (id === undefined) violated(session, res.exchange, `a job id from run; got ${res.status}`);
        const set = await session.status(id, { ttl });
        if (!is2xx(set)) violated(session, set.exchange, `a 2xx answer to status?ttl=${ttl} (a valid time-to-live); got ${set.status} ${show(set.json)}`);
        const setAt = session.now();
        const end = await session.untilFinal(id, { budgetMs: wait(session, ttl / 2), stepMs: STEP_MS });
        // The rule is about a result outliving its ttl; a job still running at half of it says nothing.
        fc.pre(end.met && end.job?.status === "COMPLETED");
        const doneAt = session.now();
        await advanceTo(session, setAt + wait(session, ttl / 2));
        const alive = await session.status(id);
        if (!kept(alive)) {
          // A read held back past the ttl (the rate limit's pacing, a slow machine) says nothing of it.
          fc.pre(session.now() - setAt < wait(session, ttl) - TTL_READ_MARGIN_MS);
          violated(session, alive.exchange, `the job still there ${ttl / 2} ms after status?ttl=${ttl} gave it ${ttl} ms to live${clock.note}; got ${alive.status} ${show(alive.json)}`);
        }
        await advanceTo(session, Math.max(setAt, doneAt) + wait(session, ttl + (session.virtual ? 1_000 : 5_000)));
        await expectGone(ctx, session, id, `the job gone once the ${ttl} ms time-to-live set by status?ttl=${ttl} is over (well before the 30-minute retention)`);
      }),
    { numRuns: ctx.controlApi ? 2 : 1 },
  );
}

export async function checkRetryExpired(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    const job = await finished(session, fail("cpsim retry after expiry"));
    if (job.status !== "FAILED") return ctx.skip(`the failing job did not end FAILED within ${session.bound(FINISH_BUDGET_MS)}, the wait's bound (${job.status ?? "unreadable"})`);
    await advanceTo(session, job.at + 31 * MINUTE);
    const res = await session.retry(job.id);
    if (!accepts(ctx, res.status)) {
      violated(session, res.exchange, `${acceptedText(ctx)} for retry of a FAILED job whose result expired 31 minutes after it failed (an expired job cannot be retried); got ${res.status} ${show(res.json)}`);
    }
    return undefined;
  });
}
