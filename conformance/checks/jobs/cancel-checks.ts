/**
 * cancel (spec, "Job status"): a queued job is removed before it starts, a job in progress is
 * stopped, the answer is `{id, status: "CANCELLED"}` at once, and a cancelled job never
 * completes afterwards. After a cancel the job may read CANCELLED or be gone (a 4xx): the spec
 * says queued jobs are "removed", and does not say how a removed job reads.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { SETUP_NOT_REACHED } from "../../../reports/conformance-report.ts";
import { schemaErrors } from "../support/schema.ts";
import { asJob, show } from "./support/job-body.ts";
import { is2xx, type JobSession } from "./support/job-session.ts";
import { sleep } from "./support/inputs.ts";
import { holdMs, stateAtSend, submitQueued, submitRunning, submitRunningAt } from "./support/job-states.ts";
import { targetClock } from "./support/target-clock.ts";
import { pickupMs, settleMs } from "./support/target-timings.ts";
import { DEFAULT_MAX_PAUSE_MS, FIRST_PAUSE_MS } from "../support/poll.ts";
import { waitIsOver } from "../support/time.ts";
import { property, runsFor } from "./support/property.ts";
import { scenario, violated, withSession } from "./support/with-session.ts";
import { START_BUDGET_MS } from "./support/budgets.ts";

/** Whether a read after a cancel is acceptable: CANCELLED, or the job gone. */
function cancelledOrGone(res: ClientResponse): boolean {
  if (res.status >= 400 && res.status < 500) return true;
  return is2xx(res) && asJob(res.json)?.status === "CANCELLED";
}

/**
 * Watches a cancelled job while the time it would have needed passes: every read must show it
 * CANCELLED or gone. Other jobs of the session are cancelled first, so that a worker is free to
 * take the job if the target kept it. In real time the watch lasts until `untilMs` (session
 * time): past the moment a cancel that did not take would show (the handler's end, or a worker's
 * pick-up of a job kept in the queue), from the timings measured in this run; reads every 100 ms
 * to 2 s, the last one after that moment.
 */
async function watchCancelled(session: JobSession, id: string, jobMs: number, expected: string, untilMs: number): Promise<void> {
  for (const other of session.jobIds) if (other !== id) await session.cancel(other);
  const check = async () => {
    const res = await session.status(id);
    if (!cancelledOrGone(res)) violated(session, res.exchange, `${expected}; got ${res.status} ${show(res.json)}`);
  };
  if (session.virtual) {
    const span = jobMs + 10_000;
    const steps = 3;
    for (let i = 0; i <= steps; i++) {
      await check();
      if (i < steps) await session.advance(span / steps);
    }
    return;
  }
  for (let step = FIRST_PAUSE_MS; ; step = Math.min(DEFAULT_MAX_PAUSE_MS, Math.round(step * 1.5))) {
    await check();
    const left = untilMs - session.now();
    if (left <= 0 || waitIsOver(session.ctx)) return;
    await session.advance(Math.min(step, left));
  }
}

/**
 * In real time, when a cancel that did not take would have shown by (session time), from `from`:
 * the later of the handler's end (`handlerMs` of the target's time, on its clock) and a worker's
 * pick-up of a job kept in the queue, then the time for the answers to show it; never sooner
 * than the fixed 10 s watched before (issue 32).
 */
async function showsBy(session: JobSession, from: number, handlerMs: number): Promise<number> {
  const clock = await targetClock(session.ctx);
  const ctx = session.ctx;
  return from + Math.max(10_000, Math.max(clock.wallFor(handlerMs), pickupMs(ctx)) + settleMs(ctx));
}

async function cancelAccepted(session: JobSession, id: string, state: string): Promise<void> {
  const res = await session.cancel(id);
  if (!is2xx(res) || asJob(res.json)?.status !== "CANCELLED") {
    violated(session, res.exchange, `a 2xx {id, status: "CANCELLED"} for cancel of a job ${state} (IN_QUEUE or IN_PROGRESS → CANCELLED on POST cancel); got ${res.status} ${show(res.json)}`);
  }
}

export async function checkCancelQueued(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    const id = await submitQueued(session);
    if (id === undefined) return ctx.skip(`${SETUP_NOT_REACHED}: could not get a job to stay IN_QUEUE (every submission was taken by a worker at once)`);
    const cancelledAt = session.now();
    await cancelAccepted(session, id, "IN_QUEUE");
    // A kept job shows once a worker takes it: watched past a pick-up (its end is not waited for).
    await watchCancelled(
      session,
      id,
      holdMs(session),
      `a cancelled queued job removed before it starts: CANCELLED or gone, never IN_QUEUE, IN_PROGRESS or COMPLETED, even once workers are free`,
      await showsBy(session, cancelledAt, 0),
    );
    return undefined;
  });
}

