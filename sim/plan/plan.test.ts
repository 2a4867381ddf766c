import t from "tap";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "./cli.ts";
import { aggregate } from "./aggregate.ts";
import { plan } from "./plan.ts";
import { runSeed } from "./run-seed.ts";
import { loadScenarioFile, parseScenario, parseTrace, ScenarioError, type LoadedScenario, type Scenario } from "./scenario.ts";
import { erlangCMeanWait } from "./stats.ts";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) }, out, err };
}

function mmc(c: number, lambda: number, hours = 1): LoadedScenario {
  return {
    label: "mmc.json",
    traces: {},
    scenario: {
      name: "mmc-test",
      description: "M/M/c",
      hours,
      warmupMinutes: 5,
      outsideDemand: { intensity: 0 },
      endpoints: [{ id: "q", gpuTypeIds: ["NVIDIA A100 80GB PCIe"], workersMin: c, workersMax: c, coldStartMs: { mean: 0, cv: 0 }, executionMs: { dist: "exponential", mean: 1000 } }],
      jobs: [{ endpoint: "q", perSecond: lambda }],
    },
  };
}

t.test("scenario validation errors name the file and the field", async (t) => {
  const base = { name: "x", description: "", hours: 1 };
  t.throws(() => parseScenario({ ...base, endpoints: [{ id: "e", workersMax: 0 }] }, "my.json"), { message: /my\.json: \/endpoints\/0\/workersMax: must be >= 1/ });
  t.throws(() => parseScenario({ ...base, jobs: [{ endpoint: "e", perSecond: 1, burst: [] }] }, "my.json"), { message: /my\.json: \/jobs\/0: must NOT have additional properties \(burst\)/ });
  t.throws(() => parseScenario({ ...base, endpoints: [{ id: "e", executionMs: { dist: "gamma", mean: 1 } }] }, "my.json"), { message: /\/endpoints\/0\/executionMs/ });
  const load = (s: object) => ({ label: "my.json", traces: {}, scenario: parseScenario({ ...base, ...s }, "my.json") });
  t.throws(() => runSeed(load({ endpoints: [{ id: "new-one", gpuTypeIds: ["NVIDIA A100 80GB PCIe"] }] }), { seed: 1 }), {
    code: "CPSIM_ERR_SCENARIO",
    message: /my\.json: \/endpoints\/0\/executionMs: a new endpoint/,
  });
  t.throws(() => runSeed(load({ endpoints: [{ id: "e", gpuTypeIds: ["Voodoo 5"], executionMs: { dist: "constant", value: 5 } }] }), { seed: 1 }), {
    message: /\/endpoints\/0\/gpuTypeIds\/0: no GPU type "Voodoo 5"/,
  });
  t.throws(() => runSeed(load({ endpoints: [{ id: "alpha-echo", workersMin: 5, workersMax: 2 }] }), { seed: 1 }), { message: /\/endpoints\/0\/workersMin: 5 is above workersMax 2/ });
  t.throws(() => runSeed(load({ gpuSupply: { "Voodoo 5": 3 } }), { seed: 1 }), { message: /\/gpuSupply\/Voodoo 5/ });
  t.throws(() => runSeed(load({ jobs: [{ endpoint: "alpha-echo" }] }), { seed: 1 }), { message: /\/jobs\/0: needs perSecond .* or trace/ });
  t.throws(() => runSeed(load({ hours: 8000, jobs: [{ endpoint: "alpha-echo", perSecond: 50000 }] }), { seed: 1 }), { message: /my\.json: about 1,440,000,000,000 jobs in 8000 hours; at most 500,000,000 per run/ });
  t.throws(() => parseTrace("offset_s,duration_ms\n1,2\nx,3\n", "t.csv"), { message: /t\.csv: line 3: offset_s must be a number/ });
  t.throws(() => runSeed(load({ hours: 8000, jobs: [{ endpoint: "alpha-echo", perSecond: 50000 }] }), { seed: 1 }), { message: /my\.json: about 1,440,000,000,000 jobs in 8000 hours; at most 500,000,000 per run/ });
  t.throws(() => parseTrace("when,what\n", "t.csv"), { message: /must name offset_s/ });
  t.throws(() => loadScenarioFile("no-such-scenario"), ScenarioError);
  // The CLI turns them into exit 2 with the message; bad flags too.
  const dir = t.testdir({ "bad.json": JSON.stringify({ ...base, endpoints: [{ id: "e", workersMax: -1 }] }) });
  const c = capture();
  const { main } = await import("../cli/main.ts");
  t.equal(await main(["plan", join(dir, "bad.json")], c.io), 2);
  t.match(c.err.join(""), /bad\.json: \/endpoints\/0\/workersMax: must be >= 1/);
  t.equal(await main(["plan", "mmc-queue", "--find", "workers"], c.io), 2);
  t.match(c.err.join(""), /--find needs --slo/);
  t.equal(await main(["plan", "mmc-queue", "--sweep", "nonsense=1,2"], c.io), 2);
  t.match(c.err.join(""), /unknown parameter "nonsense"/);
  t.equal(await main(["plan", "mmc-queue", "--find", "workers", "--slo", "p99 latency < 2s"], c.io), 2);
  t.match(c.err.join(""), /--slo: cannot read "p99 latency < 2s"/);
});

