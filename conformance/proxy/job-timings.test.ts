/**
 * Real traffic as a calibration source. A client's job traffic flows through a real proxy in front
 * of the emulator running in real time with endpoint settings nobody gives the calibrator; the
 * proxy's jobs.json holds each job's arrival and timings and /health's counts, and `cpsim plan
 * calibrate --measured` on the proxy's report folder finds the hidden settings. Also: the record
 * stays within its bounds, and without /health the workers are bounded below by the jobs seen
 * running at once.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { serveScenarioInChild } from "../../sim/plan/calibrate/serve-scenario-child.ts";
import { run as planCli } from "../../sim/plan/cli.ts";
import { measureJobs } from "../../sim/plan/calibrate/measure-jobs.ts";
import { measurementFromProxy } from "../../sim/plan/calibrate/from-proxy.ts";
import { calibrate } from "../../sim/plan/calibrate/calibrate.ts";
import type { SeenExchange } from "../passive/answer.ts";
import { JobTimings, writeJobTraffic } from "./job-timings.ts";
import { startProxy } from "./proxy.ts";

const KEY = "cpsim_load_exempt_5b0e8d3a6c1f9247";
// The truth the calibrator must find: 3 fixed workers, gamma run times of mean 150 ms (cv 0.6), 800 ms cold starts.
const HIDDEN = {
  name: "hidden",
  description: "the truth the calibrator must find",
  hours: 1,
  outsideDemand: { intensity: 0 },
  endpoints: [{ id: "hidden", gpuTypeIds: ["NVIDIA A100 80GB PCIe"], workersMin: 3, workersMax: 3, coldStartMs: { mean: 800, cv: 0.2 }, executionMs: { dist: "gamma", mean: 150, cv: 0.6 } }],
};
t.setTimeout(300_000);

function io() {
  const out: string[] = [];
  return { out, io: { stdout: (s: string) => void out.push(s), stderr: () => {} } };
}

t.test("traffic through the proxy calibrates the hidden endpoint", async (t) => {
  const em = await serveScenarioInChild(t, HIDDEN);
  const dir = em.dir;
  const reportDir = join(dir, "proxy");
  const proxy = await startProxy({ target: em.baseUrl, serverlessUrl: em.serverlessUrl, reportDir });
  let stopped = false;
  t.teardown(() => (stopped ? undefined : proxy.stop()));

  // The client: Poisson jobs at 9/s (ρ = 9 × 0.15 / 3 = 0.45) for 8 s, each followed with status-sync, /health read every 100 ms.
  const m = await measureJobs({ serverlessUrl: proxy.serverlessUrl, apiKey: KEY, endpoint: "hidden", perSecond: 9, durationS: 8, seed: 3, healthEveryMs: 100, settleTimeoutS: 60, drainTimeoutS: 60 });
  t.same(m.errors, {}, "no call failed through the proxy");
  const log = proxy.jobTraffic();
  await proxy.stop();
  stopped = true;
  await writeJobTraffic(reportDir, log);

  const ep = log.endpoints.find((e) => e.endpoint === "hidden");
  t.ok(ep, "the proxy kept the endpoint's traffic");
  t.equal(ep!.jobs.length, m.jobs.length, "every submission the client made");
  const byDelay = (xs: ReadonlyArray<{ delayMs?: number; executionMs?: number }>) => xs.map((j) => [j.delayMs, j.executionMs]).sort((a, b) => (a[1] ?? 0) - (b[1] ?? 0) || (a[0] ?? 0) - (b[0] ?? 0));
  t.same(byDelay(ep!.jobs), byDelay(m.jobs), "each job's delayTime and executionTime, as the client got them");
  t.ok(ep!.health.length >= m.health.length, `${ep!.health.length} /health answers kept (the client read ${m.health.length + m.settle.length})`);
  t.ok(ep!.jobs.every((j) => j.runMs !== undefined && j.status === "COMPLETED"));

  const fromProxy = measurementFromProxy(log, "jobs.json");
  t.ok(Math.abs(fromProxy.offeredPerSecond - m.jobs.length / m.durationS) < 2, `the traffic's rate ${fromProxy.offeredPerSecond} is the client's`);

  // The command line, from the proxy's report folder.
  const c = io();
  t.equal(await planCli(["calibrate", "--measured", reportDir, "--out", join(dir, "calib"), "--json"], c.io), 0);
  const calibration = JSON.parse(c.out.join(""));
  const scenario = JSON.parse(readFileSync(join(dir, "calib", "scenario.json"), "utf8"));
  const e = scenario.endpoints[0];
  t.equal(e.id, "hidden");
  t.equal(e.workersMin, 3, "the fixed pool's size, from the /health answers the client read");
  t.equal(e.workersMax, 3);
  const [lo, hi] = calibration.values["endpoints/0/executionMs"].interval;
  t.ok(lo < 150 * 1.15 && hi > 150 * 0.85, `the run-time mean's interval ${lo}..${hi} is near the hidden 150 ms`);
  t.ok(Math.abs(scenario.jobs[0].perSecond - 9) < 3, `the arrival rate ${scenario.jobs[0].perSecond} near the client's 9/s`);
  t.equal(calibration.values.discipline.value, "FIFO");
  t.match(calibration.values["endpoints/0/executionMs"].source, /jobs\.json/, "the source names the proxy's job log");
});

/** An exchange as the proxy hands the judge one; only what the job timings read. */
function exchange(method: string, path: string, status: number, json: unknown, sentAt: number, input?: unknown): SeenExchange {
  return {
    seq: 0,
    surface: "serverless",
    request: { method, path, query: new URLSearchParams(), headers: {}, json: input === undefined ? undefined : { input }, size: 0, truncated: false },
    answer: { status, headers: {}, text: "", json, size: 0, truncated: false },
    sentAt,
    answeredAt: sentAt + 5,
    get recorded(): never {
      throw new Error("not needed");
    },
  };
}