export async function checkCancelRunning(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    const ms = session.virtual ? 60_000 : 15_000;
    const running = await submitRunningAt(session, ms);
    if (running === undefined) return ctx.skip(`${SETUP_NOT_REACHED}: could not observe a job IN_PROGRESS within ${session.bound(START_BUDGET_MS)} (the wait's bound)`);
    const { id, seenAt } = running;
    await cancelAccepted(session, id, "IN_PROGRESS");
    // Its handler started before it was seen running: watched past the moment it would have ended.
    await watchCancelled(
      session,
      id,
      ms,
      `a cancelled job in progress stopped: CANCELLED or gone, never IN_PROGRESS or COMPLETED, even after the ${ms} ms it would have run`,
      await showsBy(session, seenAt, ms),
    );
    return undefined;
  });
}

export async function checkCancelNeverCompletes(ctx: CheckContext): Promise<CheckOutcome | void> {
  return property(
    ctx,
    fc.tuple(fc.integer({ min: 3_000, max: 20_000 }), fc.double({ min: 0, max: 1, noNaN: true })),
    ([ms, fraction]) =>
      withSession(ctx, async (session) => {
        const { res, id } = await session.run(sleep(ms));
        if (id === undefined) violated(session, res.exchange, `a job id from run; got ${res.status}`);
        const delay = Math.round(fraction * ms);
        await session.advance(session.virtual ? delay : Math.min(delay, 3_000));
        const cancelledAt = session.now();
        const cancel = await session.cancel(id);
        // A job that finished first cannot be cancelled; this run then shows nothing.
        fc.pre(is2xx(cancel) && asJob(cancel.json)?.status === "CANCELLED");
        // Running or queued when cancelled, its handler would end no later than its whole sleep from now.
        await watchCancelled(
          session,
          id,
          ms,
          `a job cancelled ${delay} ms after its submission never completing afterwards: CANCELLED or gone`,
          await showsBy(session, cancelledAt, ms),
        );
      }),
    { numRuns: runsFor(ctx, 3) },
  );
}

export async function checkCancelResponse(ctx: CheckContext): Promise<CheckOutcome | void> {
  return withSession(ctx, async (session) => {
    // The running job first: set up after the queued one, it would wait behind the sleeps that
    // hold the workers to keep that one queued (a minute, in real time).
    const running = await submitRunning(session);
    const queued = await submitQueued(session);
    const ids = [...(queued ? [queued] : []), ...(running ? [running] : [])];
    if (ids.length === 0) return ctx.skip(`${SETUP_NOT_REACHED}: could not get a job IN_QUEUE or IN_PROGRESS to cancel`);
    const unjudged: string[] = [];
    for (const id of ids) {
      // Judged against the state read right before the cancel, not the one seen when the job was set up.
      const state = await stateAtSend(session, id);
      if (state !== "IN_QUEUE" && state !== "IN_PROGRESS") {
        unjudged.push(`job ${id} was ${state ?? "unreadable"} right before the cancel`);
        continue;
      }
      const res = await session.cancel(id);
      const errors = is2xx(res) ? schemaErrors("CancelResponse", res.json) : [];
      const body = asJob(res.json);
      if (!is2xx(res) || errors.length || body?.["id"] !== id || body.status !== "CANCELLED") {
        // A refusal from a job that finished between the read and the cancel is no verdict: the
        // state at send time is then unknown.
        const after = is2xx(res) ? undefined : await stateAtSend(session, id);
        if (after !== undefined && after !== state && after !== "CANCELLED") {
          unjudged.push(`job ${id} moved from ${state} to ${after} while the cancel was sent`);
          continue;
        }
        return ctx.fail(
          session.evidence(
            `a 2xx {"id": "${id}", "status": "CANCELLED"} for cancel of a job ${state} (read right before the cancel)${errors.length ? ` (${errors.join("; ")})` : ""}; got ${res.status} ${show(res.json)}`,
            res.exchange,
          ),
        );
      }
    }
    if (unjudged.length === ids.length) return ctx.skip(`nothing was judged: ${unjudged.join("; ")}`);
    return undefined;
  });
}
