/**
 * One scenario, start to end: setup (off the hot path), requests built once, the run in the closed
 * or the open model with a progress line a second, the checks made outside the hot path
 * (canary, stream reassembly, rate-limit sequence), teardown, and its result as plain data.
 */
import type { LoadCheck, LoadScenarioResult } from "../reports/index.ts";
import { runClosed } from "./closed-model.ts";
import { runOpen } from "./open-model.ts";
import type { LoadOptions } from "./options.ts";
import { startCanary } from "./canary.ts";
import { prepareRequests, scenarioKey } from "./prepare-requests.ts";
import { runSetup } from "./setup-jobs.ts";
import { checkStreamReassembly } from "./stream-reassembly.ts";
import { terminatePods } from "./terminate-pods.ts";
import { explainResult } from "./explain.ts";
import { describeQuota, quotaRate, readQuota, type Quota } from "./quota.ts";
import { defaultTargetFacts, type TargetFacts } from "../conformance/target-facts/index.ts";
import { CHUNK_LIMIT_BYTES, type Scenario } from "./scenario.ts";
import { ScenarioStats, type SecondRow } from "./scenario-stats.ts";
import type { LoadTarget } from "./target.ts";
import { judgeThresholds, type MetricLookup } from "./thresholds.ts";

/** The run-wide options a scenario takes (bounds left undefined fall back to the scenario's own). */
export interface ScenarioRunOptions extends Pick<LoadOptions, "durationS" | "connections" | "maxRequests" | "rate" | "pipelining" | "timeoutS" | "respectRateLimit"> {
  readonly seed: number;
  /** One line a second while it runs. */
  readonly progress?: (line: string) => void;
  /** Each second's row as it closes (--out). */
  readonly onSecond?: (row: SecondRow) => void;
  /** The target's facts (pod routes for the teardown); choices.md's conventions when absent. */
  readonly facts?: TargetFacts;
  /** The key's rate limit as read before the run, for messages. */
  readonly quota?: Quota;
  /** Notes from adapting the scenario to the target (the pod body it built). */
  readonly notes?: readonly string[];
}

const PERCENTILES = [0, 10, 25, 50, 75, 90, 95, 97.5, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100];
const MAX_POD_IDS = 10_000;

/** Where the key's rate limit is read for a scenario: a GET on the host its requests go to. */
function quotaReadUrl(s: Scenario, target: LoadTarget): string {
  const get = s.requests.find((r) => r.method === "GET" && !r.path.includes("{ids:"));
  if (get) return `${(get.host === "base" ? target.baseUrl : target.serverlessUrl).replace(/\/+$/, "")}${get.path.replaceAll("{endpoint}", encodeURIComponent(target.endpoint))}`;
  if (s.requests.every((r) => r.host === "serverless")) return `${target.serverlessUrl.replace(/\/+$/, "")}/v2/${encodeURIComponent(target.endpoint)}/health`;
  return `${target.baseUrl.replace(/\/+$/, "")}/v2/pods`;
}

