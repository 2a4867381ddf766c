import t from "tap";
import { ms } from "../../../core/index.ts";
import type { ApiOutcome } from "../../types.ts";
import { Harness, body, expectProblem, matchesSchema } from "./test-harness.ts";

type Job = { id: string; status: string; delayTime?: number; executionTime?: number; output?: unknown; error?: string; workerId?: string };

function asWait(outcome: ApiOutcome): Extract<ApiOutcome, { kind: "wait" }> {
  if (outcome.kind !== "wait") throw new Error(`expected a wait, got ${JSON.stringify(outcome)}`);
  return outcome;
}

t.test("runsync parks until the job finishes; render then answers the whole job", async (t) => {
  const h = new Harness();
  const t0 = h.now;
  const outcome = asWait(h.request("POST", "/v2/conformance/runsync", { body: { input: { op: "sleep", ms: 500 } } }));
  t.equal(outcome.endpointId, "conformance");
  t.equal(outcome.accountId, "acct-alpha");
  t.equal(outcome.deadline, t0 + ms(90_000), "default wait 90 s");
  // As the transport does: render from inside the model event that makes the job final.
  let answer: ReturnType<typeof outcome.render> | undefined;
  const sub = h.platform.serverless.onFinal(outcome.endpointId, outcome.accountId, outcome.jobId, () => {
    answer = outcome.render(h.now);
  });
  t.ok(sub.ok, "subscribed");
  h.advanceUntil(() => answer !== undefined, 90_000);
  t.ok(answer, "answered by completion, before the deadline");
  t.ok(h.now < outcome.deadline);
  t.equal(answer!.status, 200);
  matchesSchema(t, "RunsyncResponse", answer!.body);
  matchesSchema(t, "Job", answer!.body);
  const job = body<Job>(answer!);
  t.equal(job.id, outcome.jobId);
  t.equal(job.status, "COMPLETED");
  t.same(job.output, { slept_ms: 500 });
  t.equal(job.executionTime, 500);
  t.type(job.delayTime, "number");
  t.type(job.workerId, "string");
  t.ok(answer!.headers["ratelimit"], "the rendered answer carries the rate-limit headers");
});

t.test("runsync whose wait elapses answers 200 {id, status} at the deadline; status-sync goes on", async (t) => {
  const h = new Harness();
  const outcome = asWait(h.request("POST", "/v2/conformance/runsync", { query: { wait: "1000" }, body: { input: { op: "sleep", ms: 60_000 } } }));
  t.equal(outcome.deadline, h.now + ms(1000));
  h.platform.advanceTo(outcome.deadline);
  const elapsed = outcome.render(h.now);
  t.equal(elapsed.status, 200);
  matchesSchema(t, "RunsyncResponse", elapsed.body);
  t.same(body(elapsed), { id: outcome.jobId, status: "IN_QUEUE" }, "still queued behind the cold start");

  // The JS client then polls status-sync with a wait.
  const poll = asWait(h.request("GET", `/v2/conformance/status-sync/${outcome.jobId}`, { query: { wait: "5000" } }));
  h.platform.advanceTo(poll.deadline);
  const second = poll.render(h.now);
  t.same(body(second), { id: outcome.jobId, status: "IN_PROGRESS" }, "running now, not finished");
  matchesSchema(t, "RunsyncResponse", second.body);

  const last = h.settle(h.request("GET", `/v2/conformance/status-sync/${outcome.jobId}`, { query: { wait: "90000" } }));
  t.equal(last.status, 200);
  t.match(body(last), { id: outcome.jobId, status: "COMPLETED", output: { slept_ms: 60_000 } });
  matchesSchema(t, "RunsyncResponse", last.body);
});

t.test("status-sync of a job that is final already answers at once", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", { op: "echo", n: 1 });
  h.finish("conformance", id);
  const outcome = h.request("GET", `/v2/conformance/status-sync/${id}`);
  t.equal(outcome.kind, "response", "no wait");
  const r = (outcome as Extract<ApiOutcome, { kind: "response" }>).response;
  t.match(body(r), { id, status: "COMPLETED", output: { op: "echo", n: 1 } });
  matchesSchema(t, "RunsyncResponse", r.body);
  expectProblem(t, h.call("GET", "/v2/conformance/status-sync/00000000-0000-4000-8000-000000000000"), 404, "unknown job: 404 at once");
});

t.test("render of a job that was purged while waiting answers 404", async (t) => {
  const h = new Harness();
  const first = h.run("alpha-echo", { op: "sleep", ms: 60_000 });
  const outcome = asWait(h.request("POST", "/v2/alpha-echo/runsync", { query: { wait: "30000" }, body: { input: {} } }));
  t.equal(h.statusOf("alpha-echo", first), "IN_QUEUE");
  const purge = h.call("POST", "/v2/alpha-echo/purge-queue");
  t.equal(body<{ removed: number }>(purge).removed, 2);
  expectProblem(t, outcome.render(h.now), 404, "the waiting job is gone");
});

t.test("wait is validated before the body; a bad wait leaves no job", async (t) => {
  const h = new Harness();
  for (const wait of ["999", "300001", "abc", "1e4", "-1"]) {
    const r = h.call("POST", "/v2/conformance/runsync", { query: { wait }, body: { input: {} } });
    const detail = expectProblem(t, r, 400, `wait=${wait}: 400`);
    t.match(detail, /wait/);
  }
  expectProblem(t, h.call("GET", "/v2/conformance/status-sync/x", { query: { wait: "10" } }), 400, "status-sync checks wait too");
  t.equal(body<{ jobs: { inQueue: number } }>(h.call("GET", "/v2/conformance/health")).jobs.inQueue, 0, "no job was made");
  for (const wait of ["1000", "300000"]) {
    const o = h.request("POST", "/v2/conformance/runsync", { query: { wait }, body: { input: {} } });
    t.equal(o.kind, "wait", `wait=${wait} accepted`);
  }
  expectProblem(t, h.call("POST", "/v2/conformance/runsync", { body: { input: 1 } }), 400, "a bad body: 400");
  expectProblem(t, h.call("POST", "/v2/nowhere/runsync", { body: { input: {} } }), 404, "unknown endpoint: 404");
});

t.test("the wait bounds the request, not the retention: a runsync result is kept 1 minute", async (t) => {
  const h = new Harness();
  const r = h.settle(h.request("POST", "/v2/conformance/runsync", { query: { wait: "300000" }, body: { input: {} } }));
  const id = body<Job>(r).id;
  t.equal(body<Job>(r).status, "COMPLETED");
  h.advance(59_000);
  t.equal(h.statusOf("conformance", id), "COMPLETED", "still there after 59 s");
  h.advance(2_000);
  expectProblem(t, h.status("conformance", id), 404, "gone after 1 minute");
});
