/**
 * The workers' scaling against hidden truth: the emulator runs in real time with a pool of 1 to 3
 * workers that stop after 3 s idle, settings the calibrator is not given. One measurement at a rate
 * one worker cannot carry (the pool grows), then the idle watch after the last job: the fit must find
 * the minimum, the maximum and the idle timeout, each with its interval and source, in the scenario.
 */
import t from "tap";
import { parseScenario } from "../scenario.ts";
import { calibrate } from "./calibrate.ts";
import { measureJobs } from "./measure-jobs.ts";
import { serveScenarioInChild } from "./serve-scenario-child.ts";

const IDLE_MS = 3000;
const HIDDEN = parseScenario(
  {
    name: "hidden-scaler",
    description: "a scaling pool the calibrator must find",
    hours: 1,
    outsideDemand: { intensity: 0 },
    endpoints: [
      {
        id: "hidden",
        gpuTypeIds: ["NVIDIA A100 80GB PCIe"],
        workersMin: 1,
        workersMax: 3,
        idleTimeoutMs: IDLE_MS,
        scaler: { type: "QueueDelay", value: 1 },
        coldStartMs: { mean: 400, cv: 0.2 },
        executionMs: { dist: "gamma", mean: 300, cv: 0.5 },
      },
    ],
  },
  "hidden-scaler",
);
const KEY = "cpsim_load_exempt_5b0e8d3a6c1f9247";
t.setTimeout(300_000);

t.test("min and max workers and the idle timeout, fitted from /health during the run and after the last job", async (t) => {
  const em = await serveScenarioInChild(t, HIDDEN);
  // 8 jobs/s × 0.3 s = 2.4 workers busy: one or two are not enough, three are (ρ = 0.8).
  const m = await measureJobs({ serverlessUrl: em.serverlessUrl, apiKey: KEY, endpoint: "hidden", perSecond: 8, durationS: 10, seed: 4, healthEveryMs: 100, settleTimeoutS: 60, drainTimeoutS: 60, idleWatchS: 60 });
  t.same(m.errors, {}, "no call failed");
  t.ok((m.idle ?? []).length > 10, `${m.idle?.length} samples after the last job`);
  t.equal(m.idleWatch?.stopped, "floor", "the watch ended when the workers were back to the settled count");
  const { scenario, calibration } = calibrate([m], { seed: 1 });
  const ep = scenario.endpoints![0];
  t.equal(ep.workersMin, 1, "the minimum: the floor the workers came back to");
  t.equal(ep.workersMax, 3, `the maximum: the most seen (workers over time: ${m.health.map((h) => h.idle + h.running + h.initializing).join("")})`);
  const v = calibration.values;
  t.same(v["endpoints/0/workersMin"].interval, [1, 1]);
  t.match(v["endpoints/0/workersMin"].note, /came back to the count the endpoint had settled at/);
  t.equal(v["endpoints/0/workersMax"].interval![0], 3);
  const idle = v["endpoints/0/idleTimeoutMs"];
  t.match(idle.source, /worker stop\(s\) timed/);
  const [lo, hi] = idle.interval!;
  t.ok(Math.abs((idle.value as number) - IDLE_MS) <= 0.2 * IDLE_MS, `idle timeout ${idle.value} ms (${lo}..${hi}), hidden ${IDLE_MS}`);
  t.ok(lo <= (idle.value as number) && (idle.value as number) <= hi, "the value lies in its interval");
  t.ok(hi - lo < IDLE_MS, "the interval says something");
  t.equal(ep.idleTimeoutMs, idle.value, "written into the scenario's endpoint");
  t.doesNotThrow(() => parseScenario(JSON.parse(JSON.stringify(scenario)), "written"), "an ordinary scenario file");
});
