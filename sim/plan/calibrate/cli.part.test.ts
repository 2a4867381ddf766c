import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { Rng } from "../../core/index.ts";
import { gammaDraw } from "../plan-handler.ts";
import { loadScenarioFile } from "../scenario.ts";
import type { JobMeasurement } from "./measurement.ts";
import { checkRate } from "./measure-jobs.ts";
import { safeRate } from "./run-target.ts";
import { uslThroughput } from "./usl.ts";
import { CHILD_KILL_AFTER_MS } from "./serve-scenario-child.ts";
import { defaultLimits } from "../../http/options.ts";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) } };
}

/** A measurement as the prober writes one: 2 fixed workers, gamma run times, Poisson arrivals at 4/s. */
function synthetic(n: number): JobMeasurement {
  const rng = new Rng(5, "synthetic");
  let at = 0;
  const jobs = Array.from({ length: n }, () => {
    at += rng.exponential(250);
    return { op: "job", submitMs: Math.round(at), status: "COMPLETED", delayMs: Math.round(rng.exponential(20)), executionMs: Math.round(gammaDraw(4, 50, () => rng.next())) };
  });
  const health = Array.from({ length: 50 }, (_, i) => ({ tMs: i * 200, idle: 1, running: 1, initializing: 0, throttled: 0, inQueue: 0, inProgress: 1 }));
  const settle = [
    { tMs: -600, idle: 0, running: 0, initializing: 2, throttled: 0, inQueue: 0, inProgress: 0 },
    { tMs: -300, idle: 1, running: 0, initializing: 1, throttled: 0, inQueue: 0, inProgress: 0 },
    { tMs: 0, idle: 2, running: 0, initializing: 0, throttled: 0, inQueue: 0, inProgress: 0 },
  ];
  return {
    format: "cpsim-job-measurement/1", target: "http://127.0.0.1:1", endpoint: "api", startedAt: "2026-11-28T00:00:00.000Z", seed: 1,
    offeredPerSecond: 4, durationS: Math.ceil(at / 1000), jobs, settle, health, rateLimits: [{ name: "minute", quota: 600, windowS: 60 }], errors: {},
  };
}

t.test("calibrate --measured with --load-report: the scenario, its provenance and the USL fit", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-calib-cli-"));
  writeFileSync(join(dir, "m.json"), JSON.stringify(synthetic(400)));
  const reports = [1, 2, 4, 8].map((c) => {
    const f = join(dir, `c${c}.json`);
    writeFileSync(f, JSON.stringify({ scenarios: [{ name: "status-poll", connections: c, rps: uslThroughput({ lambda: 1000, sigma: 0.1, kappa: 0.01 }, c) }] }));
    return f;
  });
  const { main } = await import("../../cli/main.ts");
  const c = capture();
  t.equal(await main(["plan", "calibrate", "--measured", join(dir, "m.json"), ...reports.flatMap((r) => ["--load-report", r]), "--out", join(dir, "out"), "--json"], c.io), 0, c.err.join(""));
  const cal = JSON.parse(c.out.join(""));
  t.equal(cal.format, "cpsim-calibration/1");
  t.equal(cal.values["endpoints/0/workersMax"].value, 2);
  t.match(cal.values["endpoints/0/workersMax"].note, /fixed pool/);
  t.equal(cal.values["endpoints/0/coldStartMs"].interval.length, 2);
  t.same(cal.rateLimits, [{ name: "minute", quota: 600, windowS: 60 }]);
  t.ok(Math.abs(cal.rest.usl.peakConcurrency - Math.sqrt(0.9 / 0.01)) < 1, `USL peak at ${cal.rest.usl.peakConcurrency}`);
  const loaded = loadScenarioFile(join(dir, "out", "scenario.json"));
  t.equal(loaded.scenario.endpoints?.[0].executionMs?.dist, "gamma", "gamma run times are found to be gamma");
  t.match(readFileSync(join(dir, "out", "report.html"), "utf8"), /Throughput by concurrency/);
});

