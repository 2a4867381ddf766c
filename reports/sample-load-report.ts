/** A fixed load report for the writers' tests: two scenarios, one failed, hostile text in a description. */
import type { LoadReport, LoadScenarioResult } from "./load-report.ts";

const series = (base: number) =>
  Array.from({ length: 5 }, (_, i) => ({
    t: i + 1, requests: 1000 + i, p50Us: base + i * 10, p90Us: base * 2 + i * 20, p95Us: base * 3 + i * 30, p99Us: base * 4 + i * 50, maxUs: base * 10, errors: 0,
    s2xx: 1000 + i - (i === 4 ? 3 : 0), s3xx: 0, s4xx: 0, s5xx: 0, s429: i === 4 ? 3 : 0, failed: 0,
  }));
const percentiles = (base: number) => [0, 50, 90, 99, 99.9, 100].map((p) => ({ percentile: p, us: Math.round(base * (1 + p / 20)) }));

const closed: LoadScenarioResult = {
  name: "run-small",
  description: "POST run with a 1 KB input",
  model: "closed",
  connections: 10,
  pipelining: 1,
  durationS: 5,
  requests: 5010,
  rps: 1002,
  bytesPerSecond: 200_000,
  latency: { count: 5010, minUs: 120, meanUs: 480, p50Us: 450, p90Us: 700, p99Us: 1900, p999Us: 4200, maxUs: 9100 },
  percentiles: percentiles(450),
  series: series(450),
  statuses: { "200": 5010 },
  errors: { reset: 0, timeout: 0, refused: 0, other: 0 },
  failedRate: 0,
  rateLimited: 0,
  late: 0,
  unsent: 0,
  checks: [{ name: "status is 200", passes: 5010, fails: 0 }],
  thresholds: [{ metric: "checks", expression: "rate>0.99", ok: true, actual: 1 }],
  passed: true,
  notes: [],
};

const open: LoadScenarioResult = {
  ...closed,
  name: "rate-limit",
  description: 'A <script>alert("x")</script> & "quoted" description',
  model: "open",
  rate: 40,
  requests: 120,
  rps: 40,
  statuses: { "200": 50, "404": 4, "503": 6, "429": 60 },
  failed: 10,
  rateLimited: 60,
  first429: { atMs: 1500, window: "minute" },
  late: 2,
  checks: [{ name: "no 429 before the window's remaining count reached 0", passes: 0, fails: 1, detail: "1 429(s) came <early>" }],
  thresholds: [{ metric: "http_req_duration", expression: "p(99)<1", ok: false, actual: 1.9 }],
  passed: false,
  percentiles: percentiles(900),
  series: series(900),
};

const skipped: LoadScenarioResult = {
  ...closed,
  name: "create-pod",
  description: "POST /v2/pods",
  requests: 0,
  rps: 0,
  series: [],
  percentiles: [],
  statuses: {},
  checks: [],
  thresholds: [],
  skipped: "the target's catalog offers no GPU type or CPU flavor to build a valid createPod body from",
};

export const sampleLoadReport: LoadReport = {
  tool: "cpsim load",
  version: "0.1.0",
  startedAt: "2026-01-01T00:00:00.000Z",
  seed: 42,
  engine: "autocannon",
  target: { baseUrl: "http://127.0.0.1:8080", serverlessUrl: "http://127.0.0.1:8080", embedded: true, endpoint: "conformance" },
  scenarios: [closed, open, skipped],
  baseline: {
    file: "base.json",
    maxRegressionPct: 10,
    regressions: [{ scenario: "run-small", figure: "p99_us", baseline: 1000, current: 1900, worsePct: 90 }],
    missing: ["rate-limit", "create-pod"],
    comparisons: [
      { scenario: "run-small", figure: "rps", baseline: 1000, current: 1002, changePct: 0.2, judged: true, regressed: false },
      { scenario: "run-small", figure: "p50_us", baseline: 450, current: 450, changePct: 0, judged: true, regressed: false },
      { scenario: "run-small", figure: "p99_us", baseline: 1000, current: 1900, changePct: 90, judged: true, regressed: true },
    ],
  },
  targetRead: ['catalog: 3 GPU types from GET /v2/catalog/gpus'],
  passed: false,
  reproduce: "npx cpsim load --seed 42",
};
