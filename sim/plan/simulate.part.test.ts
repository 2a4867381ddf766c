import t from "tap";
import { formatSummary, simulate } from "./simulate.ts";
import { loadScenario, parseScenario, ScenarioError } from "./scenario.ts";
import { run } from "./simulate-cli.ts";

const scenario = loadScenario("default");

t.test("the same seed gives byte-identical summaries; another seed differs", async (t) => {
  const a = simulate({ scenario, seed: 42, hours: 1 });
  const b = simulate({ scenario, seed: 42, hours: 1 });
  t.equal(JSON.stringify(a), JSON.stringify(b));
  const c = simulate({ scenario, seed: 43, hours: 1 });
  t.not(c.hash, a.hash);
  t.ok(a.events > 1000, "the model did real work");
  t.ok(a.jobs.submitted > 0 && a.pods.created > 0);
  // Every submitted job is accounted for: final, or still queued or running at the end.
  const finals = Object.values(a.jobs.byStatus).reduce((x, y) => x + y, 0);
  t.ok(finals <= a.jobs.submitted && finals >= a.jobs.submitted - 50);
  t.ok(a.jobs.executionMs.p50 >= 1500, "sleep jobs take at least their 1500 ms");
});

t.test("steady queue: utilization below one keeps delay bounded", async (t) => {
  const s = simulate({ scenario: loadScenario("steady-queue"), seed: 1, hours: 1 });
  t.ok(s.jobs.submitted > 3000 && s.jobs.submitted < 4200, `about 3600 arrivals in an hour, got ${s.jobs.submitted}`);
  t.equal(s.jobs.byStatus.FAILED, 0);
  t.ok(s.jobs.delayMs.p50 < 5000, `median delay ${s.jobs.delayMs.p50} ms`);
});

t.test("a bad scenario names the file, the path and the problem", async (t) => {
  t.throws(() => parseScenario({ name: "x", description: "", hours: -1, pods: [], jobs: [] }, "my.json"), {
    code: "CPSIM_ERR_SCENARIO",
    message: /my\.json: \/hours: must be > 0/,
  });
  t.throws(() => parseScenario({ name: "x", description: "", hours: 1, pods: [], jobs: [], extra: 1 }, "my.json"), {
    message: /must NOT have additional properties \(extra\)/,
  });
  t.throws(() => loadScenario("no-such-scenario"), ScenarioError);
  const bad = { ...scenario, jobs: [{ ...(scenario.jobs ?? [])[0], endpoint: "nope" }] };
  t.throws(() => simulate({ scenario: bad, seed: 1, hours: 0.1 }), { message: /\/jobs\/0\/endpoint: no endpoint "nope"/ });
});

t.test("the CLI prints JSON with --json and rejects bad flags", async (t) => {
  const out: string[] = [];
  const io = { stdout: (s: string) => out.push(s), stderr: () => {} };
  t.equal(await run(["default", "--hours", "0.2", "--seed", "3", "--json"], io), 0);
  const summary = JSON.parse(out.join(""));
  t.equal(summary.seed, 3);
  t.match(summary.hash, /^[0-9a-f]{16}$/);
  await t.rejects(run(["default", "--hours", "zero"], io), { code: "CPSIM_ERR_USAGE" });
});

t.test("a saturated endpoint: every job counted, percentiles never above the max, the worker cap named", async (t) => {
  const saturated = parseScenario(
    {
      name: "saturated",
      description: "alpha-echo (2 workers) at 20 one-second jobs per second",
      hours: 0.5,
      outsideDemand: { intensity: 0.5 },
      jobs: [{ endpoint: "alpha-echo", account: "acct-alpha", perSecond: 20, inputs: [{ weight: 1, input: { op: "sleep", ms: 1000 } }] }],
    },
    "saturated.json",
  );
  const s = simulate({ scenario: saturated, seed: 1 });
  const finals = Object.values(s.jobs.byStatus).reduce((x, y) => x + y, 0);
  t.equal(finals + s.jobs.unfinished.queued + s.jobs.unfinished.running, s.jobs.submitted, "final + queued + running = submitted");
  t.ok(s.jobs.unfinished.queued > 0.8 * s.jobs.submitted, `the backlog is reported: ${s.jobs.unfinished.queued} queued`);
  t.ok(s.jobs.unfinished.oldestQueuedMs > 20 * 60_000, "with the age of the oldest");
  for (const p of [s.jobs.delayMs, s.jobs.executionMs]) t.ok(p.p50 <= p.p90 && p.p90 <= p.p99 && p.p99 <= p.max, `p99 ${p.p99} <= max ${p.max}`);
  t.equal(s.endpoints[0].limit, "worker cap");
  t.equal(s.endpoints[0].throttledWorkerMinutes, 0, "a worker cap is not a GPU shortage");
  const text = formatSummary(s);
  t.match(text, /unfinished at the end: \d+ queued \(oldest waiting [0-9.]+ min\)/);
  t.match(text, /alpha-echo: .* the queue was held by the worker cap \(workersMax 2\) 100% of the waiting/);
});
