/**
 * `mutation(options)`: the library behind `cpsim mutation`. It runs the conformance suite against
 * the clean emulator (which must show no failure at all), then against a fresh emulator per
 * defect, in parallel worker threads (piscina), each run bounded in time. Per defect, the check of
 * the rule it breaks runs first, alone: a failure there (that the clean emulator does not show
 * for that check alone) is a precise catch and ends the defect's run; otherwise the whole suite
 * runs against it (always with `complete`). It scores each defect
 * (caught, caught precisely, escaped), lists the rules no defect breaks, writes mutation.json and
 * mutation.html through reports/, prints the table, and returns the exit code: 0 every defect
 * caught on a clean emulator, 1 a defect escaped or the clean run failed, 2 a usage problem.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Piscina } from "piscina";
import {
  type DefectResult,
  type FamilyScore,
  familyFigureLine,
  judgedEscapes,
  legalEscapes,
  type MutationReport,
  mutationFigureLine,
  mutationPassed,
  outputDirRefusal,
  renderMutationTable,
  summarizeMutation,
  verdictOf,
  writeMutationReports,
} from "../../reports/index.ts";
import { rules } from "../../sim/api/rules/index.ts";
import { isStrictOnly } from "../../sim/api/rules/rule.ts";
import { type Defect, ruleOf, selectDefects } from "../../sim/defects/index.ts";
import { packageVersion, workerExecArgv, workerModule } from "../../sim/package-root.ts";
import type { SuiteOutcome, SuiteTask } from "./run-suite.ts";
import { type Conventions, describeConventions, drawConventions, EMULATOR_CONVENTIONS } from "../../sim/conventions/index.ts";

export interface MutationOptions {
  /** Globs over defect names, areas or rule ids; empty: every defect. */
  readonly defects: readonly string[];
  /** Worker threads running suites at once. */
  readonly workers: number;
  readonly seed: number;
  /** Where mutation.json and mutation.html go; absent: `reports/mutation/` under the working directory. */
  readonly reportDir?: string;
  /** Print mutation.json on stdout (progress and table go to stderr). */
  readonly json: boolean;
  /** The suite's profile; strict also judges the emulator's documented choices. */
  readonly profile: "lenient" | "strict";
  /** Longest one suite run may take; past it the run counts as an error. */
  readonly runTimeoutMs: number;
  /**
   * Run the whole suite against every defect. Without it, the check of the rule a defect breaks
   * runs first, alone, and a failure there ends that defect's run (caught precisely, exactly);
   * only a defect that check does not catch meets the whole suite.
   */
  readonly complete: boolean;
  /**
   * Seeds of the open-choice space (sim/conventions/, `--conventions N`) to run the same defects
   * against, beside the emulator: each the emulator with the conventions drawn from it, judged by
   * the lenient suite.
   */
  readonly families: readonly number[];
}

export const MAX_WORKERS = 16;
export const MAX_FAMILIES = 32;

export const defaultMutationOptions: MutationOptions = {
  defects: [],
  workers: 2,
  seed: 1,
  json: false,
  profile: "strict",
  runTimeoutMs: 300_000,
  complete: false,
  families: [],
};

export interface MutationIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

export interface MutationResult {
  readonly exitCode: 0 | 1 | 2;
  readonly report?: MutationReport;
}

export class MutationConfigError extends Error {
  readonly code = "CPSIM_ERR_CONFIG";
}

async function toolVersion(): Promise<string> {
  try {
    return packageVersion();
  } catch {
    return "unknown";
  }
}

