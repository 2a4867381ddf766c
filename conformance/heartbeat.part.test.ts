/**
 * The heartbeat (#35: a real-time run was silent for a minute and more): while a rule runs longer
 * than the beat, each beat names every running rule, how long it has run and what it waits on
 * (the request its client has in flight, found through the rule's async context), with the time
 * of day; a rule that ended, or has run less than a beat, gets no line. The clock is the test's.
 */
import t from "tap";
import { Client } from "./client.ts";
import { Heartbeat, noteActivity, waitingOn } from "./heartbeat.ts";
import { startTestServer } from "./test-support/test-server.ts";

/** A promise and the function that settles it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

t.test("each running rule, its time and what it waits on; several at once; none once ended", async (t) => {
  let now = Date.parse("2026-11-28T17:30:00Z");
  const lines: string[] = [];
  const beat = new Heartbeat((l) => lines.push(l), 20_000, () => now);
  t.teardown(() => beat.stop());

  const cancel = gate();
  const pods = gate();
  const first = beat.track(["jobs.cancel.response"], async () => {
    const done = waitingOn("GET /v2/conformance/status/j-1");
    await cancel.promise;
    done();
  });
  now += 15_000;
  const second = beat.track(["pods.lifecycle.a", "pods.lifecycle.b"], async () => {
    noteActivity("pod p-1 is STARTING");
    await pods.promise;
  });
  beat.tick();
  t.same(lines, [], "no rule has run a whole beat yet");

  now += 10_000;
  beat.tick();
  t.same(lines, ["17:30:25Z still running jobs.cancel.response (25.0 s): waiting on GET /v2/conformance/status/j-1 for 25.0 s"], "only the rule that has run a whole beat");
  now += 20_000;
  lines.length = 0;
  beat.tick();
  t.same(lines, [
    "17:30:45Z still running jobs.cancel.response (45.0 s): waiting on GET /v2/conformance/status/j-1 for 45.0 s",
    '17:30:45Z still running pods.lifecycle.a, pods.lifecycle.b (30.0 s): last said "pod p-1 is STARTING" 30.0 s ago',
  ], "two rules at once, each named");

  cancel.open();
  await first;
  lines.length = 0;
  now += 20_000;
  beat.tick();
  t.same(lines.map((l) => l.split(" ")[3]), ["pods.lifecycle.a,"], "the ended rule is gone");
  pods.open();
  await second;
});

t.test("the client says which request a rule waits on, without being handed the heartbeat", async (t) => {
  const held = gate();
  const server = await startTestServer(async (_req, res) => {
    await held.promise;
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  t.teardown(() => server.close());
  const client = Client.create({ timeoutMs: 60_000, keys: {} });
  t.teardown(() => client.close());
  let now = 0;
  const lines: string[] = [];
  const beat = new Heartbeat((l) => lines.push(l), 1_000, () => now);
  t.teardown(() => beat.stop());
  const run = beat.track(["jobs.cancel.response"], () => client.scoped().request({ method: "GET", url: `${server.url}/v2/conformance/status/abc?wait=1` }));
  while (server.received.length === 0) await new Promise((r) => setTimeout(r, 10));
  now = 40_000;
  beat.tick();
  t.match(lines, [/still running jobs\.cancel\.response \(40\.0 s\): waiting on GET \/v2\/conformance\/status\/abc\?wait=1 for 40\.0 s$/]);
  held.open();
  t.equal((await run).status, 200);
  lines.length = 0;
  beat.tick();
  t.same(lines, [], "nothing runs: no line");

  // Between two polls: the last answer, and when it came.
  const pause = gate();
  let answered = false;
  const polling = beat.track(["jobs.status.final"], async () => {
    await client.scoped().request({ method: "GET", url: `${server.url}/v2/conformance/status/abc` });
    answered = true;
    await pause.promise;
  });
  while (!answered) await new Promise((r) => setTimeout(r, 10));
  const answeredAt = now;
  now = answeredAt + 30_000;
  beat.tick();
  t.match(lines, [/still running jobs\.status\.final \(30\.0 s\): between requests: GET \/v2\/conformance\/status\/abc answered 200 30\.0 s ago$/]);
  pause.open();
  await polling;
});
