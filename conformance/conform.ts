/**
 * `conform(options)`: the library function behind `cpsim conform`. It resolves and validates
 * the options, loads the baseline, checks that the target answers at all, runs the registered
 * checks one by one (printing each result as it comes), compares with the baseline, writes
 * report.json, junit.xml and report.html through reports/, prints the summary with wall time
 * and requests/s, and returns the exit code: 0 no (new) failure, 1 a (new) failure, 2 a
 * configuration problem, an unreachable target, or target errors that left rules unjudged.
 *
 * Extension points for what comes later: `deps.startEmbedded` starts the in-process emulator
 * when no --target is given, `deps.oracle` reaches every check's context, and the checks
 * themselves register in `checks` (check-registry.ts).
 */
import { packageVersion } from "../sim/package-root.ts";
import { summarize, type ConformanceReport, type RuleResult, type TargetErrorRecord } from "../reports/conformance-report.ts";
import { renderJsonReport } from "../reports/json-report.ts";
import { renderSummaryTable } from "../reports/summary-table.ts";
import { writeConformanceReports, type WrittenReports } from "../reports/write-reports.ts";
import { applyBaseline, loadBaseline, newFailures, type Baseline } from "./baseline.ts";
import type { Oracle } from "./check.ts";
import { checks as defaultRegistry, type CheckRegistry } from "./check-registry.ts";
import { Client, type ClientOptions } from "./client.ts";
import { ConformConfigError, TargetError } from "./errors.ts";
import type { Keys } from "./keys.ts";
import { describeOptions, resolveOptions, type ConformOptions, type ResolvedOptions } from "./options.ts";
import { progressLine } from "./progress.ts";
import { runCheck } from "./run-check.ts";
import { selectRules } from "./rule-glob.ts";
import { SPEC_TRANSITIONS, transitionKey } from "./spec-transitions.ts";

export interface Output {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** A target started in-process when no --target is given (the embedded emulator). */
export interface EmbeddedTarget {
  readonly rest: string;
  readonly serverless?: string;
  /** Keys the embedded target accepts, for the roles the user did not give. */
  readonly keys?: Keys;
  readonly endpoint?: string;
  /** Whether it serves the control API (virtual time). */
  readonly controlApi?: boolean;
  readonly oracle?: Oracle;
  close(): Promise<void>;
}

export interface ConformDeps {
  readonly registry?: CheckRegistry;
  readonly io?: Output;
  readonly startEmbedded?: (options: ResolvedOptions) => Promise<EmbeddedTarget>;
  readonly oracle?: Oracle;
  /** Whether a --target serves the emulator's control API. */
  readonly controlApi?: boolean;
  readonly terminalWidth?: number;
  /** Client settings (pacing bounds, a fake clock in tests). */
  readonly client?: Partial<Omit<ClientOptions, "keys" | "timeoutMs">>;
  readonly now?: () => number;
  readonly cwd?: string;
}

export interface ConformResult {
  readonly exitCode: 0 | 1 | 2;
  readonly report: ConformanceReport;
  readonly written: WrittenReports;
  readonly newFailures: readonly string[];
}

const silent: Output = { stdout: () => {}, stderr: () => {} };

function toolVersion(): string {
  try {
    return packageVersion();
  } catch {
    return "unknown";
  }
}

async function assertReachable(client: Client, url: string, flag: string, timeoutMs: number): Promise<void> {
  try {
    await client.request({ method: "GET", url: `${url}/`, timeoutMs: Math.min(timeoutMs, 10_000) });
  } catch (err) {
    if (err instanceof TargetError) {
      throw new ConformConfigError("CPSIM_ERR_TARGET_UNREACHABLE", `${flag} ${url} is unreachable: ${err.message}`);
    }
    throw err;
  }
}

export async function conform(input: Partial<ConformOptions>, deps: ConformDeps = {}): Promise<ConformResult> {
  const now = deps.now ?? Date.now;
  const io = deps.io ?? silent;
  const registry = deps.registry ?? defaultRegistry;
  const resolved = resolveOptions(input, deps.cwd);
  const say = resolved.json ? io.stderr : io.stdout;
  const baseline: Baseline | undefined = resolved.baseline ? await loadBaseline(resolved.baseline) : undefined;

  const catalogIds = registry.catalog.rules.map((r) => r.id);
  if (resolved.only.length && selectRules(catalogIds, resolved.only, []).length === 0) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `--only ${resolved.only.join(",")} matches no rule of the catalog`);
  }

  let embedded: EmbeddedTarget | undefined;
  if (!resolved.target) {
    if (!deps.startEmbedded) {
      throw new ConformConfigError("CPSIM_ERR_NO_TARGET", "no --target given, and this build has no embedded emulator to test instead; pass --target URL");
    }
    embedded = await deps.startEmbedded(resolved);
  }
  try {
    const options: ResolvedOptions = embedded
      ? {
          ...resolved,
          target: embedded.rest,
          serverlessUrl: embedded.serverless ?? embedded.rest,
          endpoint: input.endpoint ?? embedded.endpoint ?? resolved.endpoint,
          keys: { ...embedded.keys, ...resolved.keys },
        }
      : resolved;
    return await runAll(options, { ...deps, io, registry, now, say, baseline, embedded });
  } finally {
    await embedded?.close();
  }
}