export function resolveMutationOptions(given: Partial<MutationOptions>): MutationOptions {
  const o = { ...defaultMutationOptions, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) } as MutationOptions;
  if (!Number.isSafeInteger(o.workers) || o.workers < 1 || o.workers > MAX_WORKERS) {
    throw new MutationConfigError(`--workers must be a whole number from 1 to ${MAX_WORKERS}, got ${o.workers}`);
  }
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) throw new MutationConfigError(`--seed must be a non-negative whole number, got ${o.seed}`);
  if (o.profile !== "strict" && o.profile !== "lenient") throw new MutationConfigError(`profile must be strict or lenient, got ${String(o.profile)}`);
  if (!Number.isSafeInteger(o.runTimeoutMs) || o.runTimeoutMs < 1000) throw new MutationConfigError(`runTimeoutMs must be at least 1000, got ${o.runTimeoutMs}`);
  if (!Array.isArray(o.families) || o.families.length > MAX_FAMILIES || o.families.some((f) => !Number.isSafeInteger(f) || f < 1)) {
    throw new MutationConfigError(`--conventions must name at most ${MAX_FAMILIES} seeds, each a whole number from 1 (0 is the emulator itself), got ${String(o.families)}`);
  }
  return o;
}

export async function mutation(given: Partial<MutationOptions>, io: MutationIo = { stdout: () => {}, stderr: () => {} }, width = 100): Promise<MutationResult> {
  const options = resolveMutationOptions(given);
  const selected = selectDefects(options.defects);
  if (selected.length === 0) {
    throw new MutationConfigError(`--defect ${options.defects.join(",")} matches no defect; list them with cpsim serve --list-defects`);
  }
  const say = options.json ? io.stderr : io.stdout;
  const reportDir = resolve(options.reportDir ?? join("reports", "mutation"));
  // Checked before the runs, not found out when writing after them.
  const refusal = outputDirRefusal("--report-dir", reportDir);
  if (refusal !== undefined) throw new MutationConfigError(refusal);
  const startedAt = Date.now();
  const started = performance.now();
  const runsDir = await mkdtemp(join(tmpdir(), "cpsim-mutation-"));
  // Each thread loads the suite once and runs cell after cell, each with its own fresh emulator.
  const threads = Math.min(options.workers, selected.length + 1);
  const pool = new Piscina<SuiteTask, SuiteOutcome>({ execArgv: workerExecArgv(),
    filename: workerModule(import.meta.url, "suite-worker").href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 1000,
  });
  let cells = 0;
  /** The clean run and every defect against one target: the emulator (family undefined) or a family. */
  const matrix = async (family: number | undefined, profile: "lenient" | "strict") => {
  const run = async (names: readonly string[], only: readonly string[] = []): Promise<Outcome> => {
    const t0 = performance.now();
    try {
      return await pool.run(
        { defects: names, only, seed: options.seed, profile, reportDir: join(runsDir, String(cells++)), ...(family !== undefined ? { family } : {}) },
        { signal: AbortSignal.timeout(options.runTimeoutMs) },
      );
    } catch (err) {
      const e = err as Error;
      const error = e.name === "AbortError" || e.name === "TimeoutError" ? `did not finish within ${options.runTimeoutMs} ms` : e.message;
      return { error, wallTimeMs: performance.now() - t0 };
    }
  };
  const where = family === undefined ? "" : `conventions ${family}: `;
  const conventions = family === undefined ? EMULATOR_CONVENTIONS : drawConventions(family);
    // The clean run (the whole suite) goes first, beside the first defects; whole-suite runs of defects are scored against it.
    const cleanRun = run([]).then((clean) => {
      say(`${where}clean run: ${"error" in clean ? `ERROR ${clean.error}` : clean.failing.length ? `FAILED ${clean.failing.join(", ")}` : "no failure"} (${(clean.wallTimeMs / 1000).toFixed(1)} s)\n`);
      return { clean, failing: "error" in clean ? [] : clean.failing };
    });

    // A check that fails alone against a defect catches it precisely only if it passes alone on
    // the clean emulator too: each broken rule's check runs once alone there (shared by its defects).
    const cleanAlone = new Map<string, Promise<Outcome>>();
    const aloneOnClean = (rule: string): Promise<Outcome> => {
      let p = cleanAlone.get(rule);
      if (!p) cleanAlone.set(rule, (p = run([], [rule])));
      return p;
    };
    const defectRun = async (defect: Defect): Promise<DefectResult> => {
      if (!options.complete) {
        const alone = await run([defect.name], [defect.rule]);
        if (!("error" in alone) && alone.failing.includes(defect.rule)) {
          const onClean = await aloneOnClean(defect.rule);
          const cleanFails = "error" in onClean ? [defect.rule] : onClean.failing;
          if (!cleanFails.includes(defect.rule)) return score(defect, alone, cleanFails, "rule", profile, conventions);
        }
        const full = await run([defect.name]);
        return score(defect, "error" in full ? full : { ...full, wallTimeMs: full.wallTimeMs + alone.wallTimeMs }, (await cleanRun).failing, "suite", profile, conventions);
      }
      const full = await run([defect.name]);
      return score(defect, full, (await cleanRun).failing, "suite", profile, conventions);
    };

    // At most `workers` runs are handed to the pool at once, so each run's time limit starts when it does.
    const results: DefectResult[] = new Array(selected.length);
    let next = 0;
    let done = 0;
    const lane = async (): Promise<void> => {
      while (next < selected.length) {
        const i = next++;
        const defect = selected[i];
        const result = await defectRun(defect);
        results[i] = result;
        done++;
        say(`${where}[${String(done).padStart(3)}/${selected.length}] ${result.verdict.padEnd(16)} ${defect.name} (${defect.rule})${result.failing.length ? ` <- ${result.failing.slice(0, 4).join(", ")}${result.failing.length > 4 ? ", ..." : ""}` : result.error ? ` ${result.error}` : ""}\n`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.workers, selected.length) }, lane));

    const { clean, failing: cleanFailing } = await cleanRun;
    // Rules whose check failed alone on the clean emulator: a bug of the suite (checks must stand alone), counted with the clean run's.
    const aloneFailing: string[] = [];
    for (const [rule, p] of cleanAlone) {
      const o = await p;
      if ("error" in o || o.failing.includes(rule)) aloneFailing.push(rule);
    }
    const cleanAll = [...new Set([...cleanFailing, ...aloneFailing])];
    if (aloneFailing.length) say(`${where}clean target, checks alone: FAILED ${aloneFailing.join(", ")}\n`);
    return { clean, cleanAll, results };
  };

  try {
    say(`cpsim mutation: seed ${options.seed}, profile ${options.profile}, ${selected.length} defect(s), ${options.workers} worker(s)${options.families.length ? `, conventions ${options.families.join(", ")} (lenient)` : ""}\n`);
    const { clean, cleanAll, results } = await matrix(undefined, options.profile);
    const families: FamilyScore[] = [];
    for (const family of options.families) {
      say(`conventions ${family}: ${describeConventions(drawConventions(family))}\n`);
      const f = await matrix(family, "lenient");
      families.push({
        family,
        conventions: describeConventions(drawConventions(family)),
        clean: { failing: f.cleanAll, wallTimeMs: f.clean.wallTimeMs, ...("error" in f.clean ? { error: f.clean.error } : {}) },
        defects: f.results,
        summary: summarizeMutation(f.results, f.cleanAll.length),
      });
    }
    const broken = new Set(selected.map((d) => d.rule));
    const report: MutationReport = {
      tool: { name: "cpsim", version: await toolVersion() },
      seed: options.seed,
      profile: options.profile,
      workers: options.workers,
      complete: options.complete,
      startedAt: new Date(startedAt).toISOString(),
      wallTimeMs: performance.now() - started,
      clean: { failing: cleanAll, wallTimeMs: clean.wallTimeMs, ...("error" in clean ? { error: clean.error } : {}) },
      defects: results,
      unexercisedRules: rules.filter((r) => !broken.has(r.id)).map((r) => ({ id: r.id, title: r.title })),
      summary: summarizeMutation(results, cleanAll.length),
      ...(families.length ? { families } : {}),
    };
    const written = await writeMutationReports(report, reportDir);
    say(`\n${renderMutationTable(report, width)}reports: ${written.json}\n         ${written.html}\n`);
    if (options.json) io.stdout(`${JSON.stringify(report)}\n`);
    // Defects caught on the emulator's conventions that escape under some seeds': what the suite cannot see there (or what those conventions make unobservable).
    // The seeds run lenient: a defect whose rule only the strict profile judges escapes on every seed for that alone, and is named apart.
    const onlySome = new Map<string, number[]>();
    const strictOnly = new Set<string>();
    for (const f of families) {
      for (const d of f.defects) {
        if (d.verdict !== "escaped" || d.legal !== undefined || results.find((r) => r.name === d.name)?.verdict === "escaped") continue;
        const rule = rules.find((r) => r.id === d.rule);
        if (rule && isStrictOnly(rule) && d.ruleStatus === "skip") strictOnly.add(d.name);
        else onlySome.set(d.name, [...(onlySome.get(d.name) ?? []), f.family]);
      }
    }
    if (onlySome.size) say(`escaped only under some conventions: ${[...onlySome].map(([name, seeds]) => `${name} (seeds ${seeds.join(", ")})`).join(", ")}\n`);
    if (strictOnly.size) say(`escaped under the seeds' lenient profile, their rule strict-only (caught under strict on the emulator's conventions): ${[...strictOnly].join(", ")}\n`);
    for (const f of families) {
      const escaped = f.defects.filter((d) => d.verdict === "escaped").map((d) => d.name);
      const judged = judgedEscapes(f.defects).map((d) => d.name);
      const legal = legalEscapes(f.defects).map((d) => d.name);
      say(
        `${familyFigureLine(f)}${f.clean.failing.length ? ` (FALSE FAILURES, a bug of the suite: ${f.clean.failing.join(", ")})` : ""}${escaped.length ? ` (escaped: ${escaped.join(", ")})` : ""}${judged.length ? ` (judged and passed: ${judged.join(", ")})` : ""}${legal.length ? ` (legal under lenient: ${legal.join(", ")})` : ""}\n`,
      );
    }
    say(`${mutationFigureLine(report)}\n`);
    // A seed's escapes say what the suite cannot see there; a seed's clean failure is a bug of the suite.
    const familiesClean = families.every((f) => f.summary.cleanFailures === 0 && f.clean.error === undefined);
    return { exitCode: mutationPassed(report) && familiesClean ? 0 : 1, report };
  } finally {
    await pool.destroy();
    await rm(runsDir, { recursive: true, force: true });
  }
}

