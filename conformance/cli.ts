/**
 * `cpsim conform`: a thin parser over ConformOptions. The flags are fixed (CI pipelines call
 * exactly these); each maps onto one option of `conform()`. Keys may also come from the
 * environment (CPSIM_API_KEY, CPSIM_RESTRICTED_API_KEY, CPSIM_OTHER_API_KEY), the same
 * variables the reproduction scripts read, so CI secrets need not appear on a command line.
 */
import { parseArgs, renderHelp, UsageError, type CliIo, type CommandSpec } from "../sim/cli/args.ts";
import { renderStepSummaryError } from "../reports/step-summary.ts";
import { appendStepSummary, conform, type ConformDeps } from "./conform.ts";
import { argsFromConfig } from "./config-file.ts";
import { discoverTarget } from "./discover-target.ts";
import { probeControlApi, startEmbedded } from "./embedded.ts";
import "./checks/index.ts";
import { ConformConfigError } from "./errors.ts";
import { KEY_ENV, KEY_FLAG, type KeyRole } from "./keys.ts";
import { defaultOptions, EMBEDDED_RUNS, REALTIME_RUNS, resolveOptions, type ConformOptions, type Profile } from "./options.ts";
import { MAX_SEED } from "./seeds.ts";

export const spec: CommandSpec = {
  name: "conform",
  summary: "check an implementation of the API against the specification, rule by rule",
  usage:
    "cpsim conform [--target URL] [--serverless-url URL] [--api-key KEY] [--restricted-api-key KEY] [--other-api-key KEY] " +
    "[--endpoint ID] [--seed N] [--runs N] [--profile lenient|strict] [--only RULE_GLOB] [--skip RULE_GLOB] [--slow] " +
    "[--timeout-ms N] [--max-duration S] [--rate-limit-budget S] [--min-coverage PCT] [--concurrency N] [--baseline FILE] [--report-dir DIR] [--junit FILE] [--json] [--quiet] [--target-profile FILE] [--discover] [--fail-fast] [--explain-time] [--config FILE]",
  description:
    "Without --target, the embedded emulator is started in a child process and tested. With --target, keys default to $CPSIM_API_KEY, " +
    "$CPSIM_RESTRICTED_API_KEY and $CPSIM_OTHER_API_KEY (the embedded emulator uses its own); they are never written into reports. Rule globs: * matches " +
    "any characters, ? one; repeat the flag or separate globs with commas. Against --target a full-access key is required " +
    "(exit 2 without one), each key is read with once before any rule (a refused --api-key, or a missing job endpoint the " +
    "selected rules need, is exit 2; a refused other key skips its rules), and the run fails when fewer than --min-coverage " +
    "percent of the selected rules were judged; a run that judged nothing, or a selection that leaves nothing, exits 2. " +
    "A 404 counts as a refusal only from a route the target serves. With GITHUB_STEP_SUMMARY set, a Markdown summary is appended to it. How long a run takes: property runs are sized for the target (--runs), the " +
    "areas (pod lifecycle, other pod rules, GraphQL, jobs, auth) run concurrently against a real-time target with at most " +
    "--concurrency requests in flight, rate-limit rules run where no other request on their key can disturb their counting, and " +
    "--max-duration bounds the whole run. " +
    "Where the spec shows no path or shape " +
    "(pod actions, delete, lists, network volumes, the GPU catalog, a public image model), the suite reads the target's " +
    "own: a --target-profile file first, then its OpenAPI document (/openapi.json and the usual places), then harmless " +
    "probes (reads, and requests about a pod id that cannot exist). --discover prints what it found as a profile file, and lists on stderr what it could not find with the key to fill.",
  flags: [
    { name: "target", type: "string", value: "URL", help: "{base_url} of the REST and GraphQL API (default: the embedded emulator)" },
    { name: "serverless-url", type: "string", value: "URL", help: "{serverless_url} of the job endpoints (default: --target)" },
    { name: "api-key", type: "string", value: "KEY", help: "a key with full access" },
    { name: "restricted-api-key", type: "string", value: "KEY", help: "a valid key without write access (403 checks)" },
    { name: "other-api-key", type: "string", value: "KEY", help: "a key of a second account (isolation and rate-limit checks)" },
    { name: "endpoint", type: "string", value: "ID", help: `job endpoint running the conformance handler (default: ${defaultOptions.endpoint})` },
    { name: "seed", type: "integer", value: "N", help: "seed of the run (default: random, printed)", min: 0, max: MAX_SEED },
    {
      name: "runs",
      type: "integer",
      value: "N",
      help: `fast-check runs per property (default: sized for the target: ${EMBEDDED_RUNS} where the suite moves the target's clock (the embedded emulator), ${REALTIME_RUNS} against a real-time target, whose stateful runs are longer instead)`,
      min: 1,
      max: 1_000_000,
    },
    { name: "profile", type: "enum", choices: ["lenient", "strict"], help: "strict also requires the emulator's choices where the spec is silent", default: defaultOptions.profile },
    { name: "only", type: "string", value: "RULE_GLOB", help: "run only the rules matching", multiple: true },
    { name: "skip", type: "string", value: "RULE_GLOB", help: "do not run the rules matching", multiple: true },
    { name: "slow", type: "boolean", help: "run checks that take real minutes (retention, ttl) against a target without the control API (without it, the status ttl and runsync retention still run where the target's own clock, measured, lets their time pass within 30 s)" },
    { name: "timeout-ms", type: "integer", value: "N", help: "per-request timeout, the floor: raised when the target's measured round trip and upload rate call for more (at most 300000; see --explain-time)", default: defaultOptions.timeoutMs, min: 1, max: 3_600_000 },
    { name: "max-duration", type: "number", value: "S", help: "bound the whole run to S seconds; rules not reached by then are reported skipped, saying so (default: no bound)", min: 1, max: 86_400 },
    { name: "rate-limit-budget", type: "number", value: "S", help: "the most seconds the run waits on the target's rate limits, over all its waits; past it a request is a target error (default: --max-duration when given, else 300)", min: 1, max: 86_400 },
    { name: "min-coverage", type: "number", value: "PCT", help: "fail (exit 1) when fewer than PCT percent of the selected rules were judged", default: defaultOptions.minCoverage, min: 0, max: 100 },
    { name: "concurrency", type: "integer", value: "N", help: "most requests in flight at once over all areas", default: defaultOptions.concurrency, min: 2, max: 64 },
    { name: "baseline", type: "string", value: "FILE", help: "an earlier report.json: its failures are known, only new ones fail the run" },
    { name: "report-dir", type: "string", value: "DIR", help: "where report.json, junit.xml and report.html go (default: reports/conformance)" },
    { name: "junit", type: "string", value: "FILE", help: "also write the JUnit XML here" },
    { name: "json", type: "boolean", help: "print report.json on stdout; progress and summary go to stderr" },
    { name: "local-server", type: "string", value: "URL", help: "check a local handler test server (--rp_serve_api) running the conformance handler: only the local.* rules, unless --only says otherwise" },
    { name: "local-handler", type: "string", value: "FILE", help: "with --local-server: the conformance handler file it runs, to check the program's default address, test_input.json and exit codes" },
    { name: "local-command", type: "string", value: "CMD", help: "with --local-handler: the program that runs a handler file (default: cpsim handler; e.g. \"python\" for the platform SDK)" },
    { name: "quiet", type: "boolean", help: "print only the summary and the failures (no progress)" },
    { name: "target-profile", type: "string", value: "FILE", help: "JSON stating the target's facts (podActionPath, podDeletePath, podListPath, networkVolumes, gpuCatalogPath, cpuCatalogPath, dataCenterCatalogPath, imageModel, registriesPath, restSegments); wins over discovery" },
    { name: "discover", type: "boolean", help: "only read the target's facts and print them as a ready --target-profile file (exit 0); what it could not find is listed on stderr with the profile key to fill" },
    { name: "fail-fast", type: "boolean", help: "start no further rule after the first new failure; the rules not run are reported skipped, saying so" },
    { name: "explain-time", type: "boolean", help: "after the summary, say which rules ran beside which and the critical path: the area that ended last and its rules (report.json has both always)" },
    {
      name: "config",
      type: "string",
      value: "FILE",
      help: 'a JSON object holding any of these flags, e.g. {"target": "https://api.example.com", "only": ["jobs.*"], "min-coverage": 75}; a flag on the command line wins over the file\'s',
    },
  ],
  examples: [
    "cpsim conform",
    "cpsim conform --target http://127.0.0.1:8080 --api-key \"$KEY\" --seed 42",
    "cpsim conform --target https://api.example.com --only 'pods.create.*' --profile strict",
    "cpsim conform --target http://127.0.0.1:8080 --baseline reports/previous/report.json --junit results.xml",
    "cpsim conform --target https://api.example.com --max-duration 600 --min-coverage 75 --quiet",
    "cpsim conform --target https://api.example.com --discover > target.json && cpsim conform --target https://api.example.com --target-profile target.json",
    "cpsim conform --config conform.json --fail-fast",
  ],
  exitCodes: [
    [0, "every judged rule passed and coverage reached --min-coverage (--discover: the facts printed)"],
    [1, "a rule failed (new against --baseline), or fewer rules judged than --min-coverage"],
    [2, "usage or configuration error, the target unreachable or refusing the key, or target errors that left rules unjudged"],
  ],
};