interface RunContext extends ConformDeps {
  readonly io: Output;
  readonly registry: CheckRegistry;
  readonly now: () => number;
  readonly say: (text: string) => void;
  readonly baseline?: Baseline;
  readonly embedded?: EmbeddedTarget;
}

async function runAll(options: ResolvedOptions, run: RunContext): Promise<ConformResult> {
  const rest = options.target as string;
  const serverless = options.serverlessUrl ?? rest;
  const startedAt = run.now();
  const controlApi = run.embedded?.controlApi ?? run.controlApi ?? false;
  // On a target with the emulator's control API, waiting for a rate-limit window means moving
  // virtual time: a real sleep would never reach the reset of a manual clock.
  const sleep = run.client?.sleep ?? (controlApi ? (ms: number) => advanceVirtualClock(rest, ms, options.timeoutMs) : undefined);
  const client = Client.create({
    ...run.client,
    ...(sleep ? { sleep } : {}),
    timeoutMs: options.timeoutMs,
    keys: options.keys,
    now: run.client?.now ?? run.now,
    startedAt,
  });
  try {
    run.say(`cpsim conform: seed ${options.seed}\n  ${describeOptions({ ...options, target: rest, serverlessUrl: serverless })}\n`);
    await assertReachable(client, rest, "--target", options.timeoutMs);
    if (serverless !== rest) await assertReachable(client, serverless, "--serverless-url", options.timeoutMs);
    const requestsBefore = client.stats.requests;

    const selected = selectRules(run.registry.list().map((c) => c.ruleId), options.only, options.skip);
    const transitions = new Set<string>();
    const results: RuleResult[] = [];
    const targetErrors: TargetErrorRecord[] = [];
    for (const [i, id] of selected.entries()) {
      const check = run.registry.get(id)!;
      const rule = run.registry.catalog.get(id)!;
      const { result, targetErrors: errors } = await runCheck({
        check,
        rule,
        client,
        options,
        target: { rest, serverless, endpoint: options.endpoint },
        controlApi,
        oracle: run.embedded?.oracle ?? run.oracle,
        log: (m) => run.say(`      ${id}: ${m}\n`),
        now: run.now,
        transitions,
      });
      // The baseline applies as each rule finishes, so the live progress already says KNOWN.
      const [judged] = applyBaseline([result], run.baseline);
      results.push(judged);
      targetErrors.push(...errors);
      run.say(progressLine(i + 1, selected.length, judged));
    }

    const rules = results;
    const checked = new Set(rules.filter((r) => r.status !== "skip").map((r) => r.id));
    const catalogIds = run.registry.catalog.rules.map((r) => r.id);
    const wallTimeMs = run.now() - startedAt;
    const report: ConformanceReport = {
      tool: { name: "cpsim", version: toolVersion() },
      target: rest,
      serverlessUrl: serverless,
      seed: options.seed,
      profile: options.profile,
      startedAt: new Date(startedAt).toISOString(),
      wallTimeMs,
      requests: client.stats.requests - requestsBefore,
      ...(run.baseline ? { baseline: run.baseline.file } : {}),
      rules,
      coverage: {
        rules: { checked: checked.size, total: catalogIds.length, unchecked: catalogIds.filter((id) => !checked.has(id)) },
        transitions: SPEC_TRANSITIONS.map((t) => ({ ...t, exercised: transitions.has(transitionKey(t.machine, t.from, t.to)) })),
      },
      summary: summarize(rules, targetErrors.length),
      targetErrors,
    };
    const written = await writeConformanceReports(report, { dir: options.reportDir, ...(options.junit ? { junit: options.junit } : {}) });
    const fresh = newFailures(rules);
    const exitCode: 0 | 1 | 2 = fresh.length > 0 ? 1 : targetErrors.length > 0 ? 2 : 0;
    run.say(`\n${renderSummaryTable(report, { width: run.terminalWidth ?? 100 })}`);
    run.say(`reports: ${written.json}\n         ${written.junit}\n         ${written.html}\n${written.extraJunit ? `         ${written.extraJunit}\n` : ""}`);
    if (exitCode === 2) run.say(`exit 2: ${targetErrors.length} target error(s) left rules unjudged; see the report\n`);
    if (options.json) run.io.stdout(renderJsonReport(report));
    return { exitCode, report, written, newFailures: fresh };
  } finally {
    await client.close();
  }
}

/** Moves the emulator's virtual clock forward by `ms` through its control API. */
async function advanceVirtualClock(baseUrl: string, ms: number, timeoutMs: number): Promise<void> {
  const res = await fetch(new URL("/_sim/clock/advance", baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ms: Math.max(0, Math.ceil(ms)) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  await res.arrayBuffer();
}