export async function runScenario(scenario: Scenario, target: LoadTarget, o: ScenarioRunOptions): Promise<LoadScenarioResult> {
  const notes: string[] = [...(o.notes ?? [])];
  const key = scenarioKey(scenario, target);
  const durationS = o.durationS ?? scenario.defaults.durationS;
  const maxRequests = o.maxRequests ?? scenario.defaults.maxRequests;
  const connections = o.connections ?? scenario.defaults.connections;
  const pace = o.respectRateLimit && !scenario.rateLimitSequence;
  const quotaUrl = quotaReadUrl(scenario, target);
  // --respect-rate-limit: the client around the run learns the quota before setup spends any.
  let quota = pace && scenario.setup?.length ? await readQuota(target, quotaUrl, key, true) : o.quota;
  const ids = await runSetup(scenario, target, quota);
  const prepared = prepareRequests(scenario, target, ids, o.seed);
  let rate = o.rate ?? scenario.defaults.rate;
  let canaryEveryMs = 100;
  if (pace) {
    // What setup left: the run takes most of it, the canary (if any) a fifth.
    quota = await readQuota(target, quotaUrl, key, true);
    const fits = quotaRate(quota, durationS);
    if (fits === undefined) notes.push(`not paced: ${quota.read} answered with no RateLimit or RateLimit-Policy header, so --respect-rate-limit had no quota to pace to`);
    if (fits !== undefined) {
      const share = scenario.canary ? Math.max(0.1, Math.floor(fits * 80) / 100) : fits;
      if (scenario.canary) canaryEveryMs = Math.max(100, Math.ceil(1000 / Math.max(0.05, fits - share)));
      if (rate === undefined || share < rate) {
        rate = share;
        notes.push(`paced to ${rate} req/s by --respect-rate-limit (${describeQuota(quota)})`);
      }
    }
  }
  const stats = new ScenarioStats(scenario);
  const podIds: string[] = [];
  const onResponse = scenario.terminatePods
    ? (r: { status: number; body: string }) => {
        if (r.status >= 300 || podIds.length >= MAX_POD_IDS) return;
        try {
          const id = (JSON.parse(r.body) as { id?: unknown }).id;
          if (typeof id === "string") podIds.push(id);
        } catch {
          // Not JSON: the check counts it.
        }
      }
    : undefined;
  const canary = scenario.canary
    ? startCanary(target, `${(scenario.canary.host === "base" ? target.baseUrl : target.serverlessUrl).replace(/\/+$/, "")}${scenario.canary.path.replaceAll("{endpoint}", encodeURIComponent(target.endpoint))}`, key, canaryEveryMs)
    : undefined;
  const bounds = {
    durationS,
    maxRequests,
    connections,
    pipelining: o.pipelining,
    timeoutS: o.timeoutS,
    onResponse,
    onSecond:
      o.progress || o.onSecond
        ? (row: SecondRow) => {
            o.onSecond?.(row);
            o.progress?.(`  ${scenario.name}  ${row.t.toFixed(0)}s  ${row.requests} req/s  p99 ${(row.p99Us / 1000).toFixed(2)} ms  errors ${row.errors}  429 ${row.s429}`);
          }
        : undefined,
  };
  const started = performance.now();
  let sent: number | undefined;
  try {
    if (rate !== undefined) sent = await runOpen(prepared, stats, bounds, rate);
    else await runClosed(prepared, stats, bounds);
  } finally {
    // The last, partial second: kept in the series and streamed like the others.
    const last = stats.tick();
    if (last.requests + last.errors > 0) o.onSecond?.(last);
  }
  const elapsedS = (performance.now() - started) / 1000;
  const extra: LoadCheck[] = [];
  if (canary) {
    const c = await canary.stop();
    extra.push({ name: "the server keeps serving meanwhile", ...c });
  }
  if (scenario.streamReassembly) {
    const r = await checkStreamReassembly(target, key, scenario.streamReassembly.sample, scenario.streamReassembly.input, CHUNK_LIMIT_BYTES);
    extra.push({ name: "sample streams reassemble to the handler's output", ...r });
  }
  const rl = stats.rateLimitFindings();
  if (rl.sequence) {
    const s = rl.sequence;
    extra.push({ name: "RateLimit counts down by one per success", passes: s.countdownViolations === 0 ? 1 : 0, fails: s.countdownViolations > 0 ? 1 : 0, detail: s.countdownViolations ? `${s.countdownViolations} success(es) repeated a remaining count` : undefined });
    extra.push({ name: "no 429 before the window's remaining count reached 0", passes: s.earlyLimits === 0 ? 1 : 0, fails: s.earlyLimits > 0 ? 1 : 0, detail: s.earlyLimits ? `${s.earlyLimits} 429(s) came while successes had not reached 0` : undefined });
    extra.push({ name: "RateLimit on every success", passes: s.responsesWithoutHeader === 0 ? 1 : 0, fails: s.responsesWithoutHeader > 0 ? 1 : 0, detail: s.responsesWithoutHeader ? `${s.responsesWithoutHeader} success(es) without RateLimit` : undefined });
  }
  if (pace && (scenario.terminatePods || scenario.streamReassembly)) await readQuota(target, quotaUrl, key, true);
  if (scenario.terminatePods) {
    const done = await terminatePods(target, podIds, o.facts ?? defaultTargetFacts());
    notes.push(`terminated ${done} of ${podIds.length} pod(s) created by the run`);
  }
  const checks = [...stats.checkCounts(), ...extra];
  const latency = stats.latency();
  const all = stats.responses + stats.totalErrors();
  const rps = elapsedS > 0 ? stats.responses / elapsedS : 0;
  const passes = checks.reduce((a, c) => a + c.passes, 0);
  const total = passes + checks.reduce((a, c) => a + c.fails, 0);
  const lookup: MetricLookup = (metric, stat) => {
    switch (metric) {
      case "http_req_duration": {
        if (latency.count === 0) return undefined;
        const p = /^p\((.+)\)$/.exec(stat);
        if (p) return stats.histogram.getValueAtPercentile(Number(p[1])) / 1000;
        const plain: Record<string, number> = { avg: latency.meanUs, min: latency.minUs, med: latency.p50Us, max: latency.maxUs };
        return plain[stat] !== undefined ? plain[stat] / 1000 : undefined;
      }
      case "http_req_failed":
        return stat === "rate" && all > 0 ? stats.failed / all : stat === "count" ? stats.failed : undefined;
      case "checks":
        return stat === "rate" && total > 0 ? passes / total : stat === "count" ? total : undefined;
      case "http_reqs":
        return stat === "count" ? all : stat === "rate" ? rps : undefined;
      case "rate_limited":
        return stat === "count" ? rl.limited : stat === "rate" && all > 0 ? rl.limited / all : undefined;
      case "late_sends":
        return stat === "count" ? stats.late : stat === "rate" && all > 0 ? stats.late / all : undefined;
      default:
        return undefined;
    }
  };
  const thresholds = judgeThresholds(scenario.thresholds, lookup);
  if (!scenario.rateLimitSequence && rl.limited > 0) notes.push(`${rl.limited} answer(s) were 429 (counted apart from errors; the key's quota: ${describeQuota(quota)}); --respect-rate-limit paces to the quota`);
  notes.push(...explainResult({ scenario, result: { statuses: stats.statuses, errors: stats.errors, durationS: elapsedS }, durationS, timeoutS: o.timeoutS, sent, origin: prepared.origin, quota }));
  const result: LoadScenarioResult = {
    name: scenario.name,
    description: scenario.description,
    model: rate !== undefined ? "open" : "closed",
    rate,
    connections,
    pipelining: o.pipelining,
    durationS: Math.round(elapsedS * 1000) / 1000,
    requests: all,
    rps: Math.round(rps * 10) / 10,
    bytesPerSecond: elapsedS > 0 ? Math.round(stats.bytes / elapsedS) : 0,
    latency,
    percentiles: latency.count ? PERCENTILES.map((p) => ({ percentile: p, us: p === 100 ? latency.maxUs : stats.histogram.getValueAtPercentile(p) })) : [],
    series: stats.series,
    statuses: stats.statuses,
    errors: stats.errors,
    failed: stats.failed,
    failedRate: all > 0 ? stats.failed / all : 0,
    rateLimited: rl.limited,
    first429: rl.first429,
    late: stats.late,
    unsent: stats.unsent,
    checks,
    thresholds,
    passed: thresholds.every((t) => t.ok),
    notes,
  };
  stats.destroy();
  return result;
}