type Flags = Record<string, string | number | boolean | string[] | undefined>;

/**
 * The keys: a flag wins; the environment's (CPSIM_API_KEY, ...) are for --target only, so that a
 * shell set up for "your service" still runs the embedded emulator with the emulator's own keys.
 */
function keysOf(flags: Flags, env: NodeJS.ProcessEnv): Pick<ConformOptions, "apiKey" | "restrictedApiKey" | "otherApiKey" | "keysFromEnvironment"> {
  const fromEnv: KeyRole[] = [];
  const key = (role: KeyRole): string | undefined => {
    const flag = flags[KEY_FLAG[role].slice(2)] as string | undefined;
    if (flag !== undefined) return flag;
    const value = flags.target === undefined ? undefined : env[KEY_ENV[role]] || undefined;
    if (value !== undefined) fromEnv.push(role);
    return value;
  };
  return { apiKey: key("api"), restrictedApiKey: key("restricted"), otherApiKey: key("other"), keysFromEnvironment: fromEnv };
}

/** Maps parsed flags (and, with --target, key variables from the environment) onto the options object. */
export function optionsFromFlags(flags: Flags, env: NodeJS.ProcessEnv = process.env): Partial<ConformOptions> {
  const str = (name: string) => flags[name] as string | undefined;
  const list = (name: string) => (flags[name] as string[] | undefined) ?? [];
  return {
    target: str("target"),
    serverlessUrl: str("serverless-url"),
    ...keysOf(flags, env),
    endpoint: str("endpoint"),
    seed: flags.seed as number | undefined,
    runs: flags.runs as number | undefined,
    profile: flags.profile as Profile | undefined,
    only: list("only"),
    skip: list("skip"),
    slow: flags.slow === true,
    timeoutMs: flags["timeout-ms"] as number | undefined,
    baseline: str("baseline"),
    reportDir: str("report-dir"),
    junit: str("junit"),
    json: flags.json === true,
    localServer: str("local-server"),
    localHandler: str("local-handler"),
    localCommand: str("local-command"),
    // --local-server checks that server: its rules alone unless --only picks others.
    ...(str("local-server") !== undefined && list("only").length === 0 ? { only: ["local.*"] } : {}),
    quiet: flags.quiet === true,
    maxDurationS: flags["max-duration"] as number | undefined,
    rateLimitBudgetS: flags["rate-limit-budget"] as number | undefined,
    minCoverage: flags["min-coverage"] as number | undefined,
    concurrency: flags.concurrency as number | undefined,
    targetProfile: str("target-profile"),
    discover: flags.discover === true,
    failFast: flags["fail-fast"] === true,
    ...(flags["explain-time"] === true ? { explainTime: true } : {}),
  };
}

