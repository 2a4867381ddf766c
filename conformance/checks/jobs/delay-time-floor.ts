/**
 * jobs.delay-time from below: "Milliseconds the job waited in the queue before processing". The
 * property in job-field-checks.ts bounds delayTime from above (no job waited longer than the time
 * that passed); this scenario bounds it from below, which a delayTime in seconds, or one that
 * counts only part of the wait, breaks. The workers are held by long sleeps (submitQueued: until
 * a submission still reads IN_QUEUE), a short job is queued behind them and watched waiting for
 * a while, then the holders are cancelled so a worker takes it. Whenever the suite read it
 * IN_QUEUE, it had waited at least the time since its submission was answered; its delayTime,
 * once it has one, is at least the longest such wait (exact in virtual time, two seconds of slack
 * in real time). A target whose workers cannot all be held (submitQueued fails) says nothing here.
 */
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { FINISH_BUDGET_MS, STEP_MS } from "./support/budgets.ts";
import { asJob, has, isNonNegativeInteger, show } from "./support/job-body.ts";
import { is2xx } from "./support/job-session.ts";
import { sleep } from "./support/inputs.ts";
import { submitQueued } from "./support/job-states.ts";
import { scenario, violated } from "./support/with-session.ts";

/** How long the short job is watched waiting: long enough that seconds and milliseconds differ plainly. */
const WATCH_MS = 5_000;

/** `check` (the upper bound) after the floor, when the floor found nothing wrong. */
export function withDelayFloor(check: (ctx: CheckContext) => Promise<CheckOutcome | void>): (ctx: CheckContext) => Promise<CheckOutcome | void> {
  return async (ctx) => (await checkDelayTimeFloor(ctx)) ?? check(ctx);
}

export async function checkDelayTimeFloor(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    const holder = await submitQueued(session);
    if (holder === undefined) return undefined;
    const { id, res: submitted } = await session.run(sleep(0));
    if (id === undefined) violated(session, submitted.exchange, `a job id from run; got ${submitted.status}`);
    const answeredAt = session.now();
    let floor = 0;
    // Watch it wait: every read that still finds it IN_QUEUE raises the floor.
    while (session.now() - answeredAt < WATCH_MS) {
      const readAt = session.now();
      const res = await session.status(id);
      if (!is2xx(res) || asJob(res.json)?.status !== "IN_QUEUE") break;
      floor = readAt - answeredAt;
      await session.advance(STEP_MS);
    }
    if (floor === 0) return undefined;
    // Free the workers: every other job of the session is cancelled.
    for (const other of session.jobIds) if (other !== id) await session.cancel(other);
    const seen = await session.pollUntil(id, (job) => job !== undefined && has(job, "delayTime") && job.status !== "IN_QUEUE", { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
    if (!seen.met || !seen.job) return undefined;
    const delay = seen.job["delayTime"];
    const slack = session.virtual ? 1 : 2_000;
    if (isNonNegativeInteger(delay) && delay < floor - slack) {
      violated(
        session,
        seen.res.exchange,
        `delayTime of at least ${floor - slack} ms: the job still read IN_QUEUE ${floor} ms after its submission was answered, and delayTime is the milliseconds it waited in the queue ("${ctx.rule.spec}"); got ${show(delay)}`,
      );
    }
    return undefined;
  });
}
