/**
 * jobs.health.exact (spec, rule 8): health's `inQueue` and `inProgress` are the endpoint's jobs
 * in those states, judged where the run can show that only its own jobs use the endpoint, on any
 * target (no control API needed). jobs.health.counters holds every counter to lower bounds (other
 * users may only add); this rule holds the two counters the spec's words fix to exact values:
 *
 * 1. A quiet endpoint: health read, before the check submits anything, until it counts nothing in
 *    the queue and nothing in progress (a few reads, spaced out). Work in progress that is not the
 *    run's: a skip, saying so. A queue with nothing in progress: a purge-queue settles whether it
 *    is real (the purge removes what waits, whoever sent it, as the jobs.purge.* checks do anyway):
 *    jobs removed, it was others' work (a skip); none removed and health right after still counts
 *    them, twice, and health counts jobs that are not there (a failure: a counter off by one).
 * 2. A stable window: the check's own jobs (one held running, one held queued where the workers
 *    let it), each read, then health, then each read again; when every job read the same state both
 *    times, health was computed while they were in those states, so inQueue and inProgress must
 *    equal the check's jobs in them. A window where a job moved is read again (a bounded number of
 *    times; none stable: a skip).
 *    A stable window whose counts do not match is read again, a second apart, up to three times
 *    (health may be computed a moment behind the jobs); the last is judged if none matched.
 * 3. Health counting fewer than the check's own jobs fails (nobody else can take them off).
 *    Counting more may be another user's job that arrived meanwhile: the check's jobs are cancelled
 *    and health read again; if the endpoint is quiet again, the excess went with the run's own jobs
 *    (a failure), otherwise others' work came in (a skip).
 *
 * completed, failed and retried are not judged: the spec does not say over which period they
 * count (every job ever, or those whose results are kept), nor what `workers` counts.
 */
import type { CheckContext, CheckOutcome } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { asJob, isFinal, isNonNegativeInteger, isObject, show } from "./support/job-body.ts";
import { is2xx, type JobSession } from "./support/job-session.ts";
import { submitQueued, submitRunning } from "./support/job-states.ts";
import { scenario, violated } from "./support/with-session.ts";

/** Reads of health looking for a quiet endpoint, and the pause before each after the first (doubling). */
const QUIET_READS = 5;
const QUIET_FIRST_PAUSE_MS = 500;
/** Windows tried before giving up on a stable one. */
const WINDOW_TRIES = 5;
/** Purge probes that must each show a queue that is not there before the counter is blamed. */
const PURGE_PROBES = 2;

interface Counts {
  readonly inQueue: number;
  readonly inProgress: number;
}

/** inQueue and inProgress of a 2xx health answer, when both are counts. */
export function jobCounts(res: ClientResponse): Counts | undefined {
  if (!is2xx(res) || !isObject(res.json) || !isObject(res.json["jobs"])) return undefined;
  const { inQueue, inProgress } = res.json["jobs"];
  return isNonNegativeInteger(inQueue) && isNonNegativeInteger(inProgress) ? { inQueue, inProgress } : undefined;
}

const quiet = (c: Counts) => c.inQueue === 0 && c.inProgress === 0;
const describe = (c: Counts) => `inQueue ${c.inQueue}, inProgress ${c.inProgress}`;

type Quiet = { readonly kind: "quiet" } | { readonly kind: "skip"; readonly reason: string };

/** Health read until the endpoint is quiet, or why the window cannot be the run's alone. */
async function untilQuiet(session: JobSession): Promise<Quiet> {
  let last: Counts | undefined;
  let pause = QUIET_FIRST_PAUSE_MS;
  let waited = 0;
  for (let i = 0; i < QUIET_READS; i++) {
    if (i > 0) {
      await session.advance(pause);
      waited += pause;
      pause *= 2;
    }
    const res = await session.health();
    const counts = jobCounts(res);
    if (counts === undefined) return { kind: "skip", reason: `health answered ${res.status} ${show(res.json)}, without inQueue and inProgress counts (jobs.health.shape judges that)` };
    if (quiet(counts)) return { kind: "quiet" };
    last = counts;
  }
  const seen = `before the check submitted anything, health read ${describe(last!)} over ${QUIET_READS} reads in ${(waited / 1000).toFixed(1)} s`;
  if (last!.inProgress > 0) return { kind: "skip", reason: `${seen}: jobs in progress that this check did not submit (another user's, or ones an earlier check could not cancel), so no window has only the check's jobs` };
  return purgeProbe(session, seen);
}

/**
 * A queue with nothing in progress: real others' jobs waiting for a worker, or a counter that
 * counts jobs that are not there. A purge-queue empties the queue, whoever sent the jobs; health
 * right after must count none of them.
 */
