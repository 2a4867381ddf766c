/**
 * `conform(options)`: the library function behind `cpsim conform`. It resolves and validates
 * the options, loads the baseline, checks that the target answers at all, runs the registered
 * checks in lanes (schedule.ts: concurrent areas against a real-time target, one after the other
 * where the suite moves the target's clock; rate limits alone), bounded by
 * --max-duration, compares with the baseline, writes report.json, junit.xml and report.html
 * through reports/, prints the summary once, and returns the exit code: 0 no (new) failure and
 * enough rules judged, 1 a (new) failure or fewer rules judged than --min-coverage, 2 a
 * configuration problem, an unreachable target, or target errors that left rules unjudged.
 *
 * Extension points for what comes later: `deps.startEmbedded` starts the in-process emulator
 * when no --target is given, `deps.oracle` reaches every check's context, and the checks
 * themselves register in `checks` (check-registry.ts).
 */
import { appendFile } from "node:fs/promises";
import { packageVersion } from "../sim/package-root.ts";
import { renderStepSummary } from "../reports/step-summary.ts";
import { summarize, type ConformanceReport, type RuleResult } from "../reports/conformance-report.ts";
import { renderJsonReport } from "../reports/json-report.ts";
import { renderSummaryTable } from "../reports/summary-table.ts";
import { writeConformanceReports, type WrittenReports } from "../reports/write-reports.ts";
import { applyBaseline, loadBaseline, newFailures, type Baseline } from "./baseline.ts";
import type { Oracle } from "./check.ts";
import { checks as defaultRegistry, type CheckRegistry } from "./check-registry.ts";
import { Client, type ClientOptions } from "./client.ts";
import { ConformConfigError, TargetError } from "./errors.ts";
import { checkKeys } from "./key-check.ts";
import { describeQuotaSizing, expectedRequests, quotaSizing } from "./quota-sizing.ts";
import { forgetRoutes } from "./route-evidence.ts";
import { KEY_FLAG, type Keys } from "./keys.ts";
import { describeOptions, EMBEDDED_RUNS, rateLimitBudgetS, REALTIME_RUNS, resolveOptions, type ConformOptions, type ResolvedOptions } from "./options.ts";
import { Heartbeat } from "./heartbeat.ts";
import { Progress } from "./progress.ts";
import { platformOracle } from "./oracle/platform-oracle.ts";
import { runLanes } from "./run-lanes.ts";
import { describePlan, jobLaneWidth, planLanes } from "./schedule.ts";
import { criticalPath, describeCriticalPath } from "./critical-path.ts";
import { verdict } from "../reports/verdict.ts";
import { selectRules } from "./rule-glob.ts";
import { SPEC_TRANSITIONS, transitionKey } from "./spec-transitions.ts";
import { discoverTargetFacts, loadTargetProfile, type FactUse, type TargetProfile } from "./target-facts/index.ts";
import { targetFactRecords } from "./target-facts/fact-records.ts";
import { describeTiming, targetTiming } from "./target-timing.ts";

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
  /** Whether progress goes to a terminal: one line rewritten in place instead of one per rule. */
  readonly tty?: boolean;
  /** Client settings (pacing bounds, a fake clock in tests). */
  readonly client?: Partial<Omit<ClientOptions, "keys" | "timeoutMs">>;
  readonly now?: () => number;
  readonly cwd?: string;
  /** Where GITHUB_STEP_SUMMARY is read (default: process.env). */
  readonly env?: NodeJS.ProcessEnv;
}

export interface ConformResult {
  readonly exitCode: 0 | 1 | 2;
  readonly report: ConformanceReport;
  readonly written: WrittenReports;
  readonly newFailures: readonly string[];
}

