/** The job-state trace: legal observations pass, moves against the spec's table are caught. */
import t from "tap";
import type { CheckContext } from "../../../check.ts";
import type { Exchange } from "../../../recorder.ts";
import { JobTrace } from "./job-trace.ts";

const exchange = { request: { method: "GET", url: "http://x/", headers: {} } } as Exchange;

function trace(): { trace: JobTrace; seen: string[] } {
  const seen: string[] = [];
  const ctx = { exercised: (m: string, from: string, to: string) => void seen.push(`${m}:${from}->${to}`) } as unknown as CheckContext;
  return { trace: new JobTrace(ctx), seen };
}

t.test("polling may skip states the job passed through", async (t) => {
  const { trace: tr, seen } = trace();
  tr.submitted("a", "IN_QUEUE");
  tr.observed("a", "IN_QUEUE", exchange);
  tr.observed("a", "COMPLETED", exchange);
  t.same(tr.illegal, []);
  t.same(seen, ["job:(none)->IN_QUEUE"], "IN_QUEUE → COMPLETED is not one observed edge");
});

t.test("each named edge is recorded when seen", async (t) => {
  const { trace: tr, seen } = trace();
  tr.submitted("a", "IN_QUEUE");
  tr.observed("a", "IN_PROGRESS", exchange);
  tr.observed("a", "FAILED", exchange);
  tr.retried("a", "IN_QUEUE", exchange);
  tr.cancelled("a", "CANCELLED", exchange);
  t.same(tr.illegal, []);
  t.same(seen, ["job:(none)->IN_QUEUE", "job:IN_QUEUE->IN_PROGRESS", "job:FAILED->IN_QUEUE", "job:IN_QUEUE->CANCELLED"]);
});

t.test("final states stay final, and nothing moves back without a retry", async (t) => {
  for (const [from, to] of [
    ["COMPLETED", "IN_PROGRESS"],
    ["CANCELLED", "COMPLETED"],
    ["IN_PROGRESS", "IN_QUEUE"],
    ["FAILED", "IN_QUEUE"],
    ["COMPLETED", "CANCELLED"],
  ]) {
    const { trace: tr } = trace();
    tr.submitted("a", "IN_QUEUE");
    tr.observed("a", from as string, exchange);
    const before = tr.illegal.length;
    tr.observed("a", to as string, exchange);
    t.equal(tr.illegal.length - before, 1, `${from} → ${to}`);
  }
});

t.test("cancel and retry only from the states the table allows", async (t) => {
  const { trace: tr } = trace();
  tr.submitted("a", "IN_QUEUE");
  tr.observed("a", "COMPLETED", exchange);
  tr.retried("a", "IN_QUEUE", exchange);
  t.match(tr.illegal[0]?.why, /only FAILED or TIMED_OUT/);
  const { trace: tr2 } = trace();
  tr2.submitted("b", "IN_QUEUE");
  tr2.observed("b", "FAILED", exchange);
  tr2.cancelled("b", "CANCELLED", exchange);
  t.match(tr2.illegal[0]?.why, /only IN_QUEUE or IN_PROGRESS/);
});

t.test("repeating a cancel or retry that moves nothing is not a transition (lenient reading)", async (t) => {
  const { trace: tr } = trace();
  tr.submitted("a", "IN_QUEUE");
  tr.cancelled("a", "CANCELLED", exchange);
  tr.cancelled("a", "CANCELLED", exchange);
  t.same(tr.illegal, [], "a second cancel of a CANCELLED job answering CANCELLED");
  tr.observed("a", "CANCELLED", exchange);
  t.same(tr.illegal, []);
  const { trace: done } = trace();
  done.submitted("b", "IN_QUEUE");
  done.observed("b", "COMPLETED", exchange);
  done.cancelled("b", "COMPLETED", exchange);
  done.retried("b", "COMPLETED", exchange);
  t.same(done.illegal, [], "cancel and retry of a COMPLETED job answering COMPLETED leave it as it was");
  done.cancelled("b", "CANCELLED", exchange);
  t.equal(done.illegal.length, 1, "but a COMPLETED job that a cancel turns CANCELLED moved out of a final state");
  const { trace: later } = trace();
  later.submitted("c", "IN_QUEUE");
  later.cancelled("c", "CANCELLED", exchange);
  later.observed("c", "COMPLETED", exchange);
  t.equal(later.illegal.length, 1, "a CANCELLED job that later completes breaks the table");
});
