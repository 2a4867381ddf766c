/**
 * purge-queue (spec, rule 7 and "Other job responses"): it removes only the jobs waiting in the
 * queue, running jobs continue, and `removed` counts what it removed. The scene: one of the
 * suite's jobs IN_PROGRESS and two or more IN_QUEUE behind held workers, each read just before
 * the purge, and health's inQueue read just before too.
 *
 * What that proves: a job seen IN_PROGRESS must still run and then complete; a job seen IN_QUEUE
 * must be gone from the queue afterwards (on the emulator's manual clock nothing moves between
 * the reads and the purge; in real time a worker may have taken it first, which is allowed).
 * `removed` must be at least the number of the suite's queued jobs that went, and at most the
 * queue's length by health, the only upper bound available when other users may share the
 * endpoint (and one that holds as long as nobody submits in the instant between the two reads).
 */
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { SETUP_NOT_REACHED } from "../../../reports/conformance-report.ts";
import type { ClientResponse } from "../../client.ts";
import { schemaErrors } from "../support/schema.ts";
import { FINISH_BUDGET_MS, START_BUDGET_MS } from "./support/budgets.ts";
import { ACTIVE_STATUSES, asJob, isFinal, isObject, show } from "./support/job-body.ts";
import { is2xx, type JobSession } from "./support/job-session.ts";
import { sleep } from "./support/inputs.ts";
import { holdMs, submitQueued, submitRunningAt } from "./support/job-states.ts";
import { typicalReadMs } from "./support/target-timings.ts";
import { scenario, violated } from "./support/with-session.ts";

interface PurgeScene {
  /** The job started on purpose, with the shortest sleep: the one followed to its end in real time. */
  readonly primary: string;
  readonly running: readonly string[];
  readonly queued: readonly string[];
  readonly health: ClientResponse;
  readonly purge: ClientResponse;
  readonly after: ReadonlyMap<string, ClientResponse>;
}

function statusOf(res: ClientResponse): string | undefined {
  return is2xx(res) ? asJob(res.json)?.status : undefined;
}

/** Tries to set the scene up to three times; the reason the last try failed, when none came about. */
async function purgeScene(session: JobSession): Promise<PurgeScene | string> {
  let why = "";
  let runningMs = session.virtual ? holdMs(session) : primaryMs(session);
  for (let attempt = 0; attempt < (session.virtual ? 1 : 3); attempt++) {
    const scene = await purgeSceneOnce(session, runningMs);
    if (!("why" in scene)) return scene;
    why = scene.why;
    // What this try left running or queued goes before the next one.
    for (const id of session.jobIds) if (!isFinal(session.trace.last(id))) await session.cancel(id);
    runningMs = nextPrimaryMs(runningMs, scene.tookMs);
  }
  return `${SETUP_NOT_REACHED}${session.virtual ? "" : " in 3 tries"}: ${why}`;
}

/** The longest the job followed to its end runs in real time. */
const PRIMARY_CAP_MS = 60_000;

/**
 * How long the job followed to its end runs, in real time, on the first try: long enough to stay
 * IN_PROGRESS through the scene's requests (about twenty round trips at a typical read of this
 * run, and the pick-up of the holders), at least 4 s.
 */
function primaryMs(session: JobSession): number {
  return Math.min(PRIMARY_CAP_MS, Math.max(4_000, 20 * typicalReadMs(session.ctx) + 2_000));
}

/**
 * The next try's: twice the last, and at least twice what the last try's scene took from the job
 * seen running to the reads before the purge (a slow or busy target takes longer than the typical
 * read foretold: the try measured it).
 */
export function nextPrimaryMs(lastMs: number, sceneTookMs: number): number {
  return Math.min(PRIMARY_CAP_MS, Math.max(2 * lastMs, 2 * sceneTookMs + 2_000));
}

