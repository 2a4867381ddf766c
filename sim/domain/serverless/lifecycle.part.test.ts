import t from "tap";
import type { Test } from "tap";
import { minutes, ms, seconds } from "../../core/index.ts";
import { createServerlessCheckers, runCheckers } from "../invariants/serverless-checkers.ts";
import { ENDPOINTS, makeFixture } from "./test-fixture.ts";
import type { Fixture } from "./test-fixture.ts";
import type { ServerlessEndpointConfig } from "./endpoint-state.ts";
import type { JobView } from "./types.ts";

/** One always-warm worker, instant cold start: the job lifecycle without scaling noise. */
const WARM: ServerlessEndpointConfig = {
  id: "warm",
  accountId: "acct-1",
  handler: "conformance",
  gpuTypeIds: ["A"],
  gpuCount: 1,
  workersMin: 1,
  workersMax: 1,
  idleTimeoutMs: 5000,
  scalerType: "RequestCount",
  scalerValue: 1,
  executionTimeoutMs: 600_000,
  coldStartMs: { mean: 0, cv: 0 },
  slug: null,
};

function warm(options = {}): Fixture & { run: (input: unknown, extra?: object) => string; st: (id: string) => JobView | undefined } {
  const f = makeFixture(7, options, [WARM, ...ENDPOINTS], { A: 10, B: 10 });
  f.engine.runFor(0); // the warm worker boots
  const run = (input: unknown, extra: object = {}): string => {
    const r = f.model.submit({ endpointId: "warm", accountId: "acct-1", input, ...extra });
    if (!r.ok) throw new Error(r.message);
    return r.jobId;
  };
  const st = (id: string): JobView | undefined => {
    const r = f.model.status("warm", "acct-1", id);
    return r.ok ? r.job : undefined;
  };
  return { ...f, run, st };
}

function clean(t: Test, f: Fixture): void {
  const problems = runCheckers(createServerlessCheckers(), { serverless: f.model.inspect(), transitions: f.transitions });
  t.same(problems, [], "invariants hold");
}

t.test("IN_QUEUE → IN_PROGRESS → COMPLETED with delayTime, executionTime, workerId and output", async (t) => {
  const f = warm();
  const a = f.run({ op: "sleep", ms: 1000 });
  const b = f.run({ op: "sleep", ms: 500 });
  t.equal(f.st(a)?.status, "IN_PROGRESS", "an idle worker takes a job at once");
  t.same(f.st(b)?.input, { op: "sleep", ms: 500 }, "input echoed while queued");
  t.equal(f.st(b)?.status, "IN_QUEUE");
  f.engine.runFor(ms(1000));
  const done = f.st(a);
  t.match(done, { status: "COMPLETED", delayTime: 0, executionTime: 1000, output: { slept_ms: 1000 } });
  t.match(done?.workerId, /^[a-z0-9]{14}$/);
  t.equal(done?.input, undefined, "input not echoed once final");
  t.match(f.st(b), { status: "IN_PROGRESS", delayTime: 1000 });
  f.engine.runFor(ms(500));
  t.match(f.st(b), { status: "COMPLETED", executionTime: 500, workerId: done?.workerId });
  const h = f.model.health("warm", "acct-1");
  t.match(h.ok && h.health, { jobs: { completed: 2, failed: 0, inProgress: 0, inQueue: 0, retried: 0 }, workers: { idle: 1, ready: 1, running: 0 } });
  clean(t, f);
});

t.test("FAILED, retry with the same id and input, output removed, counted in retried", async (t) => {
  const f = warm();
  const id = f.run({ op: "fail", message: "boom" });
  f.engine.runFor(0);
  t.match(f.st(id), { status: "FAILED", error: "boom" });
  const blocker = f.run({ op: "sleep", ms: 1000 });
  const r = f.model.retry("warm", "acct-1", id);
  t.same(r, { ok: true, jobId: id, status: "IN_QUEUE" });
  const queued = f.st(id);
  t.equal(queued?.status, "IN_QUEUE");
  t.equal(queued?.error, undefined, "previous error removed");
  t.same(queued?.input, { op: "fail", message: "boom" }, "original input");
  const h = f.model.health("warm", "acct-1");
  t.match(h.ok && h.health.jobs, { retried: 1, failed: 0, inQueue: 1, inProgress: 1 });
  f.engine.runFor(seconds(1));
  t.match(f.st(id), { status: "FAILED", error: "boom", retries: 1 }, "the conformance handler fails again, same message");
  t.equal(f.st(blocker)?.status, "COMPLETED");
  const again = f.model.retry("warm", "acct-1", blocker);
  t.match(again, { ok: false, error: "conflict", status: "COMPLETED" }, "retry of a COMPLETED job is a conflict");
  clean(t, f);
});

