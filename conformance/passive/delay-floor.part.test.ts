// jobs.delay-time from below, from traffic: a job read IN_QUEUE long after its submission was answered reports a delayTime at least that wait (less the slack); one in seconds is found at the end of the traffic, unless the traffic moved the target's clock.
import t from "tap";
import { exchangeMaker, findingsOf } from "../test-support/passive/hand-made.ts";

const x = exchangeMaker();
const RULE = "jobs.delay-time";
const run = (xs: Parameters<typeof findingsOf>[1]) => findingsOf(RULE, xs);

/** A job submitted at 1,000 ms, read IN_QUEUE until 3,000 ms, then read finished with `delayTime`. */
const queuedTwoSeconds = (delayTime: number, status = "COMPLETED") => [
  x("POST", "/v2/ep/run", { id: "j", status: "IN_QUEUE" }, 1_000),
  x("GET", "/v2/ep/status/j", { id: "j", status: "IN_QUEUE" }, 2_000),
  x("GET", "/v2/ep/status/j", { id: "j", status: "IN_QUEUE" }, 3_005),
  x("GET", "/v2/ep/status/j", { id: "j", status, delayTime, executionTime: 3, ...(status === "COMPLETED" ? { output: {} } : {}) }, 3_500),
];

t.test("delayTime in seconds (2) after a job read IN_QUEUE 2 s after its submission: found at the end, on the target's side", async (t) => {
  const r = run(queuedTwoSeconds(2));
  t.same(r.now, [], "held while the traffic may still show the target's clock moved");
  t.equal(r.atEnd.length, 1);
  t.match(r.atEnd[0], /delayTime of at least 1250 ms.*read IN_QUEUE 2000 ms after its submission was answered.*got 2$/);
});

t.test("a delayTime in milliseconds, or within the slack (a quarter and 250 ms), keeps the rule; so does one read IN_PROGRESS", async (t) => {
  for (const delay of [2_400, 2_000, 1_250]) {
    const r = run(queuedTwoSeconds(delay));
    t.same([...r.now, ...r.atEnd], [], `delayTime ${delay}`);
    t.equal(r.judge.tallies.get(RULE)?.judged, 1, `delayTime ${delay}: judged`);
  }
  t.equal(run(queuedTwoSeconds(1_249)).atEnd.length, 1, "1249 is under the floor");
  t.equal(run(queuedTwoSeconds(1, "IN_PROGRESS")).atEnd.length, 1, "judged on the first answer that left the queue");
});

t.test("no verdict without a wait seen: never read queued, read queued at once, or retried", async (t) => {
  const never = run([x("POST", "/v2/ep/run", { id: "j", status: "IN_QUEUE" }, 1_000), x("GET", "/v2/ep/status/j", { id: "j", status: "COMPLETED", output: 1, delayTime: 0, executionTime: 1 }, 5_000)]);
  t.same(never.atEnd, []);
  t.equal(never.judge.tallies.get(RULE), undefined, "not judged");
  const soon = run([x("POST", "/v2/ep/run", { id: "j", status: "IN_QUEUE" }, 1_000), x("GET", "/v2/ep/status/j", { id: "j", status: "IN_QUEUE" }, 1_200), x("GET", "/v2/ep/status/j", { id: "j", status: "COMPLETED", output: 1, delayTime: 0, executionTime: 1 }, 1_400)]);
  t.same(soon.atEnd, [], "a 195 ms wait gives no floor above the slack");
  const retried = run([
    x("POST", "/v2/ep/run", { id: "j", status: "IN_QUEUE" }, 1_000),
    x("POST", "/v2/ep/retry/j", { id: "j", status: "IN_QUEUE" }, 2_000),
    x("GET", "/v2/ep/status/j", { id: "j", status: "IN_QUEUE" }, 4_000),
    x("GET", "/v2/ep/status/j", { id: "j", status: "COMPLETED", output: 1, delayTime: 1, executionTime: 1 }, 4_500),
  ]);
  t.same(retried.atEnd, []);
});

t.test("the traffic moved the target's clock (its control API): nothing under the floor is judged", async (t) => {
  const r = run([...queuedTwoSeconds(2), x("POST", "/_sim/clock/advance", { now_us: 1 }, 4_000)]);
  t.same(r.atEnd, []);
});
