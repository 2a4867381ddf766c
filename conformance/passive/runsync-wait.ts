/**
 * `runsync` waits for completion (spec, jobs rule 1): an answer still IN_QUEUE or IN_PROGRESS
 * that came back before its `wait` had run out did not wait (jobs.runsync.complete-result),
 * judged from that one exchange: the time from the request's arrival to the answer's end
 * against the wait it asked for (`wait` in 1000..300000, else the default 90000; a wait out of
 * that range is left alone), with a second of slack.
 *
 * The wait runs on the target's clock, which need not be the wall clock: the emulator's control
 * API moves it (`/_sim/`), and a simulator may run fast (`cpsim serve --speed 15`). The traffic
 * shows such a clock: a request to the control API, or a finished job whose reported
 * `delayTime + executionTime` (target milliseconds) exceeds, by more than a second, the wall time
 * from its submission's arrival to the answer that reported them. So an early answer is held,
 * and judged at the end of the traffic only when nothing in it showed a clock other than the
 * wall's (then no verdict at all: the proxy cannot read the target's time). An answer that
 * waited its whole wait keeps the rule at once.
 */
import { BoundedMap } from "./bounded-map.ts";
import { kept, type SeenExchange } from "./answer.ts";
import type { Judgement, PassiveCheck } from "./judgement.ts";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const DEFAULT_WAIT_MS = 90_000;
/** Slack on the wall clock: transport, the event loops of the target and the proxy. */
export const WAIT_SLACK_MS = 1_000;
/** Early answers held for the end of the traffic (the first ones: the report describes 20 a rule). */
const HELD = 100;

/** The wait a runsync asked for, or undefined when the spec gives no reading of it (out of range, not a number). */
export function runsyncWaitMs(query: URLSearchParams): number | undefined {
  const raw = query.get("wait");
  if (raw === null) return DEFAULT_WAIT_MS;
  if (!/^\d+$/.test(raw.trim())) return undefined;
  const n = Number(raw);
  return n >= 1_000 && n <= 300_000 ? n : undefined;
}

const ms = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);

export function createRunsyncWaitCheck(): PassiveCheck {
  /** When each job's submission (run, runsync) arrived, by id. */
  const submitted = new BoundedMap<string, number>(10_000);
  const early: { exchange: SeenExchange; problem: string }[] = [];
  let otherClock: string | undefined;
  return {
    name: "runsync-wait",
    rules: [{ id: "jobs.runsync.complete-result", side: "target" }],
    judge({ exchange, op }) {
      if (exchange.request.path.startsWith("/_sim/")) {
        otherClock ??= `a request to the emulator's control API (#${exchange.seq}) moves the target's clock`;
        return [];
      }
      const a = exchange.answer;
      if (op.kind !== "job" || !a || a.status < 200 || a.status >= 300 || a.truncated || !isObj(a.json)) return [];
      const job = a.json;
      const id = op.jobId ?? (typeof job.id === "string" ? job.id : undefined);
      if ((op.op === "run" || op.op === "runsync") && id !== undefined) submitted.set(id, exchange.sentAt);
      const at = id === undefined ? undefined : submitted.get(id);
      if (at !== undefined && (job.status === "COMPLETED" || job.status === "FAILED")) {
        const targetMs = ms(job.delayTime) + ms(job.executionTime);
        const wallMs = exchange.answeredAt - at;
        if (targetMs > wallMs + WAIT_SLACK_MS) otherClock ??= `job ${id} reported ${Math.round(targetMs)} ms of delay and execution within ${Math.round(wallMs)} ms of the wall clock (#${exchange.seq})`;
      }
      if (op.op !== "runsync" || (job.status !== "IN_QUEUE" && job.status !== "IN_PROGRESS")) return [];
      const wait = runsyncWaitMs(exchange.request.query);
      if (wait === undefined || otherClock !== undefined) return [];
      const tookMs = exchange.answeredAt - exchange.sentAt;
      if (tookMs + WAIT_SLACK_MS >= wait) return [{ ruleId: "jobs.runsync.complete-result", side: "target" }];
      if (early.length < HELD) {
        early.push({
          exchange: kept(exchange),
          problem: `runsync waits for completion ("\`runsync\` waits for completion and returns the whole result in one response"); it answered ${job.status} after ${Math.round(tookMs)} ms of a ${wait} ms wait`,
        });
      }
      return [];
    },
    finish(): Judgement[] {
      // A clock other than the wall's, shown anywhere in the traffic: no early answer is judged.
      if (otherClock !== undefined) return [];
      return early.map((e) => ({ ruleId: "jobs.runsync.complete-result", side: "target", problem: e.problem, exchange: e.exchange }));
    },
  };
}
