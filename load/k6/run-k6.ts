/**
 * `--engine k6`: runs a scenario's exported script with a k6 binary found on PATH and reads its
 * handleSummary JSON back into cpsim's report. Without k6 the command stops before any work.
 */
import { execFile } from "node:child_process";
import { access, constants, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import type { LoadScenarioResult } from "../../reports/index.ts";
import type { Scenario } from "../scenario.ts";
import type { LoadTarget } from "../target.ts";
import { exportK6 } from "./export-k6.ts";

export const K6_INSTALL_HINT =
  "Install k6 (https://grafana.com/docs/k6/latest/set-up/install-k6/): on Debian/Ubuntu add Grafana's apt repository and `apt-get install k6`, " +
  "on macOS `brew install k6`, or download a release binary from https://github.com/grafana/k6/releases; or run without --engine (autocannon, built in).";

export async function findK6(path: string = process.env.PATH ?? ""): Promise<string | undefined> {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, "k6");
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

type K6Values = Record<string, number>;
interface K6Summary {
  readonly metrics: Record<string, { values?: K6Values; thresholds?: Record<string, { ok: boolean }> }>;
  readonly state?: { testRunDurationMs?: number };
}

/** Reads a k6 summary (from an exported script's handleSummary) as a scenario result. */
export function resultFromK6Summary(s: Scenario, summary: K6Summary, rate: number): LoadScenarioResult {
  const m = summary.metrics;
  const d = m.http_req_duration?.values ?? {};
  const us = (k: string): number => Math.round((d[k] ?? 0) * 1000);
  const reqs = m.http_reqs?.values ?? {};
  const checks = m.checks?.values ?? {};
  const thresholds = Object.entries(m).flatMap(([metric, v]) => Object.entries(v.thresholds ?? {}).map(([expression, t]) => ({ metric, expression, ok: t.ok })));
  return {
    name: s.name,
    description: s.description,
    model: "k6",
    rate,
    connections: 0,
    pipelining: 1,
    durationS: (summary.state?.testRunDurationMs ?? 0) / 1000,
    requests: reqs.count ?? 0,
    rps: reqs.rate ?? 0,
    bytesPerSecond: m.data_received?.values?.rate ?? 0,
    latency: { count: reqs.count ?? 0, minUs: us("min"), meanUs: us("avg"), p50Us: us("med"), p90Us: us("p(90)"), p99Us: us("p(99)"), p999Us: us("p(99.9)"), maxUs: us("max") },
    percentiles: [],
    series: [],
    statuses: {},
    errors: {},
    failedRate: m.http_req_failed?.values?.rate ?? 0,
    rateLimited: m.rate_limited?.values?.count ?? 0,
    late: 0,
    unsent: m.dropped_iterations?.values?.count ?? 0,
    checks: [{ name: "all checks", passes: checks.passes ?? 0, fails: checks.fails ?? 0 }],
    thresholds,
    passed: thresholds.every((t) => t.ok),
    notes: ["run by k6 (constant-arrival-rate); per-second series and status counts are in k6's own outputs"],
  };
}

export async function runK6Scenario(k6: string, s: Scenario, target: LoadTarget, o: { durationS?: number; rate?: number; seed: number }): Promise<LoadScenarioResult> {
  const dir = await mkdtemp(join(tmpdir(), "cpsim-k6-"));
  try {
    await exportK6([s], dir, { target: target.baseUrl, serverlessUrl: target.serverlessUrl, endpoint: target.endpoint, durationS: o.durationS, rate: o.rate, seed: o.seed });
    const env = { ...process.env, BASE_URL: target.baseUrl, SERVERLESS_URL: target.serverlessUrl, API_KEY: target.apiKey, LIMITED_API_KEY: target.limitedApiKey, ENDPOINT: target.endpoint, SUMMARY_DIR: dir };
    const limitS = (o.durationS ?? s.defaults.durationS) + 180;
    await new Promise<void>((resolve) => {
      // k6 exits 99 when a threshold fails: the summary says which; only a missing summary is an error.
      execFile(k6, ["run", "--quiet", join(dir, "scripts", `${s.name}.js`)], { env, timeout: limitS * 1000, maxBuffer: 16 * 1024 * 1024 }, () => resolve());
    });
    const summary = JSON.parse(await readFile(join(dir, `${s.name}.summary.json`), "utf8")) as K6Summary;
    return resultFromK6Summary(s, summary, o.rate ?? s.defaults.rate ?? 50);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
