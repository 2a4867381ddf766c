/**
 * The Job record's fields over a job's life (spec, "Job (job endpoints)" and the status table):
 * delayTime is the queue wait in milliseconds, executionTime and output are present on a
 * completed job, workerId names the worker that ran it, and input is echoed while it is in
 * progress. Jobs go through `run` (then status polls) or `runsync`, chosen by fast-check.
 *
 * Times are checked against the session's own clock: a job cannot have waited or run longer
 * than the time that passed between its submission and the answer reporting it (exactly, in
 * the emulator's virtual time; with two seconds of slack in real time, for rounding). A target
 * whose clock runs faster than the suite's is judged in its own time (support/target-clock.ts).
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { START_BUDGET_MS, STEP_MS } from "./support/budgets.ts";
import { has, isNonNegativeInteger, show } from "./support/job-body.ts";
import type { JobSession } from "./support/job-session.ts";
import { bytes, echoInputArb, expectedOf, extraFieldsArb, sameJson, sleep, stream, type Input } from "./support/inputs.ts";
import { observeJob, type Mode, type Observed } from "./support/observe.ts";
import { property, runsFor } from "./support/property.ts";
import { targetClock, type TargetClock } from "./support/target-clock.ts";
import { violated, withSession } from "./support/with-session.ts";

const modeArb = fc.constantFrom<Mode>("run", "runsync");

/** Inputs whose jobs complete: echo, sleep, bytes and stream (collected into an array). */
function completingInputArb(): fc.Arbitrary<Input> {
  return fc.oneof(
    echoInputArb(),
    fc.integer({ min: 0, max: 4_000 }).map((ms) => sleep(ms)),
    fc.integer({ min: 0, max: 100_000 }).map((n) => bytes(n)),
    fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 1_000 })).map(([k, b]) => stream(k, b)),
  );
}

/**
 * The most time, in the target's milliseconds, that can have passed in `elapsed` of the session's
 * time: exact (a millisecond for rounding) in virtual time; in real time two seconds more for
 * rounding, read on the target's clock.
 */
function mostPassed(session: JobSession, clock: TargetClock, elapsed: number): number {
  return session.virtual ? elapsed + 1 : clock.atMost(elapsed + 2_000);
}

/** Runs the job and requires that it completed (the handler contract says these inputs do). */
async function completed(session: JobSession, input: Input, mode: Mode): Promise<Observed> {
  const seen = await observeJob(session, input, mode);
  const last = seen.looks[seen.looks.length - 1];
  const what = `${mode} with {input: ${show(input, 80)}}`;
  if (seen.lost) violated(session, seen.lost.exchange, `the job submitted by ${what} readable until it is final; got ${seen.lost.status}`);
  if (!last) violated(session, seen.submission.exchange, `a 2xx answer with the job to ${what}; got ${seen.submission.status}`);
  // An unfinished job at the end of the budget is a slow target, not a broken field.
  fc.pre(seen.final !== undefined || !["IN_QUEUE", "IN_PROGRESS"].includes(last.job.status));
  if (last.job.status !== "COMPLETED") {
    violated(session, last.res.exchange, `status COMPLETED for ${what}: the conformance handler completes this input; got ${show(last.job.status)} ${show(last.job)}`);
  }
  return seen;
}

export async function checkDelayTime(ctx: CheckContext): Promise<CheckOutcome | void> {
  const strict = ctx.options.profile === "strict";
  return property(
    ctx,
    fc.tuple(fc.integer({ min: 0, max: 4_000 }), modeArb),
    ([ms, mode]) =>
      withSession(ctx, async (session) => {
        const clock = await targetClock(ctx);
        const seen = await completed(session, sleep(ms), mode);
        for (const look of seen.looks) {
          const { job } = look;
          const elapsed = look.at - seen.submittedAt;
          const required = job.status === "COMPLETED" || (strict && job.status === "IN_PROGRESS");
          if (!has(job, "delayTime")) {
            if (required) violated(session, look.res.exchange, `delayTime (the queue wait in ms) on a ${job.status} job: it records the wait when a worker takes the job; got ${show(job)}`);
            continue;
          }
          const delay = job["delayTime"];
          if (!isNonNegativeInteger(delay)) violated(session, look.res.exchange, `delayTime as a non-negative integer of milliseconds; got ${show(delay)}`);
          if (delay > mostPassed(session, clock, elapsed)) {
            violated(session, look.res.exchange, `delayTime at most the ${elapsed} ms that passed between submission and this answer${clock.note} (it is the time the job waited in the queue); got ${delay}`);
          }
        }
      }),
    { numRuns: runsFor(ctx, 3) },
  );
}