t.test("--schema prints the scenario JSON Schema", async (t) => {
  const c = capture();
  t.equal(await run(["--schema"], c.io), 0);
  const schema = JSON.parse(c.out.join(""));
  t.ok(schema.properties.endpoints && schema.properties.jobs && schema.properties.gpuSupply && schema.properties.prices);
});

t.test("every bundled scenario runs, and every job is counted", async (t) => {
  for (const name of ["steady-inference", "diurnal-images", "bursty-batch", "gpu-shortage", "trace-replay", "mmc-queue", "default", "steady-queue"]) {
    const r = runSeed(loadScenarioFile(name), { seed: 3, hours: 0.5 });
    t.ok(r.endpoints.length > 0, name);
    for (const e of r.endpoints) {
      const counted = e.completed + e.failed + e.timedOut + e.cancelled + e.expired + e.unfinished.queued + e.unfinished.running;
      t.equal(counted, e.submitted, `${name}/${e.endpoint}: ${e.submitted} submitted, all counted`);
      for (const d of [e.delayMs, e.executionMs, e.delayAllMs]) t.ok(d.p50 <= d.p90 && d.p90 <= d.p99 && d.p99 <= d.max, `${name}/${e.endpoint}: percentiles ordered, never above the max`);
    }
  }
  const short = runSeed(loadScenarioFile("gpu-shortage"), { seed: 1, hours: 1 }).endpoints[0];
  t.ok(short.throttledWorkerMinutes > 0, "the shortage throttles workers");
});

