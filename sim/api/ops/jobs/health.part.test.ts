import t from "tap";
import { Harness, body, expectProblem, matchesSchema } from "./test-harness.ts";

type Health = {
  jobs: { completed: number; failed: number; inProgress: number; inQueue: number; retried: number };
  workers: { idle: number; running: number; initializing: number; ready: number; throttled: number; unhealthy: number };
};

/** Health counts derived from reading every job's status. */
function countStatuses(h: Harness, ids: readonly string[]): Omit<Health["jobs"], "retried"> {
  const n = { completed: 0, failed: 0, inProgress: 0, inQueue: 0 };
  for (const id of ids) {
    const s = h.statusOf("alpha-echo", id);
    if (s === "COMPLETED") n.completed++;
    else if (s === "FAILED" || s === "TIMED_OUT") n.failed++;
    else if (s === "IN_PROGRESS") n.inProgress++;
    else if (s === "IN_QUEUE") n.inQueue++;
  }
  return n;
}

function health(h: Harness): Health {
  const r = h.call("GET", "/v2/alpha-echo/health");
  if (r.status !== 200) throw new Error(`health answered ${r.status}`);
  return r.body as Health;
}

t.test("health counters agree with the jobs made, at every step", async (t) => {
  const h = new Harness();
  const empty = h.call("GET", "/v2/alpha-echo/health");
  matchesSchema(t, "HealthResponse", empty.body);
  t.same(body(empty), {
    jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 },
    workers: { idle: 0, running: 0, initializing: 0, ready: 0, throttled: 0, unhealthy: 0 },
  });
  t.same(Object.keys(body<Health>(empty).workers), ["idle", "running", "initializing", "ready", "throttled", "unhealthy"]);

  const ids = [
    h.run("alpha-echo", { op: "sleep", ms: 1000 }),
    h.run("alpha-echo", { op: "sleep", ms: 2000 }),
    h.run("alpha-echo", { op: "fail", message: "x" }),
    h.run("alpha-echo", { op: "sleep", ms: 20_000 }, { policy: { executionTimeout: 5000 } }),
    h.run("alpha-echo", {}),
    h.run("alpha-echo", { op: "sleep", ms: 3000 }),
  ];
  const cancelled = h.run("alpha-echo", { op: "sleep", ms: 1000 });
  h.call("POST", `/v2/alpha-echo/cancel/${cancelled}`);

  let sawInitializing = false;
  let sawRunning = false;
  for (let step = 0; step < 40; step++) {
    const hl = health(h);
    matchesSchema(t, "HealthResponse", hl, `health at step ${step}`);
    const { retried: _retried, ...jobs } = hl.jobs;
    t.same(jobs, countStatuses(h, ids), `job counters equal the statuses at step ${step}`);
    t.equal(hl.workers.running, hl.jobs.inProgress, "one running worker per job in progress");
    t.equal(hl.workers.ready, hl.workers.idle + hl.workers.running, "ready = idle + running");
    t.ok(hl.workers.idle + hl.workers.running + hl.workers.initializing <= 2, "never more than workersMax");
    sawInitializing ||= hl.workers.initializing > 0;
    sawRunning ||= hl.workers.running > 0;
    h.advance(1000);
  }
  t.ok(sawInitializing, "workers were seen cold-starting");
  t.ok(sawRunning, "and running");
  const end = health(h);
  t.same(end.jobs, { completed: 4, failed: 2, inProgress: 0, inQueue: 0, retried: 0 }, "4 completed, 2 failed (one timed out), the cancelled one in neither");

  const failed = ids[2];
  h.call("POST", `/v2/alpha-echo/retry/${failed}`);
  t.equal(health(h).jobs.retried, 1, "a retried job counts in retried");
  h.finish("alpha-echo", failed);
  t.same(health(h).jobs, { completed: 4, failed: 2, inProgress: 0, inQueue: 0, retried: 1 });

  h.advance(60_000);
  t.same(health(h).workers, { idle: 0, running: 0, initializing: 0, ready: 0, throttled: 0, unhealthy: 0 }, "idle workers stop after the idle timeout");
});

t.test("health of unknown endpoints and of another account's endpoint answers 404", async (t) => {
  const h = new Harness();
  expectProblem(t, h.call("GET", "/v2/nowhere/health"), 404);
  expectProblem(t, h.call("GET", "/v2/alpha-echo/health", { key: "beta" }), 404);
  t.equal(h.call("GET", "/v2/alpha-echo/health", { key: "alphaRead" }).status, 200, "a read-only key reads health");
});

t.test("on the shared conformance endpoint each account's health counts its own jobs only", async (t) => {
  const h = new Harness();
  const jobs = (key: "alpha" | "beta") => (h.call("GET", "/v2/conformance/health", { key }).body as Health).jobs;
  h.run("conformance", { op: "sleep", ms: 100 }, {}, "alpha");
  h.run("conformance", { op: "sleep", ms: 100 }, {}, "alpha");
  h.run("conformance", { op: "fail", message: "x" }, {}, "beta");
  const before = jobs("alpha");
  t.equal(before.inQueue + before.inProgress, 2, "alpha sees its two jobs");
  t.equal(jobs("beta").inQueue + jobs("beta").inProgress, 1, "beta sees its one");
  h.advance(60_000);
  t.same(jobs("alpha"), { completed: 2, failed: 0, inProgress: 0, inQueue: 0, retried: 0 });
  t.same(jobs("beta"), { completed: 0, failed: 1, inProgress: 0, inQueue: 0, retried: 0 });
});