t.test("the job record stays within its bounds, keeping the latest stretch", async (t) => {
  const timings = new JobTimings("http://target", 0, { jobsPerEndpoint: 100, healthPerEndpoint: 50, endpoints: 2 });
  for (let i = 0; i < 1000; i++) {
    timings.see(exchange("POST", "/v2/ep/run", 200, { id: `j${i}`, status: "IN_QUEUE" }, i * 10, { op: "embed" }));
    timings.see(exchange("GET", `/v2/ep/status/j${i}`, 200, { id: `j${i}`, status: "COMPLETED", delayTime: 3, executionTime: 40 }, i * 10 + 5));
    timings.see(exchange("GET", "/v2/ep/health", 200, { jobs: { inQueue: 0, inProgress: 1 }, workers: { idle: 1, running: 1 } }, i * 10 + 6));
  }
  timings.see(exchange("POST", "/v2/other/run", 200, { id: "x", status: "IN_QUEUE" }, 1));
  timings.see(exchange("POST", "/v2/third/run", 200, { id: "y", status: "IN_QUEUE" }, 1));
  timings.see(exchange("POST", "/v2/ep/run", 429, { error: "slow down" }, 1));
  const log = timings.snapshot(20_000);
  const ep = log.endpoints[0];
  t.ok(ep.jobs.length <= 100 && ep.jobs.length >= 90, `${ep.jobs.length} jobs kept of 1000`);
  t.ok(ep.health.length <= 50, `${ep.health.length} samples kept`);
  t.equal(ep.jobs[ep.jobs.length - 1].submitMs, 9990, "the latest are kept");
  t.same(ep.jobs[ep.jobs.length - 1], { op: "embed", submitMs: 9990, runMs: 5, status: "COMPLETED", delayMs: 3, executionMs: 40 });
  t.equal(ep.dropped.jobs + ep.jobs.length, 1000, "what was let go is counted");
  t.same(ep.errors, { "run 429": 1 });
  t.equal(log.endpoints.length, 2);
  t.equal(log.endpointsDropped, 1, "an endpoint past the bound is counted, not followed");
});

t.test("without /health, the workers are the most jobs seen running at once (a lower bound, said so)", async (t) => {
  const timings = new JobTimings("http://target", 0);
  // runsync answers final at once: 2 jobs overlap at most (each 100 ms, one every 60 ms).
  for (let i = 0; i < 40; i++) {
    timings.see(exchange("POST", "/v2/ep/runsync", 200, { id: `j${i}`, status: "COMPLETED", delayTime: 0, executionTime: 100 }, i * 60));
  }
  const m = measurementFromProxy(timings.snapshot(5000), "jobs.json");
  t.equal(m.health.length, 0);
  t.equal(m.jobs[0].runMs, undefined, "a runsync's round trip is no queueing bound");
  const { scenario, calibration } = calibrate([m], { seed: 1 });
  t.equal(scenario.endpoints![0].workersMin, 2);
  t.equal(scenario.endpoints![0].workersMax, 2);
  t.match(calibration.values["endpoints/0/workersMin"].method, /at once/);
  t.equal(m.offeredPerSecond, 40 / m.durationS);
  t.ok(Math.abs(m.offeredPerSecond - 1000 / 60) < 1e-9, "n − 1 gaps over the span: the rate is one job per 60 ms");
});
