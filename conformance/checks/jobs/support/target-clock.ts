/**
 * How fast the target's clock runs against the suite's, for the rules that compare a duration
 * the target reports or keeps (delayTime, executionTime, a runsync's wait, how long a result is
 * kept) with time the suite measured. Where the suite moves the clock (the control API) the two
 * are one. Elsewhere they need not be: the target may be a simulator going fast (`cpsim serve
 * --clock real --speed 15` keeps its own time at 15 × the wall clock), and the spec's
 * milliseconds are the target's.
 *
 * Job records carry no timestamp, so the rate is read from what the conformance handler's
 * contract defines in the target's time: `{"op": "sleep", "ms": S}` waits S milliseconds. Such
 * a job, read every 100 ms, that was last seen IN_QUEUE and first seen COMPLETED W wall
 * milliseconds apart shows that the target's clock ran at least S/W target ms per wall ms (the
 * reads' transport and a late completion only add to W, so this is a lower bound; the time it
 * waited in the queue, behind other rules' jobs, is left out). Measured four times after a job
 * that warms a worker, each sleep sized to last about two seconds of wall time at the estimate so
 * far, the largest kept; a sample that did not complete is tried again (up to eight in all). Once
 * per run (the first job rule that needs it pays for it: about eight seconds against a real-time
 * target). Issue 32: with the job rules side by side on a busy machine, three one-second samples
 * that stopped at the first refusal read the emulator's 15 × clock as 7–8 ×, and
 * jobs.status.ttl's "still there at half the ttl" read came after the ttl. An estimate below 1.5 reads as the wall clock (1): a target whose clock is slow never
 * makes a bound stricter, and a target that does not answer the measurement is judged on the
 * wall clock, as before.
 *
 * A lower bound can undershoot the true rate by the overhead in W, so a bound on target time
 * that passed (`atMost`) allows a quarter more when the rate is above 1.
 */
import type { CheckContext } from "../../../check.ts";
import { TargetError } from "../../../errors.ts";
import { sleep } from "./inputs.ts";
import { asJob } from "./job-body.ts";
import { is2xx, type JobSession } from "./job-session.ts";
import { withSession } from "./with-session.ts";

export interface TargetClock {
  /** Target ms per wall ms: 1 on the wall clock or where the suite moves the clock. */
  readonly rate: number;
  /** The most target milliseconds that `wallMs` measured by the suite may stand for. */
  atMost(wallMs: number): number;
  /** Wall milliseconds to wait so that at least `targetMs` pass on the target's clock. */
  wallFor(targetMs: number): number;
  /** The reading in words, for a rule's message: "" on the wall clock. */
  readonly note: string;
}

/** An estimate below this is the wall clock read with overhead. */
const FAST = 1.5;
/** The longest sleep the contract allows is 600000 ms; a minute is plenty here. */
const MAX_SLEEP_MS = 60_000;
const UNDERSHOOT = 1.25;

export function clockOf(rate: number, how = ""): TargetClock {
  if (rate < FAST) return { rate: 1, atMost: (ms) => ms, wallFor: (ms) => ms, note: "" };
  return {
    rate,
    atMost: (ms) => Math.ceil(ms * rate * UNDERSHOOT),
    wallFor: (ms) => Math.ceil(ms / rate),
    note: ` (durations in the target's time: its clock runs about ${rate.toFixed(1)} × the suite's${how})`,
  };
}

const measured = new WeakMap<object, Promise<TargetClock>>();

/** The target's clock, measured once per run (keyed by the run's options). */
export function targetClock(ctx: CheckContext): Promise<TargetClock> {
  if (ctx.controlApi) return Promise.resolve(clockOf(1));
  let clock = measured.get(ctx.options);
  if (!clock) {
    clock = measure(ctx);
    measured.set(ctx.options, clock);
  }
  return clock;
}