/** While a rule runs longer than this, a line at most this often says which and what it waits on (heartbeat.ts). */
export const HEARTBEAT_MS = 20_000;

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
  const profile = resolved.targetProfile ? await loadTargetProfile(resolved.targetProfile) : undefined;

  const catalogIds = registry.catalog.rules.map((r) => r.id);
  if (resolved.only.length && selectRules(catalogIds, resolved.only, []).length === 0) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `--only ${resolved.only.join(",")} matches no rule of the catalog`);
  }
  // A selection that leaves nothing can only pass vacuously: a configuration error, before any request.
  if (selectRules(registry.list().map((c) => c.ruleId), resolved.only, resolved.skip).length === 0) {
    const given = [...(resolved.only.length ? [`--only ${resolved.only.join(",")}`] : []), ...(resolved.skip.length ? [`--skip ${resolved.skip.join(",")}`] : [])];
    throw new ConformConfigError("CPSIM_ERR_NOTHING_SELECTED", `${given.join(" with ") || "the selection"} leaves no rule to run, so nothing would be judged; select at least one rule`);
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
          embeddedTarget: true,
        }
      : resolved;
    return await runAll(options, { ...deps, io, registry, now, say, baseline, embedded, ...(profile ? { profile } : {}) });
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
  readonly profile?: TargetProfile;
}