t.test("TIMED_OUT by the policy's execution timeout, and retry from it", async (t) => {
  const f = warm();
  const id = f.run({ op: "sleep", ms: 9000 }, { policy: { executionTimeout: 5000 } });
  f.engine.runFor(ms(4999));
  t.equal(f.st(id)?.status, "IN_PROGRESS");
  f.engine.runFor(ms(1));
  t.match(f.st(id), { status: "TIMED_OUT", executionTime: 5000 });
  t.match(f.st(id)?.error, /timeout/);
  t.ok(f.model.retry("warm", "acct-1", id).ok);
  f.engine.runFor(seconds(6));
  t.equal(f.st(id)?.status, "TIMED_OUT");
  const h = f.model.health("warm", "acct-1");
  t.match(h.ok && h.health.jobs, { failed: 1, retried: 1 });
  clean(t, f);
});

t.test("cancel: a queued job is removed, a running one stopped; neither ever completes", async (t) => {
  const f = warm();
  const running = f.run({ op: "sleep", ms: 1000 });
  const queued = f.run({ op: "sleep", ms: 1000 });
  const next = f.run({ op: "sleep", ms: 10 });
  t.same(f.model.cancel("warm", "acct-1", queued), { ok: true, jobId: queued, status: "CANCELLED" });
  f.engine.runFor(ms(300));
  t.ok(f.model.cancel("warm", "acct-1", running).ok);
  t.match(f.st(running), { status: "CANCELLED", executionTime: 300 });
  t.equal(f.st(next)?.status, "IN_PROGRESS", "the freed worker takes the next job at once");
  f.engine.runFor(seconds(5));
  t.equal(f.st(running)?.status, "CANCELLED", "its finish event never fires");
  t.equal(f.st(queued)?.status, "CANCELLED");
  t.equal(f.st(next)?.status, "COMPLETED");
  t.match(f.model.cancel("warm", "acct-1", next), { ok: false, error: "conflict", status: "COMPLETED" });
  t.equal(f.transitions.filter((x) => x.to === "COMPLETED").length, 1, "only the third job completed");
  clean(t, f);
});

t.test("purge-queue removes only queued jobs of the caller and returns the count", async (t) => {
  const f = warm();
  const running = f.run({ op: "sleep", ms: 1000 });
  f.run({});
  f.run({}, { policy: { lowPriority: true } });
  t.same(f.model.purgeQueue("warm", "acct-1"), { ok: true, removed: 2, status: "completed" });
  t.equal(f.st(running)?.status, "IN_PROGRESS");
  t.same(f.model.purgeQueue("warm", "acct-1"), { ok: true, removed: 0, status: "completed" });
  // On a shared endpoint each account purges only its own jobs.
  const mine = f.model.submit({ endpointId: "shared-model", accountId: "acct-1", input: {} });
  const theirs = f.model.submit({ endpointId: "shared-model", accountId: "acct-2", input: {} });
  t.same(f.model.purgeQueue("shared-model", "acct-2"), { ok: true, removed: 1, status: "completed" });
  t.ok(mine.ok && f.model.status("shared-model", "acct-1", mine.jobId).ok);
  t.ok(theirs.ok && !f.model.status("shared-model", "acct-2", theirs.jobId).ok);
  clean(t, f);
});

t.test("low-priority jobs run after every normal job", async (t) => {
  const f = warm();
  f.run({ op: "sleep", ms: 100 });
  const low = f.run({ op: "sleep", ms: 100 }, { policy: { lowPriority: true } });
  const normal = f.run({ op: "sleep", ms: 100 });
  f.engine.runFor(ms(100));
  t.equal(f.st(normal)?.status, "IN_PROGRESS");
  t.equal(f.st(low)?.status, "IN_QUEUE");
  f.engine.runFor(ms(200));
  t.equal(f.st(low)?.status, "COMPLETED");
});

t.test("retention: 30 minutes after a run, 1 minute after a runsync, then gone", async (t) => {
  const f = warm({});
  const run = f.run({});
  const sync = f.run({}, { mode: "runsync" });
  f.engine.runFor(0);
  f.engine.runFor(minutes(1) - 1);
  t.equal(f.st(sync)?.status, "COMPLETED", "runsync result at 1 min - 1 us");
  f.engine.runFor(1);
  t.equal(f.st(sync), undefined, "gone at 1 min");
  t.match(f.model.retry("warm", "acct-1", sync), { ok: false, error: "not-found" });
  f.engine.runFor(minutes(29) - 1);
  t.equal(f.st(run)?.status, "COMPLETED");
  f.engine.runFor(1);
  t.equal(f.st(run), undefined, "gone at 30 min");
  t.equal(f.model.stats().heldJobs, 0, "and swept from memory");
  clean(t, f);
});