/** Parses argv, runs the suite, and returns the exit code; usage and configuration errors are 2. */
export async function run(argv: readonly string[], io: CliIo, deps: ConformDeps = {}): Promise<number> {
  try {
    let parsed = parseArgs(spec, argv);
    if (typeof parsed.flags.config === "string" && !parsed.help) {
      parsed = parseArgs(spec, [...(await argsFromConfig(spec, parsed.flags.config, argv)), ...argv]);
    }
    if (parsed.help) {
      io.stdout(renderHelp(spec));
      return 0;
    }
    const options = optionsFromFlags(parsed.flags);
    if (options.discover) {
      await discoverTarget(options, { startEmbedded, ...deps, io });
      return 0;
    }
    // Every option is checked (a missing key included) before anything is sent to the target.
    resolveOptions(options);
    // A --target that serves the emulator's control API lets time-based rules run without --slow.
    const controlApi = deps.controlApi ?? (options.target ? await probeControlApi(options.target) : undefined);
    const result = await conform(options, {
      startEmbedded,
      ...deps,
      ...(controlApi !== undefined ? { controlApi } : {}),
      io,
      terminalWidth: deps.terminalWidth ?? process.stdout.columns,
      tty: deps.tty ?? (options.json ? process.stderr.isTTY : process.stdout.isTTY) === true,
    });
    return result.exitCode;
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConformConfigError) {
      io.stderr(`cpsim conform: ${err.message}\n`);
      await appendStepSummary(deps.env ?? process.env, renderStepSummaryError(err.message), io.stderr);
      return 2;
    }
    throw err;
  }
}