async function runAll(input: ResolvedOptions, run: RunContext): Promise<ConformResult> {
  const rest = input.target as string;
  const serverless = input.serverlessUrl ?? rest;
  const startedAt = run.now();
  const controlApi = run.embedded?.controlApi ?? run.controlApi ?? false;
  // Property runs sized for the target: where the suite moves time, runs are cheap and many.
  const sized: ResolvedOptions = input.runsGiven ? input : { ...input, runs: controlApi ? EMBEDDED_RUNS : REALTIME_RUNS };
  const deadline = sized.maxDurationS === undefined ? Number.POSITIVE_INFINITY : Date.now() + sized.maxDurationS * 1000;
  // On a target with the emulator's control API, waiting for a rate-limit window means moving
  // virtual time: a real sleep would never reach the reset of a manual clock.
  const makeClient = (timeoutMs: number, budgetS = rateLimitBudgetS(sized)) => {
    const sleep = run.client?.sleep ?? (controlApi ? (ms: number) => advanceVirtualClock(rest, ms, timeoutMs) : undefined);
    return Client.create({
      ...run.client,
      ...(sleep ? { sleep } : {}),
      timeoutMs,
      keys: sized.keys,
      now: run.client?.now ?? run.now,
      startedAt,
      maxInFlight: sized.concurrency,
      pacing: { ...run.client?.pacing, budgetMs: run.client?.pacing?.budgetMs ?? budgetS * 1000 },
    });
  };
  if (!sized.quiet) run.say(`cpsim conform: seed ${sized.seed}\n  ${describeOptions({ ...sized, target: rest, serverlessUrl: serverless })}\n`);
  forgetRoutes();
  const selected = selectRules(run.registry.list().map((c) => c.ruleId), sized.only, sized.skip);
  // Before anything is sent that costs the target: that it answers, and each key's first read
  // (key-check.ts), with the floor's bounds; a refused key stops the run before any upload.
  const first = makeClient(sized.timeoutMs);
  let keyCheck: Awaited<ReturnType<typeof checkKeys>>;
  try {
    await assertReachable(first, rest, "--target", sized.timeoutMs);
    if (serverless !== rest) await assertReachable(first, serverless, "--serverless-url", sized.timeoutMs);
    // Rules of the catalog that no check here judges (the client.* rules: cpsim proxy judges them on
    // a client's traffic) are not counted, so progress, counts and verdict all say "of N" alike.
    const uncheckable = selectRules(run.registry.catalog.rules.map((r) => r.id), sized.only, sized.skip).filter((id) => !selected.includes(id));
    if (!sized.quiet && uncheckable.length > 0) run.say(`  ${uncheckedLine(uncheckable)}\n`);
    keyCheck = await checkKeys({
      client: first.scoped(),
      serverless,
      endpoint: sized.endpoint,
      keys: sized.keys,
      timeoutMs: sized.timeoutMs,
      needsEndpoint: selected.some((id) => id.startsWith("jobs.")),
    });
  } finally {
    await first.close();
  }
  if (!sized.quiet) for (const [role, said] of keyCheck.refused) run.say(`  ${KEY_FLAG[role]} refused: ${said}; its rules are skipped\n`);
  // Time bounds from the target's measured pace: --timeout-ms is the floor (target-timing.ts). The
  // upload carries the full-access key the target just accepted, so the target reads its body.
  const apiKey = keyCheck.refused.has("api") ? undefined : sized.keys.api;
  const measured = await targetTiming({ rest, serverless, endpoint: sized.endpoint, timeoutMs: sized.timeoutMs, ...(apiKey !== undefined ? { apiKey } : {}) });
  // Against a real-time target, the waits the key's quota imposes widen the bounds (quota-sizing.ts); on virtual time they cost no wall time.
  const quota = controlApi ? undefined : quotaSizing(keyCheck.apiRateLimitPolicy, expectedRequests(selected.length, run.registry.list().length));
  const budgetS = rateLimitBudgetS(sized, quota?.budgetS);
  const timing = quota
    ? { ...measured, propertyScale: Math.max(measured.propertyScale, quota.propertyScale), rateLimit: { window: quota.window, requests: quota.requests, waitS: quota.waitS, budgetS } }
    : measured;
  const options: ResolvedOptions = { ...sized, timeoutMs: timing.timeoutMs, timing };
  const client = makeClient(options.timeoutMs, budgetS);
  let cut = false;
  try {
    if (!options.quiet) run.say(`  ${describeTiming(timing)}\n`);
    if (quota && !options.quiet) run.say(`  ${describeQuotaSizing(quota, budgetS, sized.rateLimitBudgetS !== undefined || sized.maxDurationS !== undefined)}\n`);
    const facts = await discoverTargetFacts({
      client: client.scoped(),
      rest,
      serverless,
      ...(run.profile ? { profile: run.profile } : {}),
      hasApiKey: options.keys.api !== undefined,
      timeoutMs: options.timeoutMs,
    });
    const factUse: FactUse = new Map();
    const requestsBefore = client.stats.requests;

    const transitions = new Set<string>();
    const progress = new Progress(options.quiet ? "quiet" : run.tty ? "tty" : "lines", selected.length, run.say, run.terminalWidth ?? 100);
    const oracle = run.embedded?.oracle ?? run.oracle ?? platformOracle(options.profile);
    // The jobs lane as wide as the endpoint's workers allow (its health, read by the key check).
    const jobWidth = options.failFast ? { width: 1, why: "--fail-fast: one rule at a time" } : jobLaneWidth(keyCheck.health);
    const plan = planLanes(selected, run.registry, !controlApi, jobWidth);
    const lanes = await runLanes(plan, {
      client,
      options,
      target: { rest, serverless, endpoint: options.endpoint },
      controlApi,
      oracle,
      deadline,
      now: run.now,
      transitions,
      facts,
      factUse,
      refusedKeys: keyCheck.refused,
      registry: run.registry,
      baseline: run.baseline,
      progress,
      heartbeat: new Heartbeat((line) => progress.note(line), HEARTBEAT_MS),
      log: (first, m) => {
        if (!options.quiet && !run.tty) run.say(`      ${first}: ${m}\n`);
      },
    });
    cut = lanes.cut;
    progress.end();
    const { byId, targetErrors } = lanes;
    const path = criticalPath(lanes.timeline);

    const rules = selected.map((id) => byId.get(id)!);
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
        rules: {
          checked: checked.size,
          total: catalogIds.length,
          unchecked: catalogIds.filter((id) => !checked.has(id)),
          selected: selected.length,
          minCoverage: options.minCoverage,
        },
        transitions: SPEC_TRANSITIONS.map((t) => ({ ...t, exercised: transitions.has(transitionKey(t.machine, t.from, t.to)) })),
      },
      summary: summarize(rules, targetErrors.length),
      targetErrors,
      targetFacts: targetFactRecords(facts, factUse, rules),
      schedule: describePlan(plan),
      timing,
      ...(path ? { criticalPath: path } : {}),
    };
    const written = await writeConformanceReports(report, { dir: options.reportDir, ...(options.junit ? { junit: options.junit } : {}) });
    const fresh = newFailures(rules);
    const gate = verdict(report);
    // A run that judged no rule is never a verdict either way: exit 2, saying why.
    const nothingJudged = checked.size === 0;
    const exitCode: 0 | 1 | 2 = nothingJudged ? 2 : fresh.length > 0 ? 1 : targetErrors.length > 0 ? 2 : gate.belowCoverage ? 1 : 0;
    run.say(`${options.quiet ? "" : "\n"}${renderSummaryTable(report, { width: run.terminalWidth ?? 100, quiet: options.quiet })}`);
    if (options.explainTime) {
      run.say(`schedule:\n${report.schedule!.map((l) => `  ${l}\n`).join("")}${path ? `${describeCriticalPath(path)}\n` : ""}${describeTiming(timing)}\n`);
    }
    if (!options.quiet) {
      run.say(`reports: ${written.json}\n         ${written.junit}\n         ${written.html}\n${written.extraJunit ? `         ${written.extraJunit}\n` : ""}`);
    }
    const limited = targetErrors.filter((e) => e.code === "CPSIM_ERR_TARGET_RATE_LIMITED").length;
    const limitedHint = limited
      ? `; ${limited} of them waited out the target's rate limit past the run's budget of ${budgetS} s: give --rate-limit-budget (or --max-duration) more seconds, or keys with larger quotas`
      : "";
    if (nothingJudged) run.say(`exit 2: nothing was judged: ${nothingJudgedWhy(rules)}${limited ? `\n  ${targetErrors.length} target error(s)${limitedHint}` : ""}\n`);
    else if (exitCode === 2) run.say(`exit 2: ${targetErrors.length} target error(s) left rules unjudged${limitedHint}; see the report\n`);
    else if (exitCode === 1 && fresh.length === 0) {
      run.say(`exit 1: ${report.coverage.rules.checked} of ${selected.length} rules judged, below --min-coverage ${options.minCoverage}%: see the skip reasons (keys, --slow, the profile)\n`);
    }
    if (options.json) run.io.stdout(renderJsonReport(report));
    await appendStepSummary(run.env ?? process.env, renderStepSummary(report, exitCode), run.say);
    return { exitCode, report, written, newFailures: fresh };
  } finally {
    // A cut run leaves requests in flight: end them rather than wait for them.
    if (cut) await client.destroy();
    else await client.close();
  }
}