t.test("policy.ttl counts from submission and replaces retention, even for an unfinished job", async (t) => {
  const f = warm({});
  const long = f.run({}, { policy: { ttl: 3_600_000 } });
  const short = f.run({ op: "sleep", ms: 60_000 }, { policy: { ttl: 20_000 } });
  f.engine.runFor(minutes(50));
  t.equal(f.st(long)?.status, "COMPLETED", "kept past 30 minutes");
  t.equal(f.st(short), undefined, "dropped at 20 s while running");
  t.equal(f.transitions.find((x) => x.to === "(gone)")?.from, "IN_PROGRESS");
  f.engine.runFor(minutes(10));
  t.equal(f.st(long), undefined, "gone at submission + 1 h");
  clean(t, f);
});

t.test("status ttl: the result expires ttl ms after that status call", async (t) => {
  const f = warm({});
  const done = f.run({});
  const later = f.run({ op: "sleep", ms: 10_000 });
  f.engine.runFor(seconds(1));
  const r = f.model.status("warm", "acct-1", done, { ttlMs: 6000 });
  t.ok(r.ok);
  f.engine.runFor(ms(5999));
  t.ok(f.st(done));
  f.engine.runFor(ms(1));
  t.equal(f.st(done), undefined, "6 s after the call");
  // On an unfinished job (t = 7 s) the deadline applies once it is final (10 s): here at 27 s.
  t.ok(f.model.status("warm", "acct-1", later, { ttlMs: 20_000 }).ok);
  f.engine.runFor(seconds(20) - 1);
  t.equal(f.st(later)?.status, "COMPLETED");
  f.engine.runFor(1);
  t.equal(f.st(later), undefined);
  clean(t, f);
});

t.test("stream: emissions appear at their times, split at 1 MB, each returned once", async (t) => {
  const f = warm();
  const id = f.run({ op: "stream", chunks: 3, bytes: 1_500_000, ms: 100 });
  const read = () => {
    const r = f.model.stream("warm", "acct-1", id);
    if (!r.ok) throw new Error(r.message);
    return r;
  };
  t.same(read().stream, [], "nothing before the first emission");
  f.engine.runFor(ms(100));
  let r = read();
  t.equal(r.status, "IN_PROGRESS");
  t.same(r.stream.map((c) => (c.output as string).length), [1_000_000, 500_000]);
  t.equal(read().stream.length, 0, "a second read returns only new chunks");
  f.engine.runFor(ms(200));
  r = read();
  t.equal(r.status, "COMPLETED");
  t.equal(r.stream.length, 4);
  t.equal(read().stream.length, 0);
  t.equal((r.stream[0].output as string).slice(0, 3), "abc");
  const out = f.st(id)?.output as string[];
  t.equal(out.length, 3);
});

t.test("onFinal fires once in the finishing event; webhooks wait in a bounded outbox", async (t) => {
  const f = warm({ webhookOutboxLimit: 2 });
  const seen: (string | undefined)[] = [];
  const id = f.run({ op: "sleep", ms: 50 }, { webhook: "https://example.test/hook" });
  const listener = (job: JobView | undefined) => seen.push(`${job?.status}@${f.engine.now}`);
  t.ok(f.model.onFinal("warm", "acct-1", id, listener).ok);
  const other = f.run({ op: "sleep", ms: 10 });
  t.ok(f.model.onFinal("warm", "acct-1", other, listener).ok);
  t.ok(f.model.offFinal(other, listener));
  f.engine.runFor(seconds(1));
  t.same(seen, ["COMPLETED@50000"]);
  t.match(f.model.onFinal("warm", "acct-1", id, listener), { ok: false, error: "already-final" });
  const hooks = f.model.drainWebhooks();
  t.equal(hooks.length, 1);
  t.match(hooks[0], { url: "https://example.test/hook", endpointId: "warm", at: 50_000, job: { id, status: "COMPLETED" } });
  for (let i = 0; i < 3; i++) f.run({}, { webhook: "https://example.test/h" });
  f.engine.runFor(seconds(1));
  t.equal(f.model.drainWebhooks().length, 2);
  t.equal(f.model.webhooksDropped, 1);
  // A job dropped unfinished tells its listeners with undefined.
  const doomed = f.run({ op: "sleep", ms: 60_000 }, { policy: { ttl: 10_000 } });
  let told: unknown = "never";
  f.model.onFinal("warm", "acct-1", doomed, (job) => (told = job));
  f.engine.runFor(seconds(11));
  t.equal(told, undefined);
});

