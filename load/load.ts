/**
 * `load()`: runs scenarios against a target (the embedded emulator in a child process by
 * default) and returns the report and the exit code: 0 all thresholds held and no regression
 * against the baseline, 1 otherwise, 2 for configuration errors or an unreachable target.
 */
import { packageVersion } from "../sim/package-root.ts";
import { request } from "undici";
import { defaultReportDir, openLoadMetrics, outputDirRefusal, outputFileRefusal, parseOutSpec, renderLoadJson, renderLoadTable, writeLoadReports, type LoadMetricsSink, type LoadReport, type LoadScenarioResult, type OutSpec } from "../reports/index.ts";
import { TargetError } from "../conformance/index.ts";
import { loadTargetProfile, type TargetProfile } from "../conformance/target-facts/index.ts";
import { adaptScenario, boundsOf } from "./adapt-scenario.ts";
import { readTarget, type TargetRead } from "./read-target.ts";
import { PACE_HINT } from "./setup-jobs.ts";
import { closeSideClient, isRateLimitStop } from "./target-calls.ts";
import type { Scenario } from "./scenario.ts";
import { compareWithBaseline, readBaseline, type BaselineFigures } from "./baseline.ts";
import { startChildEmulator, type ChildEmulator } from "./emulator-child.ts";
import { exportK6 } from "./k6/export-k6.ts";
import { findK6, runK6Scenario, K6_INSTALL_HINT } from "./k6/run-k6.ts";
import { defaultOptions, LoadConfigError, type LoadOptions } from "./options.ts";
import { runScenario } from "./run-scenario.ts";
import { selectScenarios } from "./select-scenarios.ts";
import type { LoadTarget } from "./target.ts";

export interface LoadIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

export interface LoadDeps {
  readonly io?: LoadIo;
  readonly startEmulator?: (seed: number) => Promise<ChildEmulator>;
  readonly terminalWidth?: number;
}

export interface LoadResult {
  readonly exitCode: number;
  readonly report?: LoadReport;
  readonly files?: { readonly json: string; readonly html: string };
  /** --export-k6: the files written. */
  readonly exported?: readonly string[];
}

const EXEMPT_KEY_ACCESS = "exempt";
const LIMITED_ACCOUNT = "acct-beta";

/** A key in the reproduce line: its variable when it came from the environment, else a placeholder (never the key). */
function keyWord(o: LoadOptions, role: "api" | "limited"): string {
  return o.keysFromEnvironment?.includes(role) ? `"$${role === "api" ? "CPSIM_API_KEY" : "CPSIM_LIMITED_API_KEY"}"` : `'<your --${role === "api" ? "" : "limited-"}api-key>'`;
}

function reproduce(o: LoadOptions, seed: number, names: readonly string[]): string {
  const parts = ["npx cpsim load"];
  if (o.target) parts.push(`--target ${o.target}`);
  if (o.serverlessUrl) parts.push(`--serverless-url ${o.serverlessUrl}`);
  if (o.apiKey) parts.push(`--api-key ${keyWord(o, "api")}`);
  if (o.limitedApiKey) parts.push(`--limited-api-key ${keyWord(o, "limited")}`);
  for (const n of names) parts.push(`--scenario ${n}`);
  for (const f of o.scenarioFiles) parts.push(`--scenario-file ${f}`);
  if (o.durationS !== undefined) parts.push(`--duration ${o.durationS}`);
  if (o.connections !== undefined) parts.push(`--connections ${o.connections}`);
  if (o.rate !== undefined) parts.push(`--rate ${o.rate}`);
  if (o.pipelining !== 1) parts.push(`--pipelining ${o.pipelining}`);
  if (o.targetProfile) parts.push(`--target-profile ${o.targetProfile}`);
  if (o.respectRateLimit) parts.push("--respect-rate-limit");
  parts.push(`--seed ${seed}`);
  return parts.join(" ");
}

/** Which key the run uses and why, said before it starts (a 429 storm is then no riddle). */
export function keyChoice(o: Pick<LoadOptions, "apiKey" | "keysFromEnvironment">, embedded: boolean): string {
  const from = o.keysFromEnvironment?.includes("api") ? "$CPSIM_API_KEY" : "the --api-key given";
  if (embedded && !o.apiKey) {
    return "the embedded emulator's rate-limit-exempt key, so that its per-minute quota does not cut the run short ($CPSIM_API_KEY is read with --target only; --api-key chooses another)";
  }
  if (embedded) return `${from} (the embedded emulator rate-limits every key but its exempt one)`;
  return `${from}: the target's quota for it bounds the run; --respect-rate-limit paces every step to that quota`;
}