async function measure(ctx: CheckContext): Promise<TargetClock> {
  let rate = 1;
  try {
    await withSession(ctx, async (session) => {
      // A job first, so that a worker's cold start is not counted in a sleep's wall time.
      const warm = await session.runsync({}, { query: { wait: 120_000 } });
      if (warm.job?.status !== "COMPLETED") return;
      // Every sample is a lower bound, so the largest is kept: a sample slowed by a busy machine
      // only lowers itself.
      // A sample that did not complete (a refused submission, a read answered 429 while the other
      // areas spend the key's window) is tried again: giving up after it kept the first, coarsest
      // sample (a 15 × clock read as 8 ×), and a rate too low makes "still kept" checks fail.
      // Four samples of about two seconds of wall time each at the rate so far: a target that
      // completes jobs a little late (its event loop busy) lowers a short sample most.
      for (let i = 0, good = 0; good < 4 && i < 8; i++) {
        const ms = Math.min(MAX_SLEEP_MS, Math.round(2_000 * rate));
        const wallMs = await runWallMs(session, ms);
        if (wallMs === undefined) continue;
        good++;
        rate = Math.max(rate, ms / Math.max(1, wallMs));
      }
    });
  } catch (err) {
    if (!(err instanceof TargetError)) throw err;
  }
  const clock = clockOf(rate, ", measured by the conformance handler's sleep");
  if (clock.rate > 1) ctx.log(`the target's clock runs about ${clock.rate.toFixed(1)} × the suite's (measured by the conformance handler's sleep): job durations are judged in its time`);
  return clock;
}

/** Reads of a sample's job this far apart: about ten over a sample of a second. */
const SAMPLE_POLL_MS = 100;

/**
 * The most wall time the job of a `sleep(ms)` can have run: from the last moment it was read
 * IN_QUEUE (its submission, if never) to the first read that found it COMPLETED. Its wait in the
 * queue is left out, so other jobs on the endpoint (the job rules run side by side) do not lower
 * the rate, and the result stays a lower bound: the job started after a read found it queued and
 * ended before a read found it completed. Undefined when it does not complete within two minutes.
 */
async function runWallMs(session: JobSession, ms: number): Promise<number | undefined> {
  let startedAfter = Date.now();
  const { id } = await session.run(sleep(ms));
  if (id === undefined) return undefined;
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    const sent = Date.now();
    const res = await session.status(id);
    const answered = Date.now();
    // A refused read (429, a 5xx) says nothing of the job: read again.
    if (!is2xx(res) && (res.status === 429 || res.status >= 500)) {
      await session.advance(SAMPLE_POLL_MS);
      continue;
    }
    const status = is2xx(res) ? asJob(res.json)?.status : undefined;
    if (status === "IN_QUEUE") startedAfter = sent;
    else if (status === "COMPLETED") return answered - startedAfter;
    else if (status !== "IN_PROGRESS") return undefined;
    await session.advance(SAMPLE_POLL_MS);
  }
  return undefined;
}

/** The most wall time a rule that lets the target's time pass may wait, without --slow. */
export const FAST_CLOCK_WAIT_MS = 30_000;

/**
 * Why a rule that must let `targetMs` of the target's time pass (a ttl, a retention) cannot run
 * here, or undefined when it can: where the suite moves the clock, with --slow, or where the
 * target's own clock runs fast enough for that time to pass within FAST_CLOCK_WAIT_MS of wall time.
 */
export async function timeToPass(ctx: CheckContext, targetMs: number): Promise<string | undefined> {
  if (ctx.controlApi || ctx.options.slow) return undefined;
  const clock = await targetClock(ctx);
  if (clock.wallFor(targetMs) <= FAST_CLOCK_WAIT_MS) return undefined;
  return (
    `needs ${Math.round(targetMs / 1000)} s of the target's time to pass: the emulator's control API advances it, or a target clock ` +
    `fast enough for it to pass within ${FAST_CLOCK_WAIT_MS / 1000} s (this target's runs at ${clock.rate === 1 ? "the wall clock's pace" : `about ${clock.rate.toFixed(1)} × the suite's`}); ` +
    "against this target it runs only with --slow"
  );
}

/** The session time (virtual, or wall) to wait so that at least `targetMs` pass on the target's clock. */
export function sessionMsFor(session: JobSession, clock: TargetClock, targetMs: number): number {
  return session.virtual ? targetMs : clock.wallFor(targetMs);
}
