// jobs.runsync.complete-result from traffic: a runsync answered unfinished before its wait ran out is found at the end of the traffic, unless the traffic showed a clock other than the wall's; one that waited its wait keeps the rule.
import t from "tap";
import { exchangeMaker, findingsOf } from "../test-support/passive/hand-made.ts";

const x = exchangeMaker();
const RULE = "jobs.runsync.complete-result";
const run = (xs: Parameters<typeof findingsOf>[1]) => findingsOf(RULE, xs);

t.test("IN_QUEUE after 5 ms of a 90 s wait (the default): found at the end, on the target's side", async (t) => {
  const r = run([x("POST", "/v2/ep/runsync", { id: "j1", status: "IN_QUEUE" }, 1_000, 5)]);
  t.same(r.now, [], "held while the traffic may still show another clock");
  t.equal(r.atEnd.length, 1);
  t.match(r.atEnd[0], /IN_QUEUE after 5 ms of a 90000 ms wait/);
});

t.test("IN_PROGRESS after 2 s of a ?wait=5000: found; after 4.5 s (within the slack) or 5 s: kept", async (t) => {
  t.equal(run([x("POST", "/v2/ep/runsync?wait=5000", { id: "j", status: "IN_PROGRESS" }, 1_000, 2_000)]).atEnd.length, 1);
  const kept = run([x("POST", "/v2/ep/runsync?wait=5000", { id: "j", status: "IN_PROGRESS" }, 1_000, 4_500), x("POST", "/v2/ep/runsync?wait=5000", { id: "k", status: "IN_QUEUE" }, 9_000, 5_000)]);
  t.same([...kept.now, ...kept.atEnd], []);
  t.equal(kept.judge.tallies.get(RULE)?.judged, 2, "judged twice, kept twice");
});

t.test("a wait out of the spec's range, or a finished answer: no verdict of this rule", async (t) => {
  const r = run([x("POST", "/v2/ep/runsync?wait=999999", { id: "j", status: "IN_QUEUE" }, 1_000, 5), x("POST", "/v2/ep/runsync", { id: "k", status: "COMPLETED", output: 1, executionTime: 1 }, 2_000, 5)]);
  t.same([...r.now, ...r.atEnd], []);
});

t.test("a clock other than the wall's, shown anywhere in the traffic: no early answer is judged", async (t) => {
  // The control API moved the clock (after the early answer: the verdict waits for the whole traffic).
  const moved = run([x("POST", "/v2/ep/runsync", { id: "j", status: "IN_QUEUE" }, 1_000, 5), x("POST", "/_sim/clock/advance", { now_us: 1 }, 2_000, 1)]);
  t.same(moved.atEnd, []);
  // A job that reported 15 s of delay and execution 1 s of wall time after its submission: a fast clock.
  const fast = run([
    x("POST", "/v2/ep/runsync?wait=10000", { id: "j", status: "IN_QUEUE" }, 1_000, 700),
    x("POST", "/v2/ep/run", { id: "k", status: "IN_QUEUE" }, 2_000, 5),
    x("GET", "/v2/ep/status/k", { id: "k", status: "COMPLETED", output: 1, delayTime: 5_000, executionTime: 10_000 }, 2_900, 100),
  ]);
  t.same(fast.atEnd, []);
  // The same job reporting what fits in the wall time: the early answer is found.
  const wall = run([
    x("POST", "/v2/ep/runsync?wait=10000", { id: "j", status: "IN_QUEUE" }, 1_000, 700),
    x("POST", "/v2/ep/run", { id: "k", status: "IN_QUEUE" }, 2_000, 5),
    x("GET", "/v2/ep/status/k", { id: "k", status: "COMPLETED", output: 1, delayTime: 400, executionTime: 300 }, 2_900, 100),
  ]);
  t.equal(wall.atEnd.length, 1);
});
