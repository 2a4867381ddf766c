/**
 * `load()`: runs scenarios against a target (the embedded emulator in a child process by
 * default) and returns the report and the exit code: 0 all thresholds held and no regression
 * against the baseline, 1 otherwise, 2 for configuration errors or an unreachable target.
 */
import { packageVersion } from "../sim/package-root.ts";
import { request } from "undici";
import { defaultReportDir, renderLoadJson, renderLoadTable, writeLoadReports, type LoadReport, type LoadScenarioResult } from "../reports/index.ts";
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

function reproduce(o: LoadOptions, seed: number, names: readonly string[]): string {
  const parts = ["cpsim load"];
  if (o.target) parts.push(`--target ${o.target}`);
  if (o.serverlessUrl) parts.push(`--serverless-url ${o.serverlessUrl}`);
  for (const n of names) parts.push(`--scenario ${n}`);
  for (const f of o.scenarioFiles) parts.push(`--scenario-file ${f}`);
  if (o.durationS !== undefined) parts.push(`--duration ${o.durationS}`);
  if (o.connections !== undefined) parts.push(`--connections ${o.connections}`);
  if (o.rate !== undefined) parts.push(`--rate ${o.rate}`);
  if (o.pipelining !== 1) parts.push(`--pipelining ${o.pipelining}`);
  parts.push(`--seed ${seed}`);
  return parts.join(" ");
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
    if (!key) throw new LoadConfigError("--api-key (or $CPSIM_API_KEY) is needed with --target");
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
  say(`cpsim load: ${scenarios.length} scenario(s) against ${target.baseUrl}${child ? " (embedded emulator, child process)" : ""}, seed ${seed}, engine ${o.engine}, ${o.rate !== undefined ? `open model at ${o.rate} req/s` : "closed model unless a scenario sets a rate"}\n`);
  const results: LoadScenarioResult[] = [];
  try {
    for (const s of scenarios) {
      if (k6) {
        results.push(await runK6Scenario(k6, s, target, { durationS: o.durationS, rate: o.rate, seed }));
        continue;
      }
      results.push(
        await runScenario(s, target, {
          durationS: o.durationS,
          connections: o.connections,
          maxRequests: o.maxRequests,
          rate: o.rate,
          pipelining: o.pipelining,
          timeoutS: o.timeoutS,
          seed,
          respectRateLimit: o.respectRateLimit,
          progress: o.progress ? (line) => io.stderr(`${line}\n`) : undefined,
        }),
      );
    }
  } finally {
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
    passed: results.every((r) => r.passed) && (compared?.regressions.length ?? 0) === 0,
    reproduce: reproduce(o, seed, o.scenarios.length ? names : []),
  };
  say(renderLoadTable(report, deps.terminalWidth ?? 120));
  const dir = o.reportDir ?? defaultReportDir("load");
  let files: { json: string; html: string } | undefined;
  try {
    files = await writeLoadReports(report, dir);
    say(`reports: ${files.json}, ${files.html}\n`);
  } catch (err) {
    // The run's figures are not lost: report.json goes to stdout instead.
    io.stderr(`cpsim load: cannot write the reports to ${dir} (${(err as Error).message}); choose another --report-dir. report.json follows on stdout.\n`);
    io.stdout(renderLoadJson(report));
    return { exitCode: 2, report };
  }
  if (o.json) io.stdout(renderLoadJson(report));
  return { exitCode: report.passed ? 0 : 1, report, files };
}