t.test("calibrate --load-report with a sweep's rounds (several reports per concurrency): one point per concurrency, its median", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-calib-rounds-"));
  writeFileSync(join(dir, "m.json"), JSON.stringify(synthetic(400)));
  const truth = { lambda: 1000, sigma: 0.1, kappa: 0.01 };
  const reports = [1, 2, 4, 8].flatMap((c) =>
    [1, 0.4, 1.01].map((k, r) => {
      const f = join(dir, `c${c}-round-${r + 1}.json`);
      writeFileSync(f, JSON.stringify({ scenarios: [{ name: "status-poll", connections: c, rps: uslThroughput(truth, c) * k }] }));
      return f;
    }),
  );
  const { main } = await import("../../cli/main.ts");
  const c = capture();
  t.equal(await main(["plan", "calibrate", "--measured", join(dir, "m.json"), ...reports.flatMap((r) => ["--load-report", r]), "--out", join(dir, "out"), "--json"], c.io), 0, c.err.join(""));
  const usl = JSON.parse(c.out.join("")).rest.usl;
  t.same(usl.points.map((p: { concurrency: number; n: number }) => [p.concurrency, p.n]), [[1, 3], [2, 3], [4, 3], [8, 3]]);
  t.ok(Math.abs(usl.points[3].throughput - uslThroughput(truth, 8)) / uslThroughput(truth, 8) < 0.011, "the median, not the mean dragged down by the disturbed round");
});

t.test("a measurement whose idle watch is not an array is refused, saying so", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-calib-idle-"));
  writeFileSync(join(dir, "m.json"), JSON.stringify({ ...synthetic(100), idle: 5 }));
  const { main } = await import("../../cli/main.ts");
  const c = capture();
  t.equal(await main(["plan", "calibrate", "--measured", join(dir, "m.json"), "--out", join(dir, "out")], c.io), 2);
  t.match(c.err.join(""), /idle \(the \/health samples after the last job\) must be an array/);
});

t.test("usage errors say what to give", async (t) => {
  const { main } = await import("../../cli/main.ts");
  const cases: Array<[string[], RegExp]> = [
    [["plan", "calibrate"], /give --measured FILE/],
    [["plan", "calibrate", "--target", "http://127.0.0.1:1"], /--target needs --endpoint/],
    [["plan", "calibrate", "--measured", "/nonexistent.json"], /not a readable measurement/],
    [["plan", "validate", "--scenario", "mmc-queue"], /--scenario FILE and --measured FILE/],
    [["plan", "mmc-queue", "--window", "10"], /--window goes with --arrival/],
    [["load", "--sweep-connections", "1,2"], /3 or more/],
    [["load", "--sweep-rounds", "3"], /--sweep-rounds goes with --sweep-connections/],
  ];
  for (const [argv, message] of cases) {
    const c = capture();
    t.equal(await main(argv, c.io), 2, argv.join(" "));
    t.match(c.err.join(""), message);
  }
});

t.test("the measuring rate respects the target's rate limits", async (t) => {
  const minute = [{ name: "minute", quota: 600, windowS: 60 }];
  t.throws(() => checkRate(10, minute, 120, 5), /more than half its quota of 600: measure below 0\.0000|more than half its quota of 600: measure below/);
  t.doesNotThrow(() => checkRate(2, minute, 120, 0));
  t.doesNotThrow(() => checkRate(4, [{ name: "hour", quota: 20000, windowS: 3600 }], 8, 5), "a short measurement spends little of a long window");
  const r = safeRate(synthetic(100), 120);
  // Half the capacity (2 workers / 0.2 s = 10/s) is 5/s; a quarter of 600 a minute, less /health's 5 a second, is (2.5 − 5 → 0.01)/2.
  t.ok(r.perSecond < 5, `capped: ${r.perSecond}`);
  t.match(r.reason, /capped at .* by the "minute" rate limit/);
  const loose = safeRate({ ...synthetic(100), rateLimits: [{ name: "minute", quota: 6000, windowS: 60 }] }, 120);
  t.ok(loose.perSecond > 4 && loose.perSecond < 6.5, `half the capacity when the limit allows it: ${loose.perSecond}`);
  t.notMatch(loose.reason, /capped/);
});

t.test("a served scenario's child gets more than the emulator's own close grace before SIGKILL", async (t) => {
  // The emulator drops connections still open closeGraceMs after SIGTERM, then exits: a kill at the
  // same moment would cut that close short on a busy machine (both were 5 s).
  t.ok(CHILD_KILL_AFTER_MS > defaultLimits.closeGraceMs, `${CHILD_KILL_AFTER_MS} ms after SIGTERM, against a grace of ${defaultLimits.closeGraceMs} ms`);
});
