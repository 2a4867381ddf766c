import t from "tap";
import { Harness, body, expectProblem } from "./test-harness.ts";

t.test("a run result is kept 30 minutes after completion, then 404", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", {});
  t.equal(h.finish("conformance", id), "COMPLETED");
  h.advance(29 * 60_000);
  t.equal(h.statusOf("conformance", id), "COMPLETED", "there after 29 minutes");
  h.advance(61_000);
  const detail = expectProblem(t, h.status("conformance", id), 404, "gone after 30 minutes");
  t.match(detail, /expired after its retention/);
  expectProblem(t, h.call("GET", `/v2/conformance/stream/${id}`), 404, "stream: 404");
  expectProblem(t, h.call("POST", `/v2/conformance/cancel/${id}`), 404, "cancel: 404");
  expectProblem(t, h.call("GET", `/v2/conformance/status-sync/${id}`), 404, "status-sync: 404");
});

t.test("a runsync result is kept 1 minute", async (t) => {
  const h = new Harness();
  const r = h.settle(h.request("POST", "/v2/conformance/runsync", { body: { input: { op: "fail", message: "m" } } }));
  const id = body<{ id: string; status: string }>(r).id;
  t.equal(body<{ status: string }>(r).status, "FAILED");
  h.advance(55_000);
  t.equal(h.statusOf("conformance", id), "FAILED");
  h.advance(6_000);
  expectProblem(t, h.status("conformance", id), 404);
  expectProblem(t, h.call("POST", `/v2/conformance/retry/${id}`), 404, "an expired job cannot be retried: 404");
});

t.test("status?ttl= sets the time-to-live from the request", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", {});
  h.finish("conformance", id);
  t.equal(h.call("GET", `/v2/conformance/status/${id}`, { query: { ttl: "6000" } }).status, 200);
  h.advance(5_000);
  t.equal(h.statusOf("conformance", id), "COMPLETED", "alive 5 s later");
  h.advance(1_500);
  expectProblem(t, h.status("conformance", id), 404, "gone after 6 s");
});

t.test("status?ttl= on an unfinished job counts from the request but never removes it before it finishes", async (t) => {
  const h = new Harness();
  const t0 = h.now;
  const id = h.run("conformance", { op: "sleep", ms: 20_000 });
  t.equal(h.call("GET", `/v2/conformance/status/${id}`, { query: { ttl: "30000" } }).status, 200);
  t.ok(h.advanceUntil(() => h.statusOf("conformance", id) === "COMPLETED", 29_000), "completes within the ttl");
  h.platform.advanceTo(t0 + 29_000_000);
  t.equal(h.statusOf("conformance", id), "COMPLETED", "kept until the ttl");
  h.platform.advanceTo(t0 + 31_000_000);
  expectProblem(t, h.status("conformance", id), 404, "gone 30 s after the request");

  const late = h.run("conformance", { op: "sleep", ms: 20_000 });
  h.call("GET", `/v2/conformance/status/${late}`, { query: { ttl: "6000" } });
  h.advance(10_000);
  t.match(h.statusOf("conformance", late), /^IN_(QUEUE|PROGRESS)$/, "past its ttl but unfinished: still there");
  h.advanceUntil(() => h.statusOf("conformance", late) !== "IN_PROGRESS" && h.statusOf("conformance", late) !== "IN_QUEUE");
  expectProblem(t, h.status("conformance", late), 404, "gone as soon as it finished");
});

t.test("policy.ttl replaces retention, counted from submission", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", {}, { policy: { ttl: 20_000 } });
  t.equal(h.finish("conformance", id), "COMPLETED");
  h.advance(20_000);
  expectProblem(t, h.status("conformance", id), 404, "gone 20 s after submission, not 30 minutes after completion");
});

t.test("default policy is not forwarded: run keeps its 30 minutes, runsync its 1 minute", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", {}, { policy: { lowPriority: false } });
  h.finish("conformance", id);
  h.advance(10 * 60_000);
  t.equal(h.statusOf("conformance", id), "COMPLETED", "a policy without ttl keeps the run retention");
});
