/**
 * Watching cancelled jobs (spec, "Job status": a cancelled job never completes afterwards): every
 * read must show each one CANCELLED or gone (a 4xx: the spec says queued jobs are "removed", and
 * does not say how a removed job reads). Several jobs are watched in one loop, each until its own
 * moment: past the time a cancel that did not take would show (the handler's end, or a worker's
 * pick-up of a job kept in the queue), from the timings measured in this run. A job is no longer
 * read once its watch is over or a read has shown it still alive (the verdict is in).
 */
import type { ClientResponse } from "../../client.ts";
import type { Exchange } from "../../recorder.ts";
import { DEFAULT_MAX_PAUSE_MS, FIRST_PAUSE_MS } from "../support/poll.ts";
import { waitIsOver } from "../support/time.ts";
import { asJob } from "./support/job-body.ts";
import { is2xx, type JobSession } from "./support/job-session.ts";
import { targetClock } from "./support/target-clock.ts";
import { pickupMs, settleMs } from "./support/target-timings.ts";

/** Whether a read after a cancel is acceptable: CANCELLED, or the job gone. */
export function cancelledOrGone(res: ClientResponse): boolean {
  if (res.status >= 400 && res.status < 500) return true;
  return is2xx(res) && asJob(res.json)?.status === "CANCELLED";
}

/** One cancelled job to watch, until `untilMs` of session time. */
export interface Watched {
  readonly id: string;
  readonly untilMs: number;
}

/** A read that showed a watched job alive after its cancel. */
export interface Alive {
  readonly id: string;
  readonly res: ClientResponse;
  readonly exchange: Exchange;
}

/**
 * In real time, when a cancel that did not take would have shown by (session time), from `from`:
 * the later of the handler's end (`handlerMs` of the target's time, on its clock) and a worker's
 * pick-up of a job kept in the queue, then the time for the answers to show it; never sooner
 * than the fixed 10 s watched before (issue 32). On virtual time: the handler's time and 10 s.
 */
export async function showsBy(session: JobSession, from: number, handlerMs: number): Promise<number> {
  if (session.virtual) return from + handlerMs + 10_000;
  const clock = await targetClock(session.ctx);
  const ctx = session.ctx;
  return from + Math.max(10_000, Math.max(clock.wallFor(handlerMs), pickupMs(ctx)) + settleMs(ctx));
}

/**
 * Watches `jobs` after their cancels. Other jobs of the session are cancelled first, so that a
 * worker is free to take a job the target kept. Virtual time moves in three steps up to the
 * latest watch's end (a read before each and one after); real time is read every 100 ms to 2 s,
 * each job's last read after its own moment. Returns the first read that showed each job alive.
 */
export async function watchCancelled(session: JobSession, jobs: readonly Watched[]): Promise<Map<string, Alive>> {
  const watched = new Set(jobs.map((j) => j.id));
  for (const other of session.jobIds) if (!watched.has(other)) await session.cancel(other);
  const alive = new Map<string, Alive>();
  const active = new Map(jobs.map((j) => [j.id, j.untilMs]));
  const readAll = async () => {
    for (const [id, until] of [...active]) {
      const res = await session.status(id);
      if (!cancelledOrGone(res)) {
        alive.set(id, { id, res, exchange: res.exchange });
        active.delete(id);
      } else if (session.now() >= until) active.delete(id);
    }
  };
  if (session.virtual) {
    const end = Math.max(...jobs.map((j) => j.untilMs));
    const steps = 3;
    const span = Math.max(0, end - session.now());
    for (let i = 0; i <= steps && active.size > 0; i++) {
      await readAll();
      if (i < steps) await session.advance(span / steps);
    }
    return alive;
  }
  for (let step = FIRST_PAUSE_MS; ; step = Math.min(DEFAULT_MAX_PAUSE_MS, Math.round(step * 1.5))) {
    await readAll();
    if (active.size === 0 || waitIsOver(session.ctx)) return alive;
    const soonest = Math.min(...active.values()) - session.now();
    await session.advance(Math.max(0, Math.min(step, soonest)));
  }
}
