/**
 * The options of `cpsim conform`, one object for the CLI and the library alike: the CLI maps
 * its flags onto ConformOptions, `conform()` resolves it against `defaultOptions` and validates
 * it, so both reject a bad URL or a bad value with the same message.
 */
import type { TargetTiming } from "./target-timing.ts";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { defaultReportDir } from "../reports/write-reports.ts";
import { outputDirRefusal, outputFileRefusal } from "../reports/output-dir.ts";
import { ConformConfigError } from "./errors.ts";
import { KEY_ENV, KEY_FLAG, KEY_ROLES, type KeyRole, type Keys } from "./keys.ts";
import { splitGlobs } from "./rule-glob.ts";
import { quoteWord } from "./shell-quote.ts";
import { MAX_SEED, randomSeed } from "./seeds.ts";

export type Profile = "lenient" | "strict";

export interface ConformOptions {
  /** `{base_url}` of REST and GraphQL; absent: the embedded emulator. */
  readonly target?: string;
  /** `{serverless_url}` of the job endpoints; defaults to `target`. */
  readonly serverlessUrl?: string;
  /** Full access. */
  readonly apiKey?: string;
  /** A valid key without write access (403 checks). */
  readonly restrictedApiKey?: string;
  /** A key of a second account (isolation and rate-limit checks). */
  readonly otherApiKey?: string;
  /**
   * The keys that came from the environment (CPSIM_API_KEY, ...): the reproduce line names their
   * variable; a key given otherwise (a flag, the library) shows as a placeholder to fill in.
   */
  readonly keysFromEnvironment?: readonly KeyRole[];
  /** The job endpoint running the conformance handler. */
  readonly endpoint: string;
  /** The run's seed; absent: a random one, printed. */
  readonly seed?: number;
  /**
   * fast-check runs per property; absent: sized for the target (EMBEDDED_RUNS on a target whose
   * time the suite moves, REALTIME_RUNS on one whose time is real, where every run costs seconds).
   */
  readonly runs?: number;
  readonly profile: Profile;
  /** Rule globs to run; empty: every rule. */
  readonly only: readonly string[];
  /** Rule globs not to run. */
  readonly skip: readonly string[];
  /** Run the checks that take real minutes (retention, ttl) against a target without a control API. */
  readonly slow: boolean;
  /** Per-request timeout. */
  readonly timeoutMs: number;
  /** An earlier report.json: its failures are known, only new ones fail the run. */
  readonly baseline?: string;
  /** Where report.json, junit.xml and report.html go; absent: `reports/conformance/` under the working directory. */
  readonly reportDir?: string;
  /** A further path for the JUnit XML. */
  readonly junit?: string;
  /** Print report.json on stdout (progress and summary go to stderr). */
  readonly json: boolean;
  /** A local handler test server (`--rp_serve_api`) running the conformance handler: the `local.*` rules (conformance/local-server/). */
  readonly localServer?: string;
  /** The conformance handler file that server runs, for the rules about the program itself. */
  readonly localHandler?: string;
  /** The program that runs a handler file (default: this cpsim's `handler` command), e.g. "python". */
  readonly localCommand?: string;
  /** Print only the summary and the failures: no progress. */
  readonly quiet: boolean;
  /** A bound on the whole run, in seconds; rules not reached by then are skipped with that reason. */
  readonly maxDurationS?: number;
  /**
   * The most seconds the whole run may wait on the target's rate limits (default: --max-duration
   * when given, else 300); a wait past it is a target error, not a hang.
   */
  readonly rateLimitBudgetS?: number;
  /** The run fails (exit 1) when fewer than this percentage of the selected rules were judged. */
  readonly minCoverage: number;
  /** The most requests in flight at once, over all the areas that run concurrently. */
  readonly concurrency: number;
  /** A JSON file stating the target's facts (action paths, volume lists, model slugs); wins over discovery. */
  readonly targetProfile?: string;
  /** Only read the target's facts and print them as a ready --target-profile file. */
  readonly discover: boolean;
  /** Stop starting rules after the first new failure (the rules not started are skipped, saying so). */
  readonly failFast: boolean;
  /** After the summary, say how the rules were run beside each other and which ones decided the run's length. */
  readonly explainTime?: boolean;
}

