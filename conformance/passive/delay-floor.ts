/**
 * jobs.delay-time from below, from traffic: "Milliseconds the job waited in the queue before
 * processing". Whenever a read (status, status-sync, stream) answered a job IN_QUEUE, the job had
 * waited at least from the end of its submission's answer to the start of that read, on the wall
 * clock of the proxy, which sees both; so the delayTime a later answer reports (once the job left
 * the queue) is at least the longest such wait. A delayTime in seconds, or one counting only part
 * of the wait, falls far below it. conform's scenario (checks/jobs/delay-time-floor.ts) bounds it
 * the same way with jobs of its own.
 *
 * The wait is measured on the wall clock and the target reports its own: a clock that runs slower
 * than the wall's (the emulator's manual clock, moved through its control API) would show a
 * shorter wait without any defect. So a delayTime under the floor is held and judged at the end
 * of the traffic, and only when nothing in it moved the target's clock (a request to `/_sim/`);
 * a clock that runs fast only raises delayTime, which the floor never blames. The slack is a
 * quarter of the floor and 250 ms: rounding, the target's event loop, a clock a little slow.
 * A retried job is followed no more (whether its delayTime counts the first wait is left open).
 */
import { BoundedMap } from "./bounded-map.ts";
import { kept, type SeenExchange } from "./answer.ts";
import type { Judgement, PassiveCheck } from "./judgement.ts";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Fixed slack of the floor, ms; a quarter of the floor comes on top. */
export const DELAY_FLOOR_SLACK_MS = 250;
/** Findings held for the end of the traffic (the report describes 20 a rule). */
const HELD = 100;

/** The delayTime the spec allows at the least, after a job read IN_QUEUE `floorMs` after its submission was answered. */
export const delayFloorMs = (floorMs: number): number => Math.floor(floorMs * 0.75 - DELAY_FLOOR_SLACK_MS);

interface Queued {
  /** When the submission's answer ended (ms, the proxy's clock). */
  readonly submittedAt: number;
  /** The longest wait a read showed IN_QUEUE, and that read. */
  floorMs: number;
  read?: SeenExchange;
}

export function createDelayFloorCheck(): PassiveCheck {
  const jobs = new BoundedMap<string, Queued>(10_000);
  const held: { exchange: SeenExchange; problem: string; sequence: SeenExchange[] }[] = [];
  let movedClock = false;
  return {
    name: "delay-floor",
    rules: [{ id: "jobs.delay-time", side: "target" }],
    judge({ exchange, op }) {
      if (exchange.request.path.startsWith("/_sim/")) movedClock = true;
      const a = exchange.answer;
      if (op.kind !== "job" || !a || a.status < 200 || a.status >= 300 || a.truncated || !isObj(a.json)) return [];
      const job = a.json;
      if (op.op === "run" || op.op === "runsync") {
        if (typeof job.id === "string" && (job.status === "IN_QUEUE" || job.status === undefined)) jobs.set(job.id, { submittedAt: exchange.answeredAt, floorMs: 0 });
        return [];
      }
      const id = op.jobId;
      if (id === undefined) return [];
      if (op.op === "retry") {
        jobs.delete(id);
        return [];
      }
      const seen = jobs.get(id);
      if (seen === undefined || (op.op !== "status" && op.op !== "status-sync" && op.op !== "stream")) return [];
      if (job.status === "IN_QUEUE") {
        const waited = exchange.sentAt - seen.submittedAt;
        if (waited > seen.floorMs) {
          seen.floorMs = waited;
          seen.read = kept(exchange);
        }
        return [];
      }
      const delay = job.delayTime;
      if (typeof delay !== "number" || !Number.isFinite(delay)) return [];
      // The job left the queue and says how long it waited: judged once, on this answer.
      jobs.delete(id);
      const least = delayFloorMs(seen.floorMs);
      if (seen.read === undefined || least <= 0) return [];
      if (delay >= least) return [{ ruleId: "jobs.delay-time", side: "target" }];
      if (held.length < HELD) {
        held.push({
          exchange: kept(exchange),
          sequence: [seen.read],
          problem: `delayTime of at least ${least} ms ("Milliseconds the job waited in the queue before processing"): job ${id} still read IN_QUEUE ${Math.round(seen.floorMs)} ms after its submission was answered (exchange #${seen.read.seq}); got ${delay}`,
        });
      }
      return [];
    },
    finish(): Judgement[] {
      if (movedClock) return [];
      return held.map((h) => ({ ruleId: "jobs.delay-time", side: "target", problem: h.problem, exchange: h.exchange, sequence: h.sequence }));
    },
  };
}
