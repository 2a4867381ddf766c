import t from "tap";
import { Harness, body, expectProblem, matchesSchema } from "./test-harness.ts";

type Job = { id: string; status: string; output?: unknown; error?: string; input?: unknown; executionTime?: number };

t.test("cancel of a queued job: {id, status: CANCELLED}, and it never runs", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", { op: "sleep", ms: 1000 });
  t.equal(h.statusOf("conformance", id), "IN_QUEUE");
  const r = h.call("POST", `/v2/conformance/cancel/${id}`);
  t.equal(r.status, 200);
  matchesSchema(t, "CancelResponse", r.body);
  t.same(body(r), { id, status: "CANCELLED" });
  h.advance(600_000);
  const job = body<Job>(h.status("conformance", id));
  t.equal(job.status, "CANCELLED", "still cancelled ten minutes later");
  t.equal(job.output, undefined);
  t.equal(job.executionTime, undefined, "it never started");
});

t.test("cancel of a running job stops it; it never completes afterwards", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", { op: "sleep", ms: 10_000 });
  t.ok(h.advanceUntil(() => h.statusOf("conformance", id) === "IN_PROGRESS"));
  const r = h.call("POST", `/v2/conformance/cancel/${id}`);
  t.same(body(r), { id, status: "CANCELLED" });
  h.advance(60_000);
  t.equal(h.statusOf("conformance", id), "CANCELLED");
  const health = body<{ jobs: { completed: number; inProgress: number } }>(h.call("GET", "/v2/conformance/health"));
  t.equal(health.jobs.completed, 0, "nothing completed");
  t.equal(health.jobs.inProgress, 0);
});

t.test("cancel of a final job answers 409; of an unknown job 404", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", {});
  h.finish("conformance", id);
  const detail = expectProblem(t, h.call("POST", `/v2/conformance/cancel/${id}`), 409);
  t.match(detail, /COMPLETED/);
  const cancelled = h.run("conformance", { op: "sleep", ms: 5000 });
  h.call("POST", `/v2/conformance/cancel/${cancelled}`);
  expectProblem(t, h.call("POST", `/v2/conformance/cancel/${cancelled}`), 409, "cancelling twice: 409");
  expectProblem(t, h.call("POST", "/v2/conformance/cancel/00000000-0000-4000-8000-000000000000"), 404);
});

t.test("cancel and purge ignore whatever body they are sent", async (t) => {
  const h = new Harness();
  for (const b of [undefined, {}, { reason: "not needed" }, "text", [1]]) {
    const id = h.run("conformance", { op: "sleep", ms: 5000 });
    t.same(body(h.call("POST", `/v2/conformance/cancel/${id}`, { body: b })), { id, status: "CANCELLED" }, `cancel with body ${JSON.stringify(b)}`);
    t.equal(h.call("POST", "/v2/conformance/purge-queue", { body: b }).status, 200, `purge with body ${JSON.stringify(b)}`);
  }
});

t.test("retry: only FAILED or TIMED_OUT (409 otherwise); same id, original input, output removed", async (t) => {
  const h = new Harness();
  const ok = h.run("conformance", { op: "sleep", ms: 2000 });
  t.equal(h.statusOf("conformance", ok), "IN_QUEUE");
  t.match(expectProblem(t, h.call("POST", `/v2/conformance/retry/${ok}`), 409, "retry of a queued job: 409"), /IN_QUEUE/);
  h.advanceUntil(() => h.statusOf("conformance", ok) === "IN_PROGRESS");
  expectProblem(t, h.call("POST", `/v2/conformance/retry/${ok}`), 409, "retry of a running job: 409");
  h.finish("conformance", ok);
  t.match(expectProblem(t, h.call("POST", `/v2/conformance/retry/${ok}`), 409, "retry of a completed job: 409"), /COMPLETED/);
  const cancelled = h.run("conformance", {});
  h.call("POST", `/v2/conformance/cancel/${cancelled}`);
  expectProblem(t, h.call("POST", `/v2/conformance/retry/${cancelled}`), 409, "retry of a cancelled job: 409");

  const input = { op: "fail", message: "flaky" };
  const failed = h.run("conformance", input);
  t.equal(h.finish("conformance", failed), "FAILED");
  const r = h.call("POST", `/v2/conformance/retry/${failed}`);
  t.equal(r.status, 200);
  matchesSchema(t, "RetryResponse", r.body);
  t.same(body(r), { id: failed, status: "IN_QUEUE" }, "same id, back in the queue");
  const requeued = body<Job>(h.status("conformance", failed));
  // An idle worker may take it inside the retry itself.
  t.match(requeued.status, /^(IN_QUEUE|IN_PROGRESS)$/, "requeued");
  t.same(requeued.input, input, "original input");
  t.equal(requeued.error, undefined, "previous error removed");
  t.equal(requeued.output, undefined);

  const timedOut = h.run("conformance", { op: "sleep", ms: 10_000 }, { policy: { executionTimeout: 5000 } });
  t.equal(h.finish("conformance", timedOut), "TIMED_OUT");
  t.same(body(h.call("POST", `/v2/conformance/retry/${timedOut}`)), { id: timedOut, status: "IN_QUEUE" }, "TIMED_OUT can be retried");
  t.equal(h.finish("conformance", timedOut), "TIMED_OUT", "and times out again on the same input");

  const health = body<{ jobs: { retried: number } }>(h.call("GET", "/v2/conformance/health"));
  t.equal(health.jobs.retried, 2, "health counts the retried jobs");
});

t.test("purge-queue removes only queued jobs; running ones continue", async (t) => {
  const h = new Harness();
  // alpha-echo has at most 2 workers.
  const ids = [1, 2, 3, 4, 5].map(() => h.run("alpha-echo", { op: "sleep", ms: 30_000 }));
  t.ok(h.advanceUntil(() => ids.filter((id) => h.statusOf("alpha-echo", id) === "IN_PROGRESS").length === 2), "two running");
  const running = ids.filter((id) => h.statusOf("alpha-echo", id) === "IN_PROGRESS");
  const queued = ids.filter((id) => h.statusOf("alpha-echo", id) === "IN_QUEUE");
  t.equal(queued.length, 3);
  const r = h.call("POST", "/v2/alpha-echo/purge-queue");
  t.equal(r.status, 200);
  matchesSchema(t, "PurgeResponse", r.body);
  t.equal(body<{ removed: number }>(r).removed, 3, "removed counts the queued jobs");
  t.type(body<{ status: string }>(r).status, "string");
  for (const id of queued) expectProblem(t, h.status("alpha-echo", id), 404, "a purged job is gone");
  for (const id of running) t.equal(h.finish("alpha-echo", id), "COMPLETED", "a running job finishes");
  t.equal(body<{ removed: number }>(h.call("POST", "/v2/alpha-echo/purge-queue")).removed, 0, "nothing left to purge");
  expectProblem(t, h.call("POST", "/v2/nowhere/purge-queue"), 404);
});