t.test("ownership: another account sees nothing; private endpoints are forbidden; slugs resolve", async (t) => {
  const f = warm();
  const id = f.run({});
  t.match(f.model.status("warm", "acct-2", id), { ok: false, error: "forbidden" });
  t.match(f.model.submit({ endpointId: "nope", accountId: "acct-1", input: {} }), { ok: false, error: "unknown-endpoint" });
  const shared = f.model.submit({ endpointId: "shared-model", accountId: "acct-1", input: {} });
  t.ok(shared.ok);
  if (shared.ok) {
    t.match(f.model.status("shared-model", "acct-2", shared.jobId), { ok: false, error: "not-found" });
    t.ok(f.model.status("ep-shared", "acct-1", shared.jobId).ok, "id and slug name the same endpoint");
    t.match(f.model.status("warm", "acct-1", shared.jobId), { ok: false, error: "not-found" }, "a job belongs to its endpoint");
  }
  t.match(f.model.status("warm", "acct-1", "garbage"), { ok: false, error: "not-found" });
});

t.test("a GPU shortage throttles workers and shows as queue delay until GPUs are freed", async (t) => {
  const f = makeFixture(3, {}, ENDPOINTS, { A: 0, B: 4 });
  const id = f.model.submit({ endpointId: "shared-model", accountId: "acct-1", input: { op: "sleep", ms: 100 } });
  if (!id.ok) throw new Error();
  f.engine.runFor(seconds(30));
  let h = f.model.health("shared-model", "acct-1");
  t.match(h.ok && h.health, { workers: { throttled: 1, initializing: 0, ready: 0 }, jobs: { inQueue: 1 } });
  f.pool.give("A", 1);
  t.match(f.model.health("shared-model", "acct-1"), { ok: true, health: { workers: { throttled: 0, initializing: 1 } } });
  f.engine.runFor(seconds(1.5));
  const job = f.model.status("shared-model", "acct-1", id.jobId);
  t.match(job.ok && job.job, { status: "COMPLETED" });
  t.ok(job.ok && (job.job.delayTime ?? 0) >= 30_000, "the shortage is in delayTime");
  h = f.model.health("shared-model", "acct-1");
  t.match(h.ok && h.health.workers, { throttled: 0, idle: 1 });
  f.engine.runFor(seconds(5));
  t.equal(f.pool.available("A"), 1, "the idle worker timed out and gave its GPU back");
  clean(t, f);
});

t.test("scalers: RequestCount follows ceil((queued + running) / N); QueueDelay adds a worker per delay", async (t) => {
  const f = makeFixture(5, {}, ENDPOINTS, { A: 10, B: 20 });
  const health = (ep: string, acct: string) => {
    const h = f.model.health(ep, acct);
    if (!h.ok) throw new Error();
    return h.health;
  };
  t.equal(health("ep-count", "acct-2").workers.initializing, 1, "workersMin boots at start");
  for (let i = 0; i < 5; i++) f.model.submit({ endpointId: "ep-count", accountId: "acct-2", input: { op: "sleep", ms: 20_000 } });
  t.equal(health("ep-count", "acct-2").workers.initializing, 3, "ceil(5 / 2) = 3 workers");
  for (let i = 0; i < 6; i++) f.model.submit({ endpointId: "ep-queue", accountId: "acct-1", input: { op: "sleep", ms: 20_000 } });
  t.equal(health("ep-queue", "acct-1").workers.initializing, 1, "QueueDelay: with zero workers the first request adds one");
  f.engine.runFor(seconds(1) - 1);
  t.equal(f.model.inspect().endpoints[0].workers, 1, "then jobs must wait scalerValue seconds");
  f.engine.runFor(1);
  t.equal(f.model.inspect().endpoints[0].workers, 2);
  f.engine.runFor(seconds(1));
  t.equal(f.model.inspect().endpoints[0].workers, 3);
  f.engine.runFor(seconds(10));
  t.equal(f.model.inspect().endpoints[0].workers, 3, "up to workersMax");
  f.engine.runFor(minutes(5));
  t.equal(f.model.inspect().endpoints[0].workers, 0, "idle workers time out down to workersMin (0)");
  t.equal(f.model.inspect().endpoints[1].workers, 1, "and to workersMin (1)");
  clean(t, f);
});