export type Outcome = SuiteOutcome | { error: string; wallTimeMs: number };

/**
 * A defect's verdict: failures the clean run also shows do not count as catching it. An escape
 * of a defect a correct service may match there (under the lenient profile, or under the
 * target's conventions) carries the reason.
 */
export function score(defect: Defect, outcome: Outcome, cleanFailing: readonly string[], scope: DefectResult["scope"], profile: "lenient" | "strict", conventions: Conventions = EMULATOR_CONVENTIONS): DefectResult {
  const rule = ruleOf(defect);
  const base = { name: defect.name, area: defect.area, rule: defect.rule, does: defect.does, spec: rule.spec, scope, wallTimeMs: outcome.wallTimeMs };
  if ("error" in outcome) return { ...base, verdict: "error", failing: [], error: outcome.error };
  const failing = outcome.failing.filter((id) => !cleanFailing.includes(id));
  const verdict = verdictOf(defect.rule, failing);
  return { ...base, verdict, failing, ...(outcome.statuses[defect.rule] ? { ruleStatus: outcome.statuses[defect.rule] } : {}), ...legalOf(defect, verdict, profile, conventions) };
}

function legalOf(defect: Defect, verdict: DefectResult["verdict"], profile: "lenient" | "strict", conventions: Conventions): { legal?: string } {
  if (verdict !== "escaped") return {};
  if (profile === "lenient" && defect.legalUnderLenient !== undefined) return { legal: `legal under lenient: ${defect.legalUnderLenient}` };
  const unobservable = defect.unobservableUnder?.(conventions);
  return unobservable !== undefined ? { legal: `not observable under these conventions: ${unobservable}` } : {};
}
