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

export async function submitQueued(session: JobSession, tries = 6): Promise<string | undefined> {
  for (let i = 0; i < tries; i++) {
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