t.test("a saturated endpoint: the backlog is reported with its age and the worker cap is named", async (t) => {
  const loaded = mmc(2, 4, 0.5);
  const report = await plan({ loaded, seed: 1, seeds: 2, workers: 1 });
  const e = report.points[0].endpoints[0];
  t.ok(e.jobs.unfinishedQueued.mean > 1000, `backlog ${e.jobs.unfinishedQueued.mean}`);
  t.ok(e.unfinishedAgeMs.max.mean > 10 * 60_000, "the oldest queued job has waited most of the run");
  t.ok(e.delayAllMs.max.mean >= e.unfinishedAgeMs.max.mean - 1, "the delay of every job counts the queued ones by their age");
  t.equal(e.limit?.name, "workerCap");
  const little = report.checks.find((c) => c.kind === "little");
  t.equal(little?.ok, false, "Little's law fails out of steady state");
  t.match(report.notes.join("\n"), /warning: q: Little's law: mean queue L [0-9.]+ .* vs λW [0-9.]+: does not hold; the queue never drained/);
});

t.test("Erlang C and Little's law checks on an M/M/c", async (t) => {
  const loaded = mmc(4, 3, 1);
  const results = [1, 2, 3, 4, 5].map((seed) => runSeed(loaded, { seed }));
  const meta = { scenario: "m", description: "", seeds: [1, 2, 3, 4, 5], hours: 1, warmupMinutes: 5, sweep: [], pointParams: [{}] };
  const report = aggregate(meta, results);
  const erlang = report.checks.find((c) => c.kind === "erlang-c");
  t.equal(erlang?.ok, true, erlang?.message ?? "no Erlang C check");
  t.ok(Math.abs((erlang?.expected ?? 0) - erlangCMeanWait(4, 3, 1)) < 1e-6);
  t.equal(report.checks.find((c) => c.kind === "little")?.ok, true);
  t.same(report.notes, [], "no warnings");
  // The same runs with the delays doubled: the check fails and says both figures.
  const skewed = results.map((r) => ({ ...r, endpoints: r.endpoints.map((e) => ({ ...e, delayMs: { ...e.delayMs, mean: e.delayMs.mean * 2 } })) }));
  const bad = aggregate(meta, skewed);
  t.equal(bad.checks.find((c) => c.kind === "erlang-c")?.ok, false);
  t.match(bad.notes.join("\n"), /warning: q: M\/M\/4 .* Erlang C mean wait 0\.5094 s, simulated [0-9.]+ s, 95% interval \[[0-9.]+, [0-9.]+\]: outside the interval/);
  // One seed: no interval, said so.
  const one = aggregate({ ...meta, seeds: [1] }, results.slice(0, 1));
  t.equal(one.checks.find((c) => c.kind === "erlang-c")?.ok, null);
  t.match(one.notes[0], /1 seed: no confidence intervals/);
});

t.test("same scenario and seed give the same plan.json byte for byte, whatever the workers", async (t) => {
  const dirA = t.testdir();
  const c = capture();
  const args = ["mmc-queue", "--hours", "0.3", "--seeds", "2", "--sweep", "workers=8,9", "--json"];
  t.equal(await run([...args, "--workers", "1", "--out", join(dirA, "a")], c.io), 0);
  t.equal(await run([...args, "--workers", "2", "--out", join(dirA, "b")], c.io), 0);
  const a = readFileSync(join(dirA, "a", "plan.json"), "utf8");
  t.equal(readFileSync(join(dirA, "b", "plan.json"), "utf8"), a, "identical bytes");
  t.equal(c.out[0], a, "--json prints plan.json");
  t.equal(JSON.parse(a).points.length, 2);
  const csv = readFileSync(join(dirA, "a", "plan.csv"), "utf8").split("\n");
  t.match(csv[0], /^point,workers,endpoint,limit,submitted,submitted_lo,submitted_hi,/);
  t.equal(csv.filter((l) => l !== "").length, 3, "a header and one row per point and endpoint");
  t.match(readFileSync(join(dirA, "a", "report.html"), "utf8"), /<svg/);
  // Another seed changes the figures.
  t.equal(await run(["mmc-queue", "--hours", "0.3", "--seeds", "2", "--seed", "9", "--json", "--workers", "1", "--out", join(dirA, "c")], c.io), 0);
  t.not(readFileSync(join(dirA, "c", "plan.json"), "utf8"), a);
  // Progress off a terminal (a CI log): whole lines, no carriage return.
  const p = capture();
  t.equal(await run(["mmc-queue", "--hours", "0.1", "--seeds", "3", "--json", "--progress", "--workers", "1", "--out", join(dirA, "d")], p.io), 0);
  const progress = p.err.join("");
  t.notMatch(progress, /\r/);
  t.match(progress, /^plan: 1\/3 runs \(33%\), [0-9.]+ s\nplan: 2\/3 runs \(67%\), [0-9.]+ s\nplan: 3\/3 runs \(100%\), [0-9.]+ s\n$/);
});

t.test("4 shards merged equal one run, byte for byte", async (t) => {
  const dir = t.testdir();
  const c = capture();
  const args = ["steady-inference", "--hours", "0.25", "--seeds", "3", "--sweep", "workersMax=4,8", "--workers", "1"];
  t.equal(await run([...args, "--out", join(dir, "single")], c.io), 0);
  for (let i = 0; i < 3; i++) t.equal(await run([...args, "--shard", `${i}/4`, "--out", join(dir, "shards")], c.io), 0);
  process.env.JOB_COMPLETION_INDEX = "3";
  try {
    t.equal(await run([...args, "--shards", "4", "--out", join(dir, "shards")], c.io), 0, "--shards reads JOB_COMPLETION_INDEX");
  } finally {
    delete process.env.JOB_COMPLETION_INDEX;
  }
  t.equal(await run(["--merge", join(dir, "shards"), "--out", join(dir, "merged")], c.io), 0);
  t.equal(readFileSync(join(dir, "merged", "plan.json"), "utf8"), readFileSync(join(dir, "single", "plan.json"), "utf8"));
  t.equal(readFileSync(join(dir, "merged", "plan.csv"), "utf8"), readFileSync(join(dir, "single", "plan.csv"), "utf8"));
  // A missing shard, or one of another plan, is refused with exit 2.
  const e = capture();
  const { main } = await import("../cli/main.ts");
  t.equal(await main(["plan", "--merge", join(dir, "shards", "plan-shard-0-of-4.json"), join(dir, "shards", "plan-shard-1-of-4.json"), "--out", join(dir, "m2")], e.io), 2);
  t.match(e.err.join(""), /missing shard\(s\) 2\/4, 3\/4/);
  t.equal(await main(["plan", "--merge", join(dir, "shards", "plan-shard-0-of-4.json"), "--out", join(dir, "m2")], e.io), 2);
  t.match(e.err.join(""), /missing shard\(s\) 1\/4, 2\/4, 3\/4/);
  const other = JSON.parse(readFileSync(join(dir, "shards", "plan-shard-3-of-4.json"), "utf8"));
  writeFileSync(join(dir, "shards", "plan-shard-3-of-4.json"), JSON.stringify({ ...other, planKey: "0".repeat(32) }));
  t.equal(await main(["plan", "--merge", join(dir, "shards"), "--out", join(dir, "m3")], e.io), 2);
  t.match(e.err.join(""), /belongs to another plan/);
});

t.test("--find returns the Erlang C answer on an M/M/c", async (t) => {
  // lambda 3/s, mu 1/s: the mean wait is 0.509 s with 4 workers and 0.118 s with 5. An SLO between
  // them, far from both, has the answer 5 (the smallest c whose Erlang C mean wait meets it).
  const lambda = 3;
  const wait = (c: number) => erlangCMeanWait(c, lambda, 1);
  const target = Math.sqrt(wait(4) * wait(5));
  let answer = 1;
  while (!(wait(answer) < target)) answer++;
  t.equal(answer, 5);
  const loaded = mmc(1, lambda, 1);
  const report = await plan({ loaded, seed: 1, seeds: 4, workers: 2, find: { param: "workers", slo: `mean delay < ${Math.round(target * 1000)}ms`, range: [1, 12] } });
  t.equal(report.find?.answer, answer, report.find?.text ?? "no find result");
  t.ok((report.find?.evaluated.length ?? 99) <= 8, `bounded search: ${report.find?.evaluated.join(", ")}`);
  t.match(report.find?.text, /cheapest workers meeting "mean delay < \d+ms" at the upper 95% bound: 5 .*neighbours: workers=4 misses it .*workers=6 meets it/);
  const p5 = report.points.find((p) => p.params.workers === 5);
  t.equal(p5?.slo?.pass, true);
  // No value in range: exit 1 from the CLI.
  const c = capture();
  const dir = t.testdir({ "mmc.json": JSON.stringify(loaded.scenario satisfies Scenario) });
  t.equal(await run([join(dir, "mmc.json"), "--seeds", "2", "--hours", "0.2", "--workers", "1", "--find", "workers", "--range", "1..2", "--slo", "p99 delay < 1ms", "--out", join(dir, "o")], c.io), 1);
  t.match(c.out.join(""), /no value of workers in 1\.\.2 meets/);
});