export async function checkExecutionTime(ctx: CheckContext): Promise<CheckOutcome | void> {
  return property(
    ctx,
    fc.tuple(fc.integer({ min: 0, max: 4_000 }), modeArb),
    ([ms, mode]) =>
      withSession(ctx, async (session) => {
        const clock = await targetClock(ctx);
        const seen = await completed(session, sleep(ms), mode);
        const look = seen.final!;
        const execution = look.job["executionTime"];
        const elapsed = look.at - seen.submittedAt;
        if (!has(look.job, "executionTime")) violated(session, look.res.exchange, `executionTime on a COMPLETED job (present on completed jobs); got ${show(look.job)}`);
        if (!isNonNegativeInteger(execution)) violated(session, look.res.exchange, `executionTime as a non-negative integer of milliseconds; got ${show(execution)}`);
        const floor = session.virtual ? ms : Math.floor(ms * 0.98) - 50;
        if (execution < floor) violated(session, look.res.exchange, `executionTime of at least ${floor} ms for a handler that sleeps ${ms} ms; got ${execution}`);
        if (execution > mostPassed(session, clock, elapsed)) {
          violated(session, look.res.exchange, `executionTime at most the ${elapsed} ms that passed between submission and this answer${clock.note}; got ${execution}`);
        }
      }),
    { numRuns: runsFor(ctx, 3) },
  );
}

export async function checkCompletedOutput(ctx: CheckContext): Promise<CheckOutcome | void> {
  return property(
    ctx,
    fc.tuple(completingInputArb(), modeArb),
    ([input, mode]) =>
      withSession(ctx, async (session) => {
        const seen = await completed(session, input, mode);
        const look = seen.final!;
        const expected = expectedOf(input);
        const output = expected.kind === "output" ? expected.output : undefined;
        if (!has(look.job, "output") || !sameJson(look.job["output"], output)) {
          violated(
            session,
            look.res.exchange,
            `output present on the COMPLETED job and equal to the handler's (${show(output, 120)}) for ${mode} with {input: ${show(input, 80)}}; got ${show(look.job["output"], 120)}`,
          );
        }
      }),
    { numRuns: runsFor(ctx, 5) },
  );
}

export async function checkWorkerId(ctx: CheckContext): Promise<CheckOutcome | void> {
  return property(
    ctx,
    fc.tuple(fc.oneof(echoInputArb(), fc.integer({ min: 0, max: 2_000 }).map((ms) => sleep(ms))), modeArb),
    ([input, mode]) =>
      withSession(ctx, async (session) => {
        const seen = await completed(session, input, mode);
        const look = seen.final!;
        const worker = look.job["workerId"];
        if (typeof worker !== "string" || worker === "") {
          violated(session, look.res.exchange, `workerId, a non-empty string, on the COMPLETED job (present on a completed job); got ${show(worker)}`);
        }
      }),
    { numRuns: runsFor(ctx, 3) },
  );
}

export async function checkInputEcho(ctx: CheckContext): Promise<CheckOutcome | void> {
  return property(
    ctx,
    fc.tuple(fc.integer({ min: 20_000, max: 60_000 }), extraFieldsArb()),
    ([ms, extra]) =>
      withSession(ctx, async (session) => {
        const input = sleep(ms, extra);
        const { res, id } = await session.run(input);
        if (id === undefined) violated(session, res.exchange, `a job id from run with {input: ${show(input)}}; got ${res.status}`);
        let sawProgress = false;
        await session.pollUntil(
          id,
          (job, answer) => {
            if (!job) return true;
            const echoed = has(job, "input");
            if (job.status === "IN_PROGRESS") {
              sawProgress = true;
              if (!echoed || !sameJson(job["input"], input)) {
                violated(session, answer.exchange, `the job's input echoed unchanged while it is IN_PROGRESS: ${show(input)}; got ${echoed ? show(job["input"]) : "no input"}`);
              }
            } else if (job.status === "IN_QUEUE" && echoed && !sameJson(job["input"], input)) {
              violated(session, answer.exchange, `an echoed input equal to the submitted one ${show(input)}; got ${show(job["input"])}`);
            }
            return job.status !== "IN_QUEUE";
          },
          { budgetMs: START_BUDGET_MS, stepMs: STEP_MS },
        );
        fc.pre(sawProgress);
      }),
    { numRuns: runsFor(ctx, 2) },
  );
}
