import t from "tap";
import { Harness, body, expectProblem, matchesSchema } from "./test-harness.ts";

type Job = { id: string; status: string; delayTime?: number; executionTime?: number; input?: unknown; output?: unknown; error?: string; workerId?: string };

t.test("status shows the Job record as the job moves: IN_QUEUE, IN_PROGRESS, COMPLETED", async (t) => {
  const h = new Harness();
  const input = { op: "sleep", ms: 3000 };
  const id = h.run("conformance", input);

  const queued = h.status("conformance", id);
  t.equal(queued.status, 200);
  matchesSchema(t, "Job", queued.body, "queued job");
  t.same(body(queued), { id, status: "IN_QUEUE", input }, "queued: id, status and the input echoed, nothing else");

  t.ok(h.advanceUntil(() => h.statusOf("conformance", id) === "IN_PROGRESS"), "a worker takes it");
  const running = body<Job>(h.status("conformance", id));
  matchesSchema(t, "Job", running, "running job");
  t.same(running.input, input, "input echoed while in progress");
  t.type(running.delayTime, "number", "delayTime once started");
  t.ok((running.delayTime as number) > 0, "it waited for a cold start");
  t.equal(running.executionTime, undefined, "no executionTime before the end");
  t.equal(running.output, undefined);

  t.equal(h.finish("conformance", id), "COMPLETED");
  const done = body<Job>(h.status("conformance", id));
  matchesSchema(t, "Job", done, "completed job");
  t.same(Object.keys(done), ["id", "status", "delayTime", "executionTime", "output", "workerId"], "fields of a completed job, in order");
  t.equal(done.executionTime, 3000, "executionTime is the handler's time");
  t.equal(done.delayTime, running.delayTime, "delayTime unchanged");
  t.same(done.output, { slept_ms: 3000 });
  t.type(done.workerId, "string");
  t.equal(done.input, undefined, "input no longer echoed");
});

t.test("a FAILED job carries an error string and no output", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", { op: "fail", message: "boom at step 3" });
  t.equal(h.finish("conformance", id), "FAILED");
  const job = body<Job>(h.status("conformance", id));
  matchesSchema(t, "Job", job);
  t.match(job.error, /boom at step 3/);
  t.equal(job.output, undefined);
});

t.test("status of unknown, malformed and foreign-endpoint job ids answers 404 naming retention", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", {});
  const ids = ["00000000-0000-4000-8000-000000000000", "not-a-job-id", id.slice(0, -1) + (id.endsWith("0") ? "1" : "0")];
  for (const bad of ids) {
    const detail = expectProblem(t, h.status("conformance", bad), 404, `${bad}: 404`);
    t.match(detail, /expired after its retention/, "the detail says it may have expired");
  }
  expectProblem(t, h.status("alpha-echo", id), 404, "the job on another endpoint: 404");
  expectProblem(t, h.status("no-such-endpoint", id), 404, "unknown endpoint: 404");
});

t.test("a bad ttl query answers 400; a good one is accepted", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", {});
  for (const ttl of ["abc", "0", "-5", "6e3", "1.5", String(8 * 86_400_000)]) {
    const r = h.call("GET", `/v2/conformance/status/${id}`, { query: { ttl } });
    const detail = expectProblem(t, r, 400, `ttl=${ttl}: 400`);
    t.match(detail, /ttl/);
  }
  const ok = h.call("GET", `/v2/conformance/status/${id}`, { query: { ttl: "6000" } });
  t.equal(ok.status, 200);
  matchesSchema(t, "Job", ok.body);
});

t.test("a TIMED_OUT job (policy.executionTimeout) says why in error", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", { op: "sleep", ms: 20_000 }, { policy: { executionTimeout: 5000 } });
  t.equal(h.finish("conformance", id), "TIMED_OUT");
  const job = body<Job>(h.status("conformance", id));
  matchesSchema(t, "Job", job);
  t.equal(job.executionTime, 5000, "stopped at its timeout");
  t.match(job.error, /timeout/);
});

t.test("lowPriority jobs are served after every normal job of the endpoint", async (t) => {
  const h = new Harness();
  const low = h.run("alpha-echo", { op: "sleep", ms: 1000 }, { policy: { lowPriority: true } });
  const normal = [1, 2, 3, 4].map(() => h.run("alpha-echo", { op: "sleep", ms: 1000 }));
  for (const id of [low, ...normal]) t.equal(h.finish("alpha-echo", id), "COMPLETED");
  const started = (id: string): number => body<Job>(h.status("alpha-echo", id)).delayTime as number;
  const lowDelay = started(low);
  for (const id of normal) t.ok(started(id) < lowDelay, "a normal job submitted later started before the low-priority one");
});
