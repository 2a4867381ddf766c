// Hand-made exchanges for the passive rules' tests: a JSON answer at a given moment, and one rule's findings as the traffic goes and at its end.
import { seenFromRecorded, type SeenExchange } from "../../passive/answer.ts";
import { PassiveJudge } from "../../passive/passive-judge.ts";

/** Makes exchanges numbered in the order made: a request to http://target.test, a JSON answer `tookMs` after `sentAt`. */
export function exchangeMaker(): (method: string, path: string, body: unknown, sentAt: number, tookMs?: number, status?: number) => SeenExchange {
  let seq = 0;
  return (method, path, body, sentAt, tookMs = 5, status = 200) =>
    seenFromRecorded(
      { request: { method, url: `http://target.test${path}`, headers: {} }, response: { status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) } },
      { seq: ++seq, sentAt, answeredAt: sentAt + tookMs },
    );
}

/** One rule's findings (their `expected` text) as each exchange is judged and at the end of the traffic. */
export function findingsOf(ruleId: string, xs: readonly SeenExchange[]): { now: string[]; atEnd: string[]; judge: PassiveJudge } {
  const judge = new PassiveJudge();
  const now = xs.flatMap((e) => judge.judge(e)).filter((f) => f.rule.id === ruleId).map((f) => f.expected);
  const atEnd = judge.finish().filter((f) => f.rule.id === ruleId).map((f) => f.expected);
  return { now, atEnd, judge };
}