async function purgeProbe(session: JobSession, seen: string): Promise<Quiet> {
  let shown: { health: ClientResponse; removed: number; before: Counts; after: Counts } | undefined;
  for (let i = 0; i < PURGE_PROBES; i++) {
    const before = jobCounts(await session.health());
    const purge = await session.purge();
    const health = await session.health();
    const after = jobCounts(health);
    const removed = isObject(purge.json) ? purge.json["removed"] : undefined;
    if (!is2xx(purge) || !isNonNegativeInteger(removed)) {
      return { kind: "skip", reason: `${seen}; purge-queue, sent to tell a real queue from a counter, answered ${purge.status} ${show(purge.json)}: no window shown to be the run's alone` };
    }
    if (before === undefined || after === undefined) return { kind: "skip", reason: `${seen}; health around the purge answered without counts` };
    if (quiet(after)) return removed > 0 ? { kind: "skip", reason: `${seen}; purge-queue removed ${removed} waiting job(s) this check did not submit (another user's, or ones an earlier check could not cancel)` } : { kind: "quiet" };
    if (removed > 0 || after.inProgress > 0 || before.inProgress > 0) {
      return { kind: "skip", reason: `${seen}; around a purge-queue (removed ${removed}) health read ${describe(before)}, then ${describe(after)}: jobs this check did not submit come and go on this endpoint` };
    }
    shown = { health, removed, before, after };
  }
  violated(
    session,
    shown!.health.exchange,
    `jobs.inQueue 0 right after a purge-queue (it removes every job waiting in the queue, whoever sent it): nothing was in progress, this check had submitted nothing, and ${PURGE_PROBES} purges in a row each removed 0 jobs, so no job waited; ${seen}, and health right after the last purge read ${describe(shown!.after)}`,
  );
}

interface Window {
  readonly health: ClientResponse;
  readonly counts: Counts;
  readonly own: Counts;
}

/** Stable windows read (a second apart) before one that does not match is judged. */
const MATCH_TRIES = 3;
const MATCH_PAUSE_MS = 1_000;

const matches = (w: Window) => w.counts.inQueue === w.own.inQueue && w.counts.inProgress === w.own.inProgress;

async function statuses(session: JobSession, ids: readonly string[]): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = [];
  for (const id of ids) {
    const res = await session.status(id);
    out.push(is2xx(res) ? asJob(res.json)?.status : undefined);
  }
  return out;
}

/** Health read between two reads of every job of the check that agree; undefined when none did in WINDOW_TRIES. */
async function stableWindow(session: JobSession): Promise<Window | string> {
  const ids = session.jobIds;
  for (let i = 0; i < WINDOW_TRIES; i++) {
    const before = await statuses(session, ids);
    const health = await session.health();
    const after = await statuses(session, ids);
    const counts = jobCounts(health);
    if (counts === undefined) return `health answered ${health.status} ${show(health.json)}, without inQueue and inProgress counts (jobs.health.shape judges that)`;
    if (before.every((s, n) => s !== undefined && s === after[n])) {
      return { health, counts, own: { inQueue: before.filter((s) => s === "IN_QUEUE").length, inProgress: before.filter((s) => s === "IN_PROGRESS").length } };
    }
  }
  return `no stable window in ${WINDOW_TRIES} tries: some job of the check changed state between the status reads around every health read`;
}

export async function checkHealthExact(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    const start = await untilQuiet(session);
    if (start.kind === "skip") return ctx.skip(start.reason);
    await submitRunning(session);
    await submitQueued(session);
    if (session.jobIds.length === 0) return ctx.skip("run accepted no job: no job of the check to count");
    // Health may be computed a moment behind the jobs (a cache, a metrics pipeline): a window that
    // does not match is read again, a second apart, and only one that never matches is judged.
    let window: Window | string = "";
    for (let i = 0; i < MATCH_TRIES; i++) {
      if (i > 0) await session.advance(MATCH_PAUSE_MS);
      window = await stableWindow(session);
      if (typeof window === "string" || matches(window)) break;
    }
    if (typeof window === "string") return ctx.skip(window);
    const { counts, own, health } = window;
    const expected = `inQueue ${own.inQueue} and inProgress ${own.inProgress}: the check's ${session.jobIds.length} job(s), each read in the same state just before and just after this health read (so in it while health was computed), ${own.inQueue} IN_QUEUE and ${own.inProgress} IN_PROGRESS, on an endpoint that counted nothing in either before the check submitted them`;
    if (counts.inQueue < own.inQueue || counts.inProgress < own.inProgress) violated(session, health.exchange, `${expected} (nobody else can take the check's jobs off the counts); got ${describe(counts)}`);
    if (matches(window)) return undefined;
    // More than the check's own: another user's job meanwhile, or a counter that counts the check's jobs wrongly.
    for (const id of session.jobIds) if (!isFinal(session.trace.last(id))) await session.cancel(id);
    const settled = await statuses(session, session.jobIds);
    if (!settled.every((s) => isFinal(s))) return ctx.skip(`health read ${describe(counts)} with the check's jobs at ${describe(own)}, and the check could not cancel its jobs to tell another user's job from a miscount`);
    const afterwards = await session.health();
    const rest = jobCounts(afterwards);
    if (rest === undefined || !quiet(rest)) {
      return ctx.skip(`health read ${describe(counts)} with the check's jobs at ${describe(own)}; with the check's jobs cancelled it read ${rest ? describe(rest) : `${afterwards.status}`}: others' jobs arrived meanwhile, so the window was not the run's alone`);
    }
    violated(session, health.exchange, `${expected}; got ${describe(counts)} (and with the check's jobs cancelled, health read nothing in the queue or in progress again, so the excess came with the check's own jobs)`);
  });
}
