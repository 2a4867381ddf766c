import t from "tap";
import { simulate } from "./simulate.ts";
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