/** Property runs when --runs is not given: many cheap runs where the suite moves the target's time, ... */
export const EMBEDDED_RUNS = 50;
/** ... and few where time is real (each run of a pod or job scenario then costs seconds); the stateful runs grow longer instead. */
export const REALTIME_RUNS = 8;

export const defaultOptions: ConformOptions = {
  endpoint: "conformance",
  profile: "lenient",
  only: [],
  skip: [],
  slow: false,
  timeoutMs: 30_000,
  json: false,
  quiet: false,
  minCoverage: 60,
  concurrency: 8,
  discover: false,
  failFast: false,
};

/** The options with every default filled in, the target's URLs normalised and the seed drawn. */
export interface ResolvedOptions extends ConformOptions {
  /** The target is the embedded emulator started for this run (no --target was given). */
  readonly embeddedTarget?: boolean;
  readonly target?: string;
  readonly serverlessUrl?: string;
  readonly seed: number;
  /** --runs as given, or the size for the target (set once the run knows whether it moves the target's time). */
  readonly runs: number;
  /** Whether --runs was given (the reproduction command repeats it only then). */
  readonly runsGiven: boolean;
  readonly reportDir: string;
  readonly keys: Keys;
  /** What the run measured of the target and the bounds it derived (target-timing.ts): `timeoutMs` is already the derived one. */
  readonly timing?: TargetTiming;
}

/** An http(s) base URL without a trailing slash, or a ConformConfigError naming the flag. */
export function baseUrl(flag: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `${flag} "${value}" is not a URL; give one like http://127.0.0.1:8080`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `${flag} "${value}" must be an http:// or https:// URL`);
  }
  if (url.username || url.password) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `${flag} must not carry credentials; pass keys with --api-key`);
  }
  if (url.search || url.hash) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `${flag} "${value}" must be a base URL, without a query or fragment`);
  }
  return url.href.replace(/\/+$/, "");
}

function positiveInteger(flag: string, value: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `${flag} must be a whole number from 1 to ${max}, got ${value}`);
  }
  return value;
}

