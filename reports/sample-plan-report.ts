/** A small, hand-made plan report for the renderers' tests: two sweep points, one endpoint, a warning and a find result. */
import type { PlanEndpointFigures, PlanEstimate, PlanReport } from "./plan-report.ts";

const e = (mean: number, spread = 0.1): PlanEstimate => ({ mean, lo: mean * (1 - spread), hi: mean * (1 + spread), n: 5 });
const dist = (base: number) => ({ mean: e(base), p50: e(base * 0.7), p90: e(base * 2), p99: e(base * 4), max: e(base * 6) });

function endpoint(workers: number): PlanEndpointFigures {
  const queued = Array.from({ length: 60 }, (_, i) => Math.round(10 * Math.abs(Math.sin(i / 6)) * (8 / workers)));
  return {
    endpoint: "chat-<api>",
    config: { gpuTypeIds: ["NVIDIA L40S"], gpuCount: 1, workersMin: 1, workersMax: workers, scaler: "RequestCount 1", idleTimeoutMs: 60000 },
    jobs: {
      submitted: e(10000, 0.02),
      completed: e(9900, 0.02),
      failed: e(20),
      timedOut: e(0, 0),
      cancelled: e(0, 0),
      expired: e(0, 0),
      unfinishedQueued: e(70),
      unfinishedRunning: e(workers, 0),
    },
    unfinishedAgeMs: { p50: e(4000), max: e(12000) },
    delayMs: dist(800 / workers),
    delayAllMs: dist(850 / workers),
    executionMs: dist(600),
    coldStarts: { count: e(12), p99Ms: e(25000) },
    placementFailures: e(0, 0),
    throttledWorkerMinutes: e(0, 0),
    gpuSeconds: e(3600 * workers),
    costUsd: e(workers * 0.99),
    costPer1000: e(workers * 0.1),
    queue: { mean: e(2), max: e(20) },
    workers: { mean: e(workers * 0.8), max: e(workers, 0) },
    heldBy: { gpuStock: e(0, 0), coldStart: e(100), workerCap: e(900), scaler: e(0, 0) },
    limit: { name: "workerCap", share: 0.9, text: `90% of the waiting happened at the worker cap (workersMax ${workers})` },
    series: { stepS: 60, startS: 600, queued, workers: queued.map(() => workers), throttled: queued.map(() => 0) },
    delayHistogram: [[0, 5000], [1, 200], [16, 300], [256, 1200], [1024, 900], [4096, 80]],
  };
}

export const samplePlanReport: PlanReport = {
  tool: "cpsim plan",
  scenario: "sample <script>alert(1)</script>",
  description: "A sample for the renderers' tests",
  seeds: [1, 2, 3, 4, 5],
  hours: 1,
  warmupMinutes: 10,
  percentileResolution: "percentiles within ±0.05% of the exact value",
  sweep: [],
  find: { param: "workersMax", slo: "p99 delay < 2s", range: [4, 8], answer: 8, evaluated: [4, 8], text: "cheapest workersMax meeting \"p99 delay < 2s\" at the upper 95% bound: 8" },
  points: [
    { index: 0, params: { workersMax: 4 }, endpoints: [endpoint(4)], slo: { pass: false, figures: [{ metric: "chat-<api> p99 delay", bound: 880, limit: 2000 }] } },
    { index: 1, params: { workersMax: 8 }, endpoints: [endpoint(8)], slo: { pass: true, figures: [{ metric: "chat-<api> p99 delay", bound: 440, limit: 2000 }] } },
  ],
  checks: [
    { kind: "little", point: 0, endpoint: "chat-<api>", ok: false, expected: 2.4, estimate: e(2), message: "Little's law: mean queue L 2.000 vs λW 2.400: does not hold" },
    { kind: "erlang-c", point: 1, endpoint: "chat-<api>", ok: true, expected: 0.1, estimate: e(0.1), message: "M/M/8: Erlang C mean wait 0.1000 s, simulated 0.1000 s" },
  ],
  notes: ["warning: chat-<api> (point 1): Little's law: mean queue L 2.000 vs λW 2.400: does not hold"],
};
