/**
 * Calibration against hidden truth: the emulator runs in real time with endpoint settings the
 * calibrator is not given (workers, run-time distribution, cold starts); the calibrator measures
 * it at one load level, fits, predicts a level 1.5 times higher, and that level is measured.
 * Seconds of load, not minutes: the assertions are what a correct fit must satisfy at that size.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { serveScenarioInChild } from "./serve-scenario-child.ts";
import { run as planCli } from "../cli.ts";
import { loadScenarioFile, parseScenario } from "../scenario.ts";
import { calibrate } from "./calibrate.ts";
import { measureJobs } from "./measure-jobs.ts";
import { predict } from "./predict.ts";
import { validate } from "./validate.ts";

const HIDDEN = parseScenario(
  {
    name: "hidden",
    description: "the truth the calibrator must find",
    hours: 1,
    outsideDemand: { intensity: 0 },
    endpoints: [{ id: "hidden", gpuTypeIds: ["NVIDIA A100 80GB PCIe"], workersMin: 3, workersMax: 3, coldStartMs: { mean: 800, cv: 0.2 }, executionMs: { dist: "gamma", mean: 150, cv: 0.6 } }],
  },
  "hidden",
);
const KEY = "cpsim_load_exempt_5b0e8d3a6c1f9247";
// Real time on a shared machine: tap's own 30 s default is too short when the cores are busy.
t.setTimeout(300_000);

function io() {
  const out: string[] = [];
  return { out, io: { stdout: (s: string) => void out.push(s), stderr: () => {} } };
}

t.test("calibrated from one level, the prediction of a level 1.5 times higher holds the measurement", async (t) => {
  // The emulator in a process of its own, as the calibrator meets a real endpoint: a URL only.
  const em = await serveScenarioInChild(t, HIDDEN);
  // ρ = λ·E[S]/c = 9 × 0.15 / 3 = 0.45 measured; 0.675 predicted.
  const m1 = await measureJobs({ serverlessUrl: em.serverlessUrl, apiKey: KEY, endpoint: "hidden", perSecond: 9, durationS: 8, seed: 1, healthEveryMs: 100, settleTimeoutS: 60, drainTimeoutS: 60 });
  t.ok(m1.jobs.length > 30, `${m1.jobs.length} jobs measured`);
  t.same(m1.errors, {}, "no call failed");
  const { scenario, calibration } = calibrate([m1], { seed: 1 });
  const ep = scenario.endpoints![0];
  t.equal(ep.workersMin, 3, "the fixed pool's size is found");
  t.equal(ep.workersMax, 3);
  const runTime = calibration.values["endpoints/0/executionMs"];
  const [lo, hi] = runTime.interval!;
  t.ok(lo < 150 * 1.15 && hi > 150 * 0.85, `the run-time mean's interval ${lo}..${hi} is near the hidden 150 ms`);
  t.not(calibration.runTimes[0].chosen, "exponential", "cv 0.6 is not exponential");
  t.ok(ep.coldStartMs!.mean <= 800 * 1.5, `cold start ${ep.coldStartMs!.mean} ms is not above what the workers took`);
  t.equal(calibration.values.discipline.value, "FIFO");
  t.ok(Math.abs((scenario.jobs![0].perSecond as number) - 9) < 3, "the arrival rate is the measured one");
  t.doesNotThrow(() => parseScenario(JSON.parse(JSON.stringify(scenario)), "written"), "an ordinary scenario file");
  t.equal(calibration.draws.length, 40);

  // Predict 1.5× and measure it.
  const loaded = { scenario, label: "calibrated", traces: {} };
  const p = predict(loaded, { perSecond: 13.5, windowS: 8, seed: 1, runs: 30 });
  t.ok(p.fitUncertainty);
  t.ok(p.delayMs.p99.lo <= p.delayMs.p99.median && p.delayMs.p99.median <= p.delayMs.p99.hi);
  t.ok(p.utilisation > 0.45 && p.utilisation < 0.95, `utilisation ${p.utilisation}`);
  const same = predict(loaded, { perSecond: 13.5, windowS: 8, seed: 1, runs: 30 });
  t.same(same, p, "the same seed gives the same prediction");
  const m2 = await measureJobs({ serverlessUrl: em.serverlessUrl, apiKey: KEY, endpoint: "hidden", perSecond: 13.5, durationS: 8, seed: 2, healthEveryMs: 100, settleTimeoutS: 60, drainTimeoutS: 60 });
  const v = validate(loaded, m2, { seed: 1, runs: 30 });
  t.equal(v.total, 6);
  t.ok(v.inside >= 4, `${v.inside} of 6 measured percentiles inside their predicted 95% intervals: ${JSON.stringify(v.rows.map((r) => [r.metric, r.measured, r.predicted]))}`);

  // The same through the command line: calibrate from the file, --arrival, validate.
  const dir = mkdtempSync(join(tmpdir(), "cpsim-calib-"));
  writeFileSync(join(dir, "m1.json"), JSON.stringify(m1));
  writeFileSync(join(dir, "m2.json"), JSON.stringify(m2));
  const c = io();
  t.equal(await planCli(["calibrate", "--measured", join(dir, "m1.json"), "--out", join(dir, "calib")], c.io), 0);
  t.match(c.out.join(""), /endpoints\/0\/executionMs/);
  const written = loadScenarioFile(join(dir, "calib", "scenario.json"));
  t.same(written.scenario.endpoints, scenario.endpoints, "the file holds the same fit (one seed drives everything)");
  t.match(readFileSync(join(dir, "calib", "report.html"), "utf8"), /<svg[\s\S]*<svg[\s\S]*<svg/, "histogram, Q-Q and delay-by-level charts");
  const a = io();
  t.equal(await planCli([join(dir, "calib", "scenario.json"), "--arrival", "13.5", "--window", "8", "--seeds", "10", "--json"], a.io), 0);
  t.equal(JSON.parse(a.out.join("")).perSecond, 13.5);
  const w = io();
  const code = await planCli(["validate", "--scenario", join(dir, "calib", "scenario.json"), "--measured", join(dir, "m2.json"), "--runs", "30", "--json"], w.io);
  const vj = JSON.parse(w.out.join(""));
  t.equal(code, vj.inside === vj.total ? 0 : 1, "exit 0 exactly when every percentile is inside");
});