async function purgeSceneOnce(session: JobSession, runningMs: number): Promise<PurgeScene | { why: string; tookMs: number }> {
  const seen = await submitRunningAt(session, runningMs);
  if (seen === undefined) return { why: `could not observe a job IN_PROGRESS within ${session.bound(START_BUDGET_MS)} (the wait's bound)`, tookMs: 0 };
  const primary = seen.id;
  const took = (): number => session.now() - seen.seenAt;
  if ((await submitQueued(session)) === undefined) return { why: "could not get a job to stay IN_QUEUE (every submission was taken by a worker at once)", tookMs: took() };
  await session.run(sleep(holdMs(session)));
  const running: string[] = [];
  const queued: string[] = [];
  for (const id of session.jobIds) {
    if (isFinal(session.trace.last(id))) continue;
    const status = statusOf(await session.status(id));
    if (status === "IN_PROGRESS") running.push(id);
    if (status === "IN_QUEUE") queued.push(id);
  }
  if (running.length === 0 || queued.length === 0) {
    const none = running.length === 0 ? "no job IN_PROGRESS" : "no job IN_QUEUE";
    return { why: `the jobs moved before the purge: ${none} just before it (the job to follow to its end slept ${runningMs} ms; the scene took ${took()} ms from seeing it run)`, tookMs: took() };
  }
  if (!running.includes(primary)) {
    return { why: `the job to follow to its end (a ${runningMs} ms sleep) was no longer IN_PROGRESS just before the purge, ${took()} ms after it was seen running`, tookMs: took() };
  }
  const health = await session.health();
  const purge = await session.purge();
  const after = new Map<string, ClientResponse>();
  for (const id of [...running, ...queued]) after.set(id, await session.status(id));
  return { primary, running, queued, health, purge, after };
}

function removedFromQueue(res: ClientResponse): boolean {
  const status = statusOf(res);
  return status === undefined ? res.status >= 400 && res.status < 500 : !ACTIVE_STATUSES.has(status) && status !== "COMPLETED";
}

export async function checkPurgeQueuedOnly(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    const scene = await purgeScene(session);
    if (typeof scene === "string") return ctx.skip(scene);
    if (!is2xx(scene.purge)) violated(session, scene.purge.exchange, `a 2xx answer {removed, status} to purge-queue; got ${scene.purge.status}`);
    for (const id of scene.running) {
      const res = scene.after.get(id) as ClientResponse;
      const status = statusOf(res);
      if (status !== "IN_PROGRESS" && status !== "COMPLETED") {
        violated(session, res.exchange, `job ${id}, IN_PROGRESS before purge-queue, still IN_PROGRESS (or COMPLETED) after it: jobs already running continue; got ${res.status} ${show(res.json)}`);
      }
    }
    for (const id of scene.queued) {
      const res = scene.after.get(id) as ClientResponse;
      const raced = !session.virtual && (statusOf(res) === "IN_PROGRESS" || statusOf(res) === "COMPLETED");
      if (!raced && !removedFromQueue(res)) {
        violated(session, res.exchange, `job ${id}, IN_QUEUE just before purge-queue, removed by it (gone, or no longer waiting); got ${res.status} ${show(res.json)}`);
      }
    }
    // Every running job is followed to its end on virtual time; in real time, the short one.
    for (const id of session.virtual ? scene.running : scene.running.filter((r) => r === scene.primary)) {
      const end = await session.untilFinal(id, { budgetMs: FINISH_BUDGET_MS + holdMs(session), stepMs: 30_000 });
      if (end.met && end.job?.status !== "COMPLETED") {
        violated(session, end.res.exchange, `job ${id}, running when the queue was purged, continuing to COMPLETED; got ${end.res.status} ${show(end.res.json)}`);
      }
    }
    if (session.virtual) {
      for (const id of scene.queued) {
        const res = await session.status(id);
        if (statusOf(res) === "COMPLETED" || statusOf(res) === "IN_PROGRESS") {
          violated(session, res.exchange, `job ${id}, removed from the queue by purge-queue, never running afterwards; got ${show(res.json)}`);
        }
      }
    }
    return undefined;
  });
}

export async function checkPurgeCount(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    const scene = await purgeScene(session);
    if (typeof scene === "string") return ctx.skip(scene);
    const { purge } = scene;
    const errors = is2xx(purge) ? schemaErrors("PurgeResponse", purge.json) : [];
    if (!is2xx(purge) || errors.length) {
      violated(session, purge.exchange, `a 2xx {removed: integer, status: string} from purge-queue${errors.length ? ` (${errors.join("; ")})` : ""}; got ${purge.status} ${show(purge.json)}`);
    }
    const removed = (purge.json as { removed: number }).removed;
    const ours = scene.queued.filter((id) => removedFromQueue(scene.after.get(id) as ClientResponse)).length;
    if (removed < ours) {
      violated(session, purge.exchange, `removed of at least ${ours}: ${ours} of the suite's jobs were IN_QUEUE just before purge-queue and are gone from the queue after it; got ${removed}`);
    }
    const health = scene.health.json;
    const inQueue = isObject(health) && isObject(health["jobs"]) ? health["jobs"]["inQueue"] : undefined;
    if (is2xx(scene.health) && typeof inQueue === "number" && removed > inQueue) {
      violated(
        session,
        purge.exchange,
        `removed of at most ${inQueue}, the queue's length by health just before the purge: purge-queue removes only jobs waiting in the queue (${scene.running.length} of the suite's jobs were running, which it must not count); got ${removed}`,
      );
    }
    return undefined;
  });
}