/** Says which selected rules of the catalog this run cannot judge, and who does. */
export function uncheckedLine(ids: readonly string[]): string {
  const client = ids.some((id) => id.startsWith("client."));
  return `${ids.length} rule(s) of the selection are not judged by conform and not counted: ${ids.join(", ")}` +
    (client ? " (the client.* rules judge a client's behaviour: cpsim proxy judges them on the traffic it sees; docs/rules.md)" : "");
}

/**
 * Appends Markdown to the file GitHub Actions names in GITHUB_STEP_SUMMARY (the job's summary
 * page); without that variable, nothing. A file that cannot be written is said, not fatal.
 */
export async function appendStepSummary(env: NodeJS.ProcessEnv, markdown: string, say: (text: string) => void): Promise<void> {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    await appendFile(file, markdown);
  } catch (err) {
    say(`could not append the summary to GITHUB_STEP_SUMMARY (${file}): ${err instanceof Error ? err.message : String(err)}\n`);
  }
}

/** Why no rule was judged: the skip reasons, most frequent first (at most three). */
function nothingJudgedWhy(rules: readonly RuleResult[]): string {
  const reasons = new Map<string, number>();
  for (const r of rules) reasons.set(r.reason ?? r.status, (reasons.get(r.reason ?? r.status) ?? 0) + 1);
  const top = [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return `all ${rules.length} selected rules were skipped (${top.map(([r, n]) => `${n} × ${r}`).join("; ")}${reasons.size > 3 ? "; ..." : ""})`;
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
