// The ExternalExecutor seam in virtual time: jobs of an executor endpoint start by calling the
// executor; the executor's chunks and finish land at the model's time; cancel, execution timeout
// and lifetime stop it and make its later reports stale; retry starts it again. Invariants hold.
import t from "tap";
import { ms, seconds } from "../../core/index.ts";
import { createServerlessCheckers, runCheckers } from "../invariants/serverless-checkers.ts";
import type { ServerlessEndpointConfig } from "./endpoint-state.ts";
import { ENDPOINTS, SHORT_RETENTION, makeFixture } from "./test-fixture.ts";
import type { ExternalExecutor, ExternalJob } from "./types.ts";

const REAL: ServerlessEndpointConfig = {
  id: "real",
  accountId: "acct-1",
  handler: "conformance",
  gpuTypeIds: ["A"],
  gpuCount: 1,
  workersMin: 0,
  workersMax: 2,
  idleTimeoutMs: 5000,
  scalerType: "RequestCount",
  scalerValue: 1,
  executionTimeoutMs: 10_000,
  coldStartMs: { mean: 0, cv: 0 },
  slug: null,
};

function setup() {
  const started: { ticket: number; job: ExternalJob }[] = [];
  const stopped: number[] = [];
  const executor: ExternalExecutor = {
    start: (ticket, job) => started.push({ ticket, job }),
    stop: (ticket) => stopped.push(ticket),
  };
  const f = makeFixture(3, { ...SHORT_RETENTION, executors: new Map([["real", executor]]) }, [REAL, ...ENDPOINTS], { A: 10, B: 10 });
  const checkers = createServerlessCheckers();
  const submit = (input: unknown, extra: object = {}): string => {
    const r = f.model.submit({ endpointId: "real", accountId: "acct-1", input, ...extra });
    if (!r.ok) throw new Error(r.message);
    return r.jobId;
  };
  const status = (id: string) => {
    const r = f.model.status("real", "acct-1", id);
    return r.ok ? r.job : undefined;
  };
  const check = () => runCheckers(checkers, { serverless: f.model.inspect(), transitions: f.transitions.splice(0) });
  return { ...f, started, stopped, submit, status, check };
}

t.test("start, stream and finish at the executor's time", async (t) => {
  const s = setup();
  const id = s.submit({ text: "hi" });
  s.engine.runFor(0); // the worker's (zero) cold start
  t.equal(s.started.length, 1);
  t.match(s.started[0].job, { id, input: { text: "hi" }, endpointId: "real", workerId: String });
  t.equal(s.status(id)?.status, "IN_PROGRESS");
  s.engine.runFor(ms(300));
  t.ok(s.model.externalChunk(s.started[0].ticket, "one"));
  const read = s.model.stream("real", "acct-1", id);
  t.match(read, { ok: true, status: "IN_PROGRESS", stream: [{ output: "one" }] });
  s.engine.runFor(ms(200));
  t.ok(s.model.externalFinish(s.started[0].ticket, { ok: true, output: ["one"] }));
  t.match(s.status(id), { status: "COMPLETED", output: ["one"], executionTime: 500 });
  t.notOk(s.model.externalFinish(s.started[0].ticket, { ok: true, output: 1 }), "a ticket finishes once");
  t.same(s.check(), []);

  const failing = s.submit({});
  s.engine.runFor(0);
  t.ok(s.model.externalFinish(s.started[1].ticket, { ok: false, error: "boom" }));
  t.match(s.status(failing), { status: "FAILED", error: "boom" });
  t.match(s.model.retry("real", "acct-1", failing), { ok: true });
  s.engine.runFor(0);
  t.equal(s.started.length, 3, "a retry starts the handler again");
  t.not(s.started[2].ticket, s.started[1].ticket, "with a new ticket");
  t.same(s.stopped, []);
  t.equal(s.model.externalRunning, 1);
  t.same(s.check(), []);
});

t.test("cancel, execution timeout and lifetime stop the executor", async (t) => {
  const s = setup();
  const a = s.submit({});
  s.engine.runFor(0);
  t.match(s.model.cancel("real", "acct-1", a), { ok: true, status: "CANCELLED" });
  t.same(s.stopped, [s.started[0].ticket]);
  t.notOk(s.model.externalFinish(s.started[0].ticket, { ok: true, output: 1 }), "a stopped ticket's report is ignored");
  t.equal(s.status(a)?.status, "CANCELLED");

  const b = s.submit({}, { policy: { executionTimeout: 5000 } });
  s.engine.runFor(seconds(5));
  t.match(s.status(b), { status: "TIMED_OUT", error: /execution timeout/ });
  t.same(s.stopped, [s.started[0].ticket, s.started[1].ticket]);

  const c = s.submit({}, { policy: { ttl: 2000 } });
  s.engine.runFor(seconds(3));
  t.equal(s.status(c), undefined, "past its ttl the job is gone");
  t.equal(s.stopped.length, 3);
  t.equal(s.model.externalRunning, 0);
  t.match(s.model.health("real", "acct-1"), { ok: true, health: { workers: { running: 0 } } });
  t.same(s.check(), []);
});

