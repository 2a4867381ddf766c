/**
 * The CI gate, end to end through the command: a run writes report.json; equal figures pass the
 * baseline, a synthetic regression (a baseline much faster than anything real) exits 1, a failed
 * threshold exits 1, and usage or configuration errors exit 2 saying what to do.
 */
import t from "tap";
import { existsSync, readFileSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { LoadReport } from "../reports/index.ts";
import { main } from "../sim/cli/main.ts";
import { baselineFigures, compareWithBaseline } from "./baseline.ts";
import { startTestServer } from "./test-server-process.ts";

const server = await startTestServer("plain");
t.teardown(() => server.stop());

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(["load", ...args], { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

const scenario = {
  name: "plain-get",
  description: "GET / of a bare server",
  requests: [{ name: "get", method: "GET", host: "base", path: "/" }],
  checks: [{ name: "status is 200", kind: "status", in: [200] }],
  thresholds: { checks: ["rate==1"] },
  defaults: { durationS: 0.5, connections: 2, maxRequests: 2000 },
};

t.test("baseline gate: equal figures pass, a regression fails, thresholds fail", async (t) => {
  const dir = t.testdir();
  const file = join(dir, "scenario.json");
  await writeFile(file, JSON.stringify(scenario));
  const common = ["--target", server.url, "--api-key", "k", "--scenario-file", file, "--seed", "3", "--quiet"];

  const first = await cli([...common, "--report-dir", join(dir, "a")]);
  t.equal(first.code, 0, first.err);
  t.match(first.out, /plain-get\s+closed/);
  const report = JSON.parse(readFileSync(join(dir, "a", "report.json"), "utf8")) as LoadReport;
  t.ok(existsSync(join(dir, "a", "report.html")));
  t.equal(report.scenarios[0].latency.count, report.scenarios[0].requests);
  t.ok(report.scenarios[0].latency.p50Us > 0 && report.scenarios[0].latency.p50Us < 1_000_000, "microsecond figures");

  // Equal figures: no regression, whatever the threshold.
  const same = compareWithBaseline(report.scenarios, baselineFigures(report, "a"), 0);
  t.same([same.regressions, same.missing], [[], []]);
  t.same(same.comparisons.map((c) => [c.figure, c.changePct]), [["rps", 0], ["p50_us", 0], ["p99_us", 0]], "every figure compared, unchanged");

  // A synthetic regression: the baseline claims a far better run.
  const better = { ...report, scenarios: report.scenarios.map((s) => ({ ...s, rps: s.rps * 100, latency: { ...s.latency, p50Us: 1, p99Us: 1 } })) };
  await writeFile(join(dir, "better.json"), JSON.stringify(better));
  const regressed = await cli([...common, "--report-dir", join(dir, "b"), "--baseline", join(dir, "better.json"), "--max-regression", "10"]);
  t.equal(regressed.code, 1);
  t.match(regressed.out, /regression: plain-get rps/);
  t.match(regressed.out, /regression: plain-get p99_us/);
  const b = JSON.parse(readFileSync(join(dir, "b", "report.json"), "utf8")) as LoadReport;
  t.equal(b.passed, false);
  t.ok(b.baseline!.regressions.length >= 2);

  // A baseline worse than anything: passes.
  const worse = { ...report, scenarios: report.scenarios.map((s) => ({ ...s, rps: 1, latency: { ...s.latency, p50Us: 1e9, p99Us: 1e9 } })) };
  await writeFile(join(dir, "worse.json"), JSON.stringify(worse));
  const ok = await cli([...common, "--report-dir", join(dir, "c"), "--baseline", join(dir, "worse.json")]);
  t.equal(ok.code, 0, "a baseline worse than this run passes");
  // Passing or not, every figure is printed beside its baseline value and the change in percent.
  t.match(ok.out, /against the baseline .*worse\.json/);
  t.match(ok.out, /plain-get rps \d+(\.\d)? \(baseline 1, \+[\d.]+%\) ok/);
  t.match(ok.out, /plain-get p50_us .* \(baseline 1000\.00 s, -[\d.]+%\) ok/);
  t.match(ok.out, /plain-get p99_us .* \(baseline 1000\.00 s, -[\d.]+%\) ok/);
  t.equal((JSON.parse(readFileSync(join(dir, "c", "report.json"), "utf8")) as LoadReport).baseline?.comparisons?.length, 3);

  // A threshold that cannot hold fails the run.
  const strict = join(dir, "strict.json");
  await writeFile(strict, JSON.stringify({ ...scenario, name: "strict", thresholds: { http_req_duration: ["p(99)<0.001"] } }));
  const failed = await cli(["--target", server.url, "--api-key", "k", "--scenario-file", strict, "--quiet", "--report-dir", join(dir, "d")]);
  t.equal(failed.code, 1);
  t.match(failed.out, /threshold http_req_duration p\(99\)<0.001 failed/);
  t.match(failed.out, /reproduce with: npx cpsim load --target \S+ --api-key '<your --api-key>'/);

  // A report folder that cannot be made: exit 2 before any request, saying why (a folder that
  // fails only at the end still gets its figures out, on stdout: load.ts).
  await writeFile(join(dir, "a-file"), "x");
  const unwritable = await cli([...common, "--report-dir", join(dir, "a-file", "sub")]);
  t.equal(unwritable.code, 2);
  t.match(unwritable.err, /--report-dir .*a-file.*sub: .*a-file is a file, not a folder; choose another folder/);
  t.equal(unwritable.out, "", "nothing ran");
  const badOut = await cli([...common, "--out", `json=${join(dir, "a-file", "x.json")}`]);
  t.equal(badOut.code, 2);
  t.match(badOut.err, /--out .*a-file.*x\.json: .*a-file is a file, not a folder/);

  // Without --quiet: a progress line a second on stderr.
  const progress = await cli(["--target", server.url, "--api-key", "k", "--scenario-file", file, "--duration", "2.2", "--report-dir", join(dir, "p")]);
  t.match(progress.err, /plain-get\s+[12]s\s+\d+ req\/s\s+p99 [\d.]+ ms\s+errors 0\s+429 0/);

  // --json: report.json on stdout, the table on stderr.
  const json = await cli([...common, "--report-dir", join(dir, "e"), "--json"]);
  t.equal((JSON.parse(json.out) as LoadReport).tool, "cpsim load");
  t.match(json.err, /plain-get/);
});

t.test("usage and configuration errors exit 2 and say what to do", async (t) => {
  const dir = t.testdir();
  t.equal((await cli(["--help"])).code, 0);
  t.match((await cli(["--help"])).out, /--export-k6 DIR/);
  const unknown = await cli(["--scenario", "nope"]);
  t.equal(unknown.code, 2);
  t.match(unknown.err, /unknown scenario "nope"; the built-in ones are: run-small/);
  t.match((await cli(["--conections", "3"])).err, /did you mean "--connections"/);
  const badOut = await cli(["--out", "xml=f.xml"]);
  t.equal(badOut.code, 2);
  t.match(badOut.err, /--out xml=f\.xml: write json=FILE or csv=FILE/);
  const badProfile = join(dir, "profile.json");
  await writeFile(badProfile, JSON.stringify({ podListPath: "pods" }));
  const profileErr = await cli(["--target-profile", badProfile]);
  t.equal(profileErr.code, 2);
  t.match(profileErr.err, /--target-profile .*profile\.json is not a valid target profile:\n\s+podListPath/);
  const bad = join(dir, "bad.json");
  await writeFile(bad, JSON.stringify({ ...scenario, defaults: { durationS: 1, connections: 0, maxRequests: 1 } }));
  const invalid = await cli(["--scenario-file", bad]);
  t.equal(invalid.code, 2);
  t.match(invalid.err, /bad\.json: not a valid scenario:\n\s+\/defaults\/connections must be >= 1/);
  const unreachable = await cli(["--target", "http://127.0.0.1:1", "--api-key", "k", "--scenario-file", join(dir, "bad.json")]);
  t.equal(unreachable.code, 2);
  const down = join(dir, "ok.json");
  await writeFile(down, JSON.stringify(scenario));
  const refused = await cli(["--target", "http://127.0.0.1:1", "--api-key", "k", "--scenario-file", down]);
  t.equal(refused.code, 2);
  t.match(refused.err, /unreachable/);
  const noBaseline = await cli(["--target", server.url, "--api-key", "k", "--scenario-file", down, "--baseline", join(dir, "missing.json")]);
  t.equal(noBaseline.code, 2);
  t.match(noBaseline.err, /--baseline .*missing\.json: cannot read it/);
  const saved = process.env.PATH;
  process.env.PATH = dir;
  try {
    const k6 = await cli(["--engine", "k6", "--target", server.url, "--api-key", "k", "--scenario-file", down]);
    t.equal(k6.code, 2);
    t.match(k6.err, /no k6 binary on PATH.*Install k6/s);
  } finally {
    process.env.PATH = saved;
  }
});

t.test("--engine k6 runs the exported script with the k6 on PATH and reads its summary back", async (t) => {
  const dir = t.testdir();
  // A stand-in k6: checks what cpsim passes (the script, the target in the environment) and
  // writes the summary the script's handleSummary would. Its program is a .cjs file, which node
  // reads as CommonJS wherever it stands (an extensionless file in this `type: module` package
  // would be read as an ES module, or not, depending on the loaders in NODE_OPTIONS); `k6` on
  // PATH is a shell script that runs it.
  const fake = join(dir, "k6");
  await writeFile(fake, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(dir, "k6.cjs"))} "$@"\n`);
  await writeFile(
    join(dir, "k6.cjs"),
    `const { writeFileSync, readFileSync } = require("node:fs");
const script = process.argv[process.argv.length - 1];
const name = script.split("/").pop().replace(/\\.js$/, "");
if (process.argv[2] !== "run" || !readFileSync(script, "utf8").includes("constant-arrival-rate")) process.exit(3);
const ok = process.env.BASE_URL === ${JSON.stringify(server.url)} && process.env.API_KEY === "k";
writeFileSync(process.env.SUMMARY_DIR + "/" + name + ".summary.json", JSON.stringify({
  cpsim: { scenario: name },
  state: { testRunDurationMs: 1000 },
  metrics: {
    http_req_duration: { values: { med: 0.5, "p(90)": 0.8, "p(99)": 1.5, "p(99.9)": 2, max: 3, min: 0.1, avg: 0.6 } },
    http_reqs: { values: { count: 20, rate: 20 } },
    checks: { values: { passes: ok ? 20 : 0, fails: ok ? 0 : 20 }, thresholds: { "rate==1": { ok } } },
  },
}));
`,
  );
  await chmod(fake, 0o755);
  const file = join(dir, "scenario.json");
  await writeFile(file, JSON.stringify(scenario));
  const saved = process.env.PATH;
  process.env.PATH = dir;
  try {
    const r = await cli(["--engine", "k6", "--target", server.url, "--api-key", "k", "--scenario-file", file, "--quiet", "--report-dir", join(dir, "r")]);
    t.equal(r.code, 0, r.err);
    const report = JSON.parse(readFileSync(join(dir, "r", "report.json"), "utf8")) as LoadReport;
    t.equal(report.engine, "k6");
    t.equal(report.scenarios[0].model, "k6");
    t.equal(report.scenarios[0].latency.p99Us, 1500);
    t.same(report.scenarios[0].checks, [{ name: "all checks", passes: 20, fails: 0 }]);
  } finally {
    process.env.PATH = saved;
  }
});
