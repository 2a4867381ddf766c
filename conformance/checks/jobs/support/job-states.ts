/**
 * Getting a job into a given state on a target whose worker count is unknown. A queued job: long
 * sleeps are submitted one after another until one is still IN_QUEUE when read right after its
 * submission (the earlier ones hold the workers; on the emulator's manual clock, no worker takes
 * anything until time moves). A running job: one long sleep, polled until IN_PROGRESS. Either
 * may be out of reach (many idle workers, a slow start): then undefined, and the check says so.
 */
import { START_BUDGET_MS, STEP_MS } from "./budgets.ts";
import { asJob } from "./job-body.ts";
import { is2xx, type JobSession } from "./job-session.ts";
import { sleep } from "./inputs.ts";
import { notePickup } from "./target-timings.ts";

/** How long the sleeps that hold workers last: long enough to outlast any check's look. */
export function holdMs(session: JobSession): number {
  return session.virtual ? 120_000 : 60_000;
}

/** Submissions tried for a queued job when health names no workers: holds up to this many minus one. */
export const QUEUED_TRIES_FLOOR = 6;
/** Never more holders than this, whatever health says (each is a job the check cancels after). */
export const QUEUED_TRIES_CAP = 34;

/** The endpoint's workers by its health (idle, running and initializing), or undefined when it names none. */
export function reportedWorkers(health: unknown): number | undefined {
  const workers = health !== null && typeof health === "object" ? (health as { workers?: unknown }).workers : undefined;
  if (workers === null || typeof workers !== "object") return undefined;
  let total: number | undefined;
  for (const k of ["idle", "running", "initializing"]) {
    const n = (workers as Record<string, unknown>)[k];
    if (typeof n === "number" && Number.isSafeInteger(n) && n >= 0) total = (total ?? 0) + n;
  }
  return total;
}

/**
 * How many submissions a queued job may take: one a worker the endpoint reports (every one held,
 * then one more that must wait) and a margin for jobs finishing meanwhile, at least
 * QUEUED_TRIES_FLOOR (an endpoint whose workers start on demand reports none while idle).
 */
export async function queuedTries(session: JobSession): Promise<number> {
  if (session.virtual) return QUEUED_TRIES_FLOOR;
  const health = await session.health();
  const workers = is2xx(health) ? reportedWorkers(health.json) : undefined;
  return Math.min(QUEUED_TRIES_CAP, Math.max(QUEUED_TRIES_FLOOR, (workers ?? 0) + 2));
}

/**
 * A job left IN_QUEUE: long sleeps, one after another, each read right after its submission,
 * until one is still waiting, so that every worker of the endpoint is held by the ones before it
 * (as many tries as health's workers call for: queuedTries).
 */
export async function submitQueued(session: JobSession, tries?: number): Promise<string | undefined> {
  const n = tries ?? (await queuedTries(session));
  for (let i = 0; i < n; i++) {
    const { id } = await session.run(sleep(holdMs(session)));
    if (id === undefined) return undefined;
    const res = await session.status(id);
    if (is2xx(res) && asJob(res.json)?.status === "IN_QUEUE") return id;
  }
  return undefined;
}

export async function submitRunning(session: JobSession, ms = holdMs(session)): Promise<string | undefined> {
  const running = await submitRunningAt(session, ms);
  return running?.id;
}

/**
 * As submitRunning, with the session time at which the job was seen IN_PROGRESS: its handler
 * started no later, so it would end no later than that plus its sleep (in the target's time).
 * In real time the wait from submission to that read is noted as the target's pick-up delay.
 */
export async function submitRunningAt(session: JobSession, ms = holdMs(session)): Promise<{ id: string; seenAt: number } | undefined> {
  const submittedAt = session.now();
  const { id } = await session.run(sleep(ms));
  if (id === undefined) return undefined;
  const seen = await session.untilStatus(id, ["IN_PROGRESS"], { budgetMs: START_BUDGET_MS, stepMs: STEP_MS });
  if (seen.job?.status !== "IN_PROGRESS") return undefined;
  const seenAt = session.now();
  if (!session.virtual) notePickup(session.ctx, seenAt - submittedAt);
  return { id, seenAt };
}

/**
 * The job's status read right before a command whose meaning depends on it: the state the
 * command is judged against (a state seen minutes earlier may be long gone on a busy endpoint).
 */
export async function stateAtSend(session: JobSession, id: string): Promise<string | undefined> {
  const read = await session.status(id);
  const status = is2xx(read) ? asJob(read.json)?.status : undefined;
  return typeof status === "string" ? status : undefined;
}