export function resolveOptions(options: Partial<ConformOptions>, cwd: string = process.cwd()): ResolvedOptions {
  const o: ConformOptions = { ...defaultOptions, ...stripUndefined(options) };
  const target = o.target === undefined ? undefined : baseUrl("--target", o.target);
  const serverlessUrl = o.serverlessUrl === undefined ? target : baseUrl("--serverless-url", o.serverlessUrl);
  if (o.profile !== "lenient" && o.profile !== "strict") {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `--profile must be lenient or strict, got "${String(o.profile)}"`);
  }
  if (!/^[A-Za-z0-9._~-]+$/.test(o.endpoint)) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `--endpoint "${o.endpoint}" is not an endpoint id (letters, digits, . _ ~ -)`);
  }
  if (o.seed !== undefined && (!Number.isSafeInteger(o.seed) || o.seed < 0 || o.seed > MAX_SEED)) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `--seed must be a whole number from 0 to ${MAX_SEED}, got ${o.seed}`);
  }
  if (o.runs !== undefined) positiveInteger("--runs", o.runs, 1_000_000);
  positiveInteger("--timeout-ms", o.timeoutMs, 3_600_000);
  // Two at least: a runsync that waits holds one slot while the clock advance it waits for takes another.
  if (!Number.isSafeInteger(o.concurrency) || o.concurrency < 2 || o.concurrency > 64) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `--concurrency must be a whole number from 2 to 64, got ${o.concurrency}`);
  }
  if (o.maxDurationS !== undefined && (!Number.isFinite(o.maxDurationS) || o.maxDurationS <= 0 || o.maxDurationS > 86_400)) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `--max-duration must be a number of seconds above 0 and at most 86400, got ${o.maxDurationS}`);
  }
  if (o.rateLimitBudgetS !== undefined && (!Number.isFinite(o.rateLimitBudgetS) || o.rateLimitBudgetS <= 0 || o.rateLimitBudgetS > 86_400)) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `--rate-limit-budget must be a number of seconds above 0 and at most 86400, got ${o.rateLimitBudgetS}`);
  }
  if (!Number.isFinite(o.minCoverage) || o.minCoverage < 0 || o.minCoverage > 100) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `--min-coverage must be a percentage from 0 to 100, got ${o.minCoverage}`);
  }
  // Against a real target a run without a key judges almost nothing, and a green build that
  // checked nothing is worse than a red one (an empty CI secret, a pull request from a fork).
  if (target !== undefined && !o.apiKey) {
    throw new ConformConfigError(
      "CPSIM_ERR_CONFIG",
      "no API key: against --target the suite needs a key with full access; pass --api-key KEY or set CPSIM_API_KEY (in CI: check that the secret reaches this job)",
    );
  }
  const keys: Keys = {
    ...(o.apiKey ? { api: o.apiKey } : {}),
    ...(o.restrictedApiKey ? { restricted: o.restrictedApiKey } : {}),
    ...(o.otherApiKey ? { other: o.otherApiKey } : {}),
  };
  const localServer = o.localServer === undefined ? undefined : baseUrl("--local-server", o.localServer);
  if (o.localHandler !== undefined && localServer === undefined) throw new ConformConfigError("CPSIM_ERR_CONFIG", "--local-handler needs --local-server URL");
  if (o.localHandler !== undefined && !existsSync(o.localHandler)) throw new ConformConfigError("CPSIM_ERR_CONFIG", `--local-handler ${o.localHandler}: no such file`);
  // Where the reports go is checked now, not after the run (a file there, a folder not writable).
  const reportDir = o.reportDir === undefined ? defaultReportDir("conformance", cwd) : resolve(cwd, o.reportDir);
  const refusal = outputDirRefusal("--report-dir", reportDir) ?? (o.junit === undefined ? undefined : outputFileRefusal("--junit", resolve(cwd, o.junit), o.junit));
  if (refusal !== undefined) throw new ConformConfigError("CPSIM_ERR_CONFIG", refusal);
  // A flag given with nothing in it (--only ',' or an empty variable) selects nothing: it must not mean "every rule".
  for (const [flag, values] of [["--only", o.only], ["--skip", o.skip]] as const) {
    if (values.length > 0 && splitGlobs(values).length === 0) {
      throw new ConformConfigError("CPSIM_ERR_CONFIG", `${flag} ${JSON.stringify(values.join(","))} names no rule glob; give one such as 'pods.*' (globs separated by commas)`);
    }
  }
  return {
    ...o,
    localServer,
    target,
    serverlessUrl,
    only: splitGlobs(o.only),
    skip: splitGlobs(o.skip),
    seed: o.seed ?? randomSeed(),
    runs: o.runs ?? (target === undefined ? EMBEDDED_RUNS : REALTIME_RUNS),
    runsGiven: o.runs !== undefined,
    reportDir,
    ...(o.junit !== undefined ? { junit: resolve(cwd, o.junit) } : {}),
    ...(o.baseline !== undefined ? { baseline: resolve(cwd, o.baseline) } : {}),
    ...(o.targetProfile !== undefined ? { targetProfile: resolve(cwd, o.targetProfile) } : {}),
    keys,
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The resolved options as printed at the start of a run: every value, but keys only as given or not. */
export function describeOptions(o: ResolvedOptions): string {
  const key = (v: string | undefined) => (v ? "given" : "not given");
  // A --local-server run judges that server: the emulator started beside it is no target of the run.
  const localOnly = o.localServer !== undefined && (o.target === undefined || o.embeddedTarget === true);
  return [
    ...(localOnly
      ? [`local-server ${o.localServer}`]
      : [`target ${o.target ?? "(embedded emulator)"}`, `serverless-url ${o.serverlessUrl ?? "(embedded emulator)"}`, `endpoint ${o.endpoint}`]),
    ...(o.localServer !== undefined && !localOnly ? [`local-server ${o.localServer}`] : []),
    `seed ${o.seed}`,
    `runs ${o.runs}${o.runsGiven ? "" : " (sized for the target)"}`,
    `concurrency ${o.concurrency}`,
    `min-coverage ${o.minCoverage}%`,
    ...(o.maxDurationS !== undefined ? [`max-duration ${o.maxDurationS} s`] : []),
    o.rateLimitBudgetS !== undefined || o.maxDurationS !== undefined ? `rate-limit-budget ${rateLimitBudgetS(o)} s` : `rate-limit-budget ${DEFAULT_RATE_LIMIT_BUDGET_S} s or sized to the key's quota`,
    ...(o.failFast ? ["fail-fast"] : []),
    `profile ${o.profile}`,
    `only ${o.only.length ? o.only.join(",") : "(all)"}`,
    `skip ${o.skip.length ? o.skip.join(",") : "(none)"}`,
    `slow ${o.slow}`,
    `timeout-ms ${o.timeoutMs}`,
    `api-key ${key(o.apiKey)}`,
    `restricted-api-key ${key(o.restrictedApiKey)}`,
    `other-api-key ${key(o.otherApiKey)}`,
    ...(o.baseline ? [`baseline ${o.baseline}`] : []),
    ...(o.targetProfile ? [`target-profile ${o.targetProfile}`] : []),
    `report-dir ${o.reportDir}`,
  ].join(", ");
}

/**
 * How a key appears in a reproduce line: its variable when the run took it from the environment
 * (so the line runs as pasted in that shell), else a placeholder to fill in (it was a flag).
 */
function keyWord(o: ResolvedOptions, role: KeyRole): string {
  return o.keysFromEnvironment?.includes(role) ? `"$${KEY_ENV[role]}"` : `'<your ${KEY_FLAG[role]}>'`;
}

/** The command line that replays one rule of this run (`npx cpsim`: cpsim is not on PATH after `npm ci`); keys never appear. */
export function reproduceCommand(o: ResolvedOptions, ruleId: string): string {
  const q = quoteWord;
  const parts = ["npx cpsim conform"];
  if (o.target) parts.push(`--target ${q(o.target)}`);
  if (o.serverlessUrl && o.serverlessUrl !== o.target) parts.push(`--serverless-url ${q(o.serverlessUrl)}`);
  const given: Record<KeyRole, string | undefined> = { api: o.apiKey, restricted: o.restrictedApiKey, other: o.otherApiKey };
  for (const role of KEY_ROLES) if (given[role]) parts.push(`${KEY_FLAG[role]} ${keyWord(o, role)}`);
  if (o.endpoint !== defaultOptions.endpoint) parts.push(`--endpoint ${q(o.endpoint)}`);
  if (o.profile !== defaultOptions.profile) parts.push(`--profile ${o.profile}`);
  if (o.runsGiven) parts.push(`--runs ${o.runs}`);
  if (o.slow) parts.push("--slow");
  // The floor as given: the replay measures the target again and derives its own bound from it.
  const givenTimeout = o.timing?.givenTimeoutMs ?? o.timeoutMs;
  if (givenTimeout !== defaultOptions.timeoutMs) parts.push(`--timeout-ms ${givenTimeout}`);
  if (o.targetProfile) parts.push(`--target-profile ${q(o.targetProfile)}`);
  parts.push(`--seed ${o.seed}`, `--only ${q(ruleId)}`);
  return parts.join(" ");
}

/**
 * The seconds a run may wait on rate limits: --rate-limit-budget, else --max-duration, else the
 * budget sized to the full-access key's quota (quota-sizing.ts), else 300.
 */
export function rateLimitBudgetS(o: Pick<ConformOptions, "rateLimitBudgetS" | "maxDurationS">, sizedS?: number): number {
  return o.rateLimitBudgetS ?? o.maxDurationS ?? sizedS ?? DEFAULT_RATE_LIMIT_BUDGET_S;
}

export const DEFAULT_RATE_LIMIT_BUDGET_S = 300;
