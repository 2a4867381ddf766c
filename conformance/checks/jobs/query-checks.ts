/**
 * The `wait` query of runsync (integer milliseconds, 1000 to 300000) and the `ttl` query of
 * status (integer milliseconds). Values the spec's words rule out (out of range, negative, not a
 * number) must be refused under either profile; spellings a lenient reader might take as numbers
 * ("9e4", "1500.5", "+5000") and the bounds only choices.md gives (ttl above 7 days, ttl 0) are
 * refused only under --profile strict.
 *
 * The spec gives the range of these values, not the answer to one outside it. So the lenient
 * reading accepts a refusal (4xx) or an answer that keeps the range: the job answered as for a
 * value clamped into it (or ignored for the default). It fails an answer that is neither (a 5xx,
 * a 2xx that is no job), and a wait longer than 300000 ms actually taken, which is observed
 * where the suite moves the target's clock (runsyncAboveRange). Strict keeps requiring
 * choices.md's 400.
 *
 * A refusal credits the rule only when the same request with a value in range (wait 90000, the
 * default; ttl 3600000) is accepted, or its error names the query parameter alone
 * (support/refusal-credit.ts): a target refusing every runsync with a `wait`, or every status read
 * with a `ttl`, for a reason of its own is not passed; the rule is skipped as a set-up not reached.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { acceptsServed, acceptedText } from "../support/statuses.ts";
import type { ClientResponse } from "../../client.ts";
import { sleep } from "./support/inputs.ts";
import { asJob, isJobStatus } from "./support/job-body.ts";
import type { JobSession } from "./support/job-session.ts";
import { property, runsFor, Violation } from "./support/property.ts";
import { violated, withSession } from "./support/with-session.ts";
import { CreditTally, refusalCredited } from "../support/refusal-credit.ts";

const WORDS = fc.constantFrom("soon", "ninety", "NaN", "true", "1s", "null");
const LOOSE_NUMBERS = fc.constantFrom("9e4", "1500.5", "+5000", "0x2710", "5000.0");

function badWaitArb(ctx: CheckContext): fc.Arbitrary<string> {
  const lenient = [fc.integer({ min: -1_000_000, max: 999 }).map(String), fc.integer({ min: 300_001, max: 1_000_000_000 }).map(String), WORDS];
  return ctx.options.profile === "strict" ? fc.oneof(...lenient, LOOSE_NUMBERS) : fc.oneof(...lenient);
}

function badTtlArb(ctx: CheckContext): fc.Arbitrary<string> {
  const lenient = [fc.integer({ min: -1_000_000_000, max: -1 }).map(String), WORDS];
  if (ctx.options.profile !== "strict") return fc.oneof(...lenient);
  return fc.oneof(...lenient, LOOSE_NUMBERS, fc.constant("0"), fc.integer({ min: 604_800_001, max: 2_000_000_000 }).map(String));
}

/** Whether a 2xx answer keeps the constraint: a job record with one of the spec's states (the value was clamped or ignored). */
function keptRange(ctx: CheckContext, status: number, json: unknown): boolean {
  if (ctx.options.profile !== "lenient" || status < 200 || status >= 300) return false;
  const job = asJob(json);
  return job !== undefined && isJobStatus(job.status);
}

/** The longest wait the spec allows. */
const MAX_WAIT_MS = 300_000;
/** A job that outlasts the longest wait (and ends before the endpoint's 600 s execution timeout). */
const OUTLASTS_MS = 420_000;
/** Virtual time advanced at a time while a runsync above the range waits. */
const UPPER_STEP_MS = 10_000;

/**
 * A wait above the range, sent where the suite moves the target's clock: the job sleeps past
 * 300000 ms and the clock is advanced until the answer comes; an answer that came later than
 * 300000 ms (and a step or two of the advance) shows a longer wait actually taken. Against a
 * real-time target that would take five minutes: there the upper bound is not observed.
 */