function checkUrl(flag: string, url: string | undefined): void {
  if (url === undefined) return;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new LoadConfigError(`${flag} ${url} is not a URL; give one like http://127.0.0.1:8080`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new LoadConfigError(`${flag} ${url}: only http and https targets`);
}

async function reachable(url: string, key: string): Promise<void> {
  try {
    const res = await request(`${url.replace(/\/+$/, "")}/v2/pods`, { headers: { authorization: `Bearer ${key}` }, headersTimeout: 10_000, bodyTimeout: 10_000 });
    await res.body.arrayBuffer();
  } catch (err) {
    throw new LoadConfigError(`the target ${url} is unreachable (${(err as Error).message}); is it running? check --target`);
  }
}

/** A scenario that could not be built for the target: in the report, with the reason, never run. */
function skippedResult(s: Scenario, reason: string): LoadScenarioResult {
  return {
    name: s.name, description: s.description, model: s.defaults.rate !== undefined ? "open" : "closed", connections: 0, pipelining: 0, durationS: 0, requests: 0, rps: 0, bytesPerSecond: 0,
    latency: { count: 0, minUs: 0, meanUs: 0, p50Us: 0, p90Us: 0, p99Us: 0, p999Us: 0, maxUs: 0 }, percentiles: [], series: [], statuses: {}, errors: {}, failed: 0, failedRate: 0,
    rateLimited: 0, late: 0, unsent: 0, checks: [], thresholds: [], passed: true, notes: [], skipped: reason,
  };
}

function outSpecs(texts: readonly string[]): OutSpec[] {
  return texts.map((t) => {
    const spec = parseOutSpec(t);
    if (!spec) throw new LoadConfigError(`--out ${t}: write json=FILE or csv=FILE`);
    return spec;
  });
}

async function profileOf(file: string | undefined): Promise<TargetProfile | undefined> {
  if (!file) return undefined;
  try {
    return await loadTargetProfile(file);
  } catch (err) {
    throw new LoadConfigError((err as Error).message);
  }
}

export async function load(options: Partial<LoadOptions> = {}, deps: LoadDeps = {}): Promise<LoadResult> {
  const o: LoadOptions = { ...defaultOptions, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  const io = deps.io ?? { stdout: (t: string) => process.stdout.write(t), stderr: (t: string) => process.stderr.write(t) };
  // Human output goes to stderr when stdout carries the JSON report.
  const say = o.json ? io.stderr : io.stdout;
  checkUrl("--target", o.target);
  checkUrl("--serverless-url", o.serverlessUrl);
  if (o.serverlessUrl && !o.target) throw new LoadConfigError("--serverless-url needs --target (the embedded emulator serves both on one port)");
  const seed = o.seed ?? Math.floor(Math.random() * 2 ** 31);
  const scenarios = await selectScenarios(o.scenarios, o.scenarioFiles);
  let baseline: BaselineFigures[] | undefined;
  if (o.baseline) baseline = await readBaseline(o.baseline);
  const outs = outSpecs(o.out);
  const profile = await profileOf(o.targetProfile);
  // Where files go is checked before any request, not found out after the run.
  const folder = o.exportK6 ? { flag: "--export-k6", dir: o.exportK6 } : { flag: "--report-dir", dir: o.reportDir ?? defaultReportDir("load") };
  const folderRefusal = outputDirRefusal(folder.flag, folder.dir);
  if (folderRefusal !== undefined) throw new LoadConfigError(folderRefusal);
  for (const out of o.exportK6 ? [] : outs) {
    const refusal = outputFileRefusal("--out", out.file);
    if (refusal !== undefined) throw new LoadConfigError(refusal);
  }

  if (o.exportK6) {
    const files = await exportK6(scenarios, o.exportK6, { target: o.target, serverlessUrl: o.serverlessUrl, endpoint: o.endpoint, durationS: o.durationS, rate: o.rate, seed });
    say(`cpsim load: wrote ${files.length} files to ${o.exportK6} (one k6 script per scenario, k6-operator TestRun and ConfigMap recipe)\n`);
    return { exitCode: 0, exported: files };
  }
  let k6: string | undefined;
  if (o.engine === "k6") {
    k6 = await findK6();
    if (!k6) throw new LoadConfigError(`--engine k6: no k6 binary on PATH. ${K6_INSTALL_HINT}`);
  }

  let child: ChildEmulator | undefined;
  let target: LoadTarget;
  if (o.target) {
    const key = o.apiKey ?? "";
    if (!key) throw new LoadConfigError("--api-key (or $CPSIM_API_KEY) is needed with --target: a key of the target's; one with a large quota, or --respect-rate-limit to pace the run to its quota");
    target = { baseUrl: o.target, serverlessUrl: o.serverlessUrl ?? o.target, apiKey: key, limitedApiKey: o.limitedApiKey ?? key, endpoint: o.endpoint };
    await reachable(target.baseUrl, key);
  } else {
    child = await (deps.startEmulator ?? startChildEmulator)(seed);
    const exempt = child.apiKeys.find((k) => k.access === EXEMPT_KEY_ACCESS)?.key;
    const limited = child.apiKeys.find((k) => k.account === LIMITED_ACCOUNT && k.access === "full")?.key ?? child.apiKeys.find((k) => k.access === "full")?.key;
    const key = o.apiKey ?? exempt ?? limited ?? "";
    target = { baseUrl: child.baseUrl, serverlessUrl: child.serverlessUrl, apiKey: key, limitedApiKey: o.limitedApiKey ?? limited ?? key, endpoint: o.endpoint };
  }

  const startedAt = new Date().toISOString();
  say(`cpsim load: ${scenarios.length} scenario(s) against ${target.baseUrl}${child ? " (embedded emulator, child process)" : ""}, seed ${seed}, engine ${o.engine}, ${o.rate !== undefined ? `open model at ${o.rate} req/s` : "closed model unless a scenario sets a rate"}${o.respectRateLimit ? ", paced to the target's rate limit" : ""}\n`);
  say(`  key: ${keyChoice(o, child !== undefined)}\n`);
  const results: LoadScenarioResult[] = [];
  let read: TargetRead | undefined;
  let sink: LoadMetricsSink | undefined;
  try {
    try {
      read = await readTarget(target, scenarios, { profile, respectRateLimit: o.respectRateLimit, timeoutS: o.timeoutS });
    } catch (err) {
      if (isRateLimitStop(err)) throw new LoadConfigError(`reading the target before the run: stopped by its rate limit (${err.message}); ${PACE_HINT}`);
      if (err instanceof TargetError) throw new LoadConfigError(`reading the target before the run: ${err.message}; check --target`);
      throw err;
    }
    for (const line of read.notes) say(`  target: ${line}\n`);
    if (outs.length > 0) {
      try {
        sink = await openLoadMetrics(outs);
      } catch (err) {
        throw new LoadConfigError(`--out: cannot write ${outs.map((x) => x.file).join(", ")} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); choose another file`);
      }
    }
    for (const s of scenarios) {
      const adapted = adaptScenario(s, target, read, boundsOf(s, o));
      if ("skip" in adapted) {
        say(`  ${s.name}: skipped: ${adapted.skip}\n`);
        const r = skippedResult(s, adapted.skip);
        results.push(r);
        sink?.scenario(r);
        continue;
      }
      let r: LoadScenarioResult;
      if (k6) {
        r = await runK6Scenario(k6, adapted.scenario, target, { durationS: o.durationS, rate: o.rate, seed });
      } else {
        const metrics = sink;
        r = await runScenario(adapted.scenario, target, {
          durationS: o.durationS,
          connections: o.connections,
          maxRequests: o.maxRequests,
          rate: o.rate,
          pipelining: o.pipelining,
          timeoutS: o.timeoutS,
          seed,
          respectRateLimit: o.respectRateLimit,
          progress: o.progress ? (line) => io.stderr(`${line}\n`) : undefined,
          onSecond: metrics ? (row) => metrics.second(s.name, row) : undefined,
          facts: read.facts,
          quota: s.key === "limited" ? read.limitedQuota : read.quota,
          notes: adapted.notes,
        });
      }
      results.push(r);
      sink?.scenario(r);
    }
  } finally {
    await sink?.close();
    await closeSideClient(target);
    await child?.stop();
  }
  const compared = baseline && o.baseline ? { file: o.baseline, maxRegressionPct: o.maxRegressionPct, ...compareWithBaseline(results, baseline, o.maxRegressionPct) } : undefined;
  const names = scenarios.map((s) => s.name);
  const report: LoadReport = {
    tool: "cpsim load",
    version: packageVersion(),
    startedAt,
    seed,
    engine: o.engine,
    target: { baseUrl: target.baseUrl, serverlessUrl: target.serverlessUrl, embedded: child !== undefined, endpoint: target.endpoint },
    scenarios: results,
    baseline: compared,
    ...(read ? { targetRead: read.notes } : {}),
    // A run that measured nothing is not green: every scenario skipped fails it.
    passed: results.every((r) => r.passed) && results.some((r) => !r.skipped) && (compared?.regressions.length ?? 0) === 0,
    reproduce: reproduce(o, seed, o.scenarios.length ? names : []),
  };
  say(renderLoadTable(report, deps.terminalWidth ?? 120));
  const dir = o.reportDir ?? defaultReportDir("load");
  let files: { json: string; html: string } | undefined;
  try {
    files = await writeLoadReports(report, dir);
    say(`reports: ${files.json}, ${files.html}${outs.length ? `; per-second figures: ${outs.map((x) => x.file).join(", ")}` : ""}\n`);
  } catch (err) {
    // The run's figures are not lost: report.json goes to stdout instead.
    io.stderr(`cpsim load: cannot write the reports to ${dir} (${(err as Error).message}); choose another --report-dir. report.json follows on stdout.\n`);
    io.stdout(renderLoadJson(report));
    return { exitCode: 2, report };
  }
  if (o.json) io.stdout(renderLoadJson(report));
  return { exitCode: report.passed ? 0 : 1, report, files };
}