t.test("pull mode: jobs wait for an outside worker's take, start on its name, and its stand-in goes with the job", async (t) => {
  const started: { ticket: number; job: ExternalJob }[] = [];
  const stopped: number[] = [];
  const executor: ExternalExecutor = { pull: true, start: (ticket, job) => started.push({ ticket, job }), stop: (ticket) => stopped.push(ticket) };
  const f = makeFixture(3, { ...SHORT_RETENTION, executors: new Map([["real", executor]]) }, [{ ...REAL, workersMin: 1 }, ...ENDPOINTS], { A: 10, B: 10 });
  const checkers = createServerlessCheckers();
  const check = () => runCheckers(checkers, { serverless: f.model.inspect(), transitions: f.transitions.splice(0) });
  const ids: string[] = [];
  for (const input of [1, 2, 3]) {
    const r = f.model.submit({ endpointId: "real", accountId: "acct-1", input });
    if (!r.ok) throw new Error(r.message);
    ids.push(r.jobId);
  }
  f.engine.runFor(seconds(30));
  t.equal(started.length, 0, "no model worker takes a pull-mode job");
  t.equal(f.model.workersOf(f.model.endpointIndex("real")).length, 0, "workersMin starts nobody");
  t.equal(f.model.queuedCount("real"), 3);
  t.same(f.model.externalTake("alpha-echo", "w-1", 5), [], "not a pull-mode endpoint");
  const tickets = f.model.externalTake("real", "w-1", 2);
  t.equal(tickets.length, 2);
  t.same(started.map((s) => s.job.id), ids.slice(0, 2), "oldest first");
  t.same(started.map((s) => s.job.workerId), ["w-1", "w-1"], "the outside worker's name");
  const st = f.model.status("real", "acct-1", ids[0]);
  t.match(st, { ok: true, job: { status: "IN_PROGRESS", workerId: "w-1", delayTime: 30_000 } });
  t.equal(f.model.queuedCount("real"), 1);
  t.ok(f.model.externalFinish(tickets[0], { ok: true, output: "done" }));
  t.match(f.model.status("real", "acct-1", ids[0]), { ok: true, job: { status: "COMPLETED", output: "done" } });
  t.equal(f.model.queuedCount("real"), 1, "a finished job does not pull the next one by itself");
  t.equal(f.model.workersOf(f.model.endpointIndex("real")).length, 1, "one stand-in for the job still running");
  f.model.cancel("real", "acct-1", ids[1]);
  t.same(stopped, [tickets[1]], "cancel stops the outside execution");
  t.equal(f.model.workersOf(f.model.endpointIndex("real")).length, 0);
  t.same(f.model.externalTake("real", "w-2", 5).length, 1);
  t.same(f.model.externalTake("real", "w-2", 5), [], "the queue is empty");
  t.same(check(), []);
});

t.test("outside code is bounded like a plan: stream and output within maxOutputBytes, else the job fails saying so", async (t) => {
  const started: { ticket: number; job: ExternalJob }[] = [];
  const executor: ExternalExecutor = { pull: true, start: (ticket, job) => started.push({ ticket, job }), stop: () => undefined };
  const f = makeFixture(3, { ...SHORT_RETENTION, maxOutputBytes: 1000, executors: new Map([["real", executor]]) }, [REAL, ...ENDPOINTS], { A: 10, B: 10 });
  const ids = [1, 2, 3].map((input) => {
    const r = f.model.submit({ endpointId: "real", accountId: "acct-1", input });
    if (!r.ok) throw new Error(r.message);
    return r.jobId;
  });
  const [a, b, c] = f.model.externalTake("real", "w", 3);
  t.ok(f.model.externalChunk(a, "x".repeat(600)));
  t.notOk(f.model.externalChunk(a, "x".repeat(600)), "the second chunk would pass the bound");
  t.ok(f.model.externalProgress(a, "step 1"));
  t.match(f.model.status("real", "acct-1", ids[0]), { ok: true, job: { status: "IN_PROGRESS", output: "step 1" } }, "progress shows while it runs");
  t.ok(f.model.externalFinish(a, { ok: true, output: "y".repeat(600) }));
  t.match(f.model.status("real", "acct-1", ids[0]), { ok: true, job: { status: "FAILED", error: /1000|limit|max/i } }, "stream plus output over the bound");
  t.ok(f.model.externalFinish(b, { ok: false, error: "e".repeat(5000) }));
  t.match(f.model.status("real", "acct-1", ids[1]), { ok: true, job: { status: "FAILED", error: /1000|limit|max/i } }, "an error string is bounded too");
  t.ok(f.model.externalFinish(c, { ok: true, output: { fine: true } }));
  t.match(f.model.status("real", "acct-1", ids[2]), { ok: true, job: { status: "COMPLETED", output: { fine: true } } });
  t.notOk(f.model.externalProgress(c, "late"), "a finished ticket takes no progress");
});