async function runsyncAboveRange(session: JobSession, wait: string): Promise<ClientResponse> {
  const startedAt = session.now();
  const { res } = await session.runsync(sleep(OUTLASTS_MS), { query: { wait }, stepMs: UPPER_STEP_MS, advanceUpToMs: OUTLASTS_MS + 30_000 });
  const took = session.now() - startedAt;
  if (res.status >= 200 && res.status < 300 && took > MAX_WAIT_MS + 2 * UPPER_STEP_MS) {
    violated(
      session,
      res.exchange,
      `runsync?wait=${wait} on a job sleeping ${OUTLASTS_MS} ms answered within the ${MAX_WAIT_MS} ms the range allows (a refusal, or a wait clamped into it); it answered only after ${took} ms of the target's time: a wait longer than ${MAX_WAIT_MS} ms actually taken`,
    );
  }
  return res;
}

/** In-range values a refused query is compared with: runsync's default wait, and an hour's ttl (within choices.md's 10 s..7 days). */
const WAIT_IN_RANGE = "90000";
const TTL_IN_RANGE = "3600000";

const is2xx = (status: number): boolean => status >= 200 && status < 300;

/** Whether a refusal of `query` may be credited: the same request with `control` in its place is accepted. */
function queryCredited(ctx: CheckContext, name: string, value: string, control: string, operation: string, refusal: ClientResponse, send: (v: string) => Promise<ClientResponse>) {
  return refusalCredited(ctx, {
    controls: [{ [name]: control }],
    send: (q) => send(q[name]!),
    accepted: (r) => is2xx(r.status),
    operation,
    named: { body: { [name]: value }, text: refusal.text },
  });
}

export async function checkWaitRange(ctx: CheckContext): Promise<CheckOutcome | void> {
  const tally = new CreditTally();
  const outcome = await property(
    ctx,
    badWaitArb(ctx),
    (wait) =>
      withSession(ctx, async (session) => {
        const above = session.virtual && Number(wait) > MAX_WAIT_MS;
        const res = above ? await runsyncAboveRange(session, wait) : (await session.runsync({}, { query: { wait } })).res;
        const refusedAsRuled = await acceptsServed(ctx, res);
        if (!is2xx(res.status)) {
          const credit = await queryCredited(ctx, "wait", wait, WAIT_IN_RANGE, "job runsync ?wait", res, async (w) => (await session.runsync({}, { query: { wait: w } })).res);
          if (!credit.credited) return tally.notCredited(`runsync?wait=${wait}`, credit);
        }
        tally.judgedOne();
        if (refusedAsRuled || keptRange(ctx, res.status, res.json)) return;
        const or = ctx.options.profile === "lenient" ? ", or the job answered as for a wait clamped into the range," : "";
        violated(session, res.exchange, `${acceptedText(ctx)}${or} for runsync?wait=${wait}: wait is integer milliseconds from 1000 to 300000; got ${res.status}`);
      }),
    { numRuns: runsFor(ctx, 8) },
  );
  if (outcome) return outcome;
  const notProven = tally.notProven();
  return notProven === undefined ? undefined : ctx.skip(notProven);
}

export async function checkTtlQuery(ctx: CheckContext): Promise<CheckOutcome | void> {
  return withSession(ctx, async (session) => {
    const { id, res } = await session.run({});
    if (id === undefined) {
      return ctx.skip(`could not submit a job to read with a ttl (run answered ${res.status})`);
    }
    const tally = new CreditTally();
    const outcome = await property(
      ctx,
      badTtlArb(ctx),
      async (ttl) => {
        const read = await session.status(id, { ttl });
        const refusedAsRuled = await acceptsServed(ctx, read);
        if (!is2xx(read.status)) {
          const credit = await queryCredited(ctx, "ttl", ttl, TTL_IN_RANGE, `job status ${id} ?ttl`, read, (t) => session.status(id, { ttl: t }));
          if (!credit.credited) return tally.notCredited(`status?ttl=${ttl}`, credit);
        }
        tally.judgedOne();
        if (refusedAsRuled || keptRange(ctx, read.status, read.json)) return;
        const or = ctx.options.profile === "lenient" ? ", or the job read with the ttl clamped or ignored," : "";
        throw new Violation(
          session.evidence(`${acceptedText(ctx)}${or} for status?ttl=${ttl}: ttl is a positive whole number of milliseconds; got ${read.status}`, read.exchange, [res.exchange]),
        );
      },
      { numRuns: runsFor(ctx, 8) },
    );
    if (outcome) return outcome;
    const notProven = tally.notProven();
    return notProven === undefined ? undefined : ctx.skip(notProven);
  });
}
