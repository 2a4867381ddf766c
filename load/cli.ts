/**
 * `cpsim load`: a thin parser over LoadOptions. With --target, keys may come from the environment
 * (CPSIM_API_KEY, CPSIM_LIMITED_API_KEY) so CI secrets need not appear on a command line.
 */
import { parseArgs, renderHelp, UsageError, type CliIo, type CommandSpec } from "../sim/cli/args.ts";
import { load, type LoadDeps } from "./load.ts";
import { defaultOptions, type LoadEngine, type LoadOptions } from "./options.ts";
import { builtinScenarios } from "./scenarios/index.ts";
import { DEFAULT_ROUNDS } from "./interleaved-rounds.ts";
import { parseConnectionList, sweepConnections } from "./sweep-connections.ts";

export const spec: CommandSpec = {
  name: "load",
  summary: "run load scenarios (payload limits, streams, rate limits) with autocannon, or export them as k6 scripts",
  usage:
    "cpsim load [--target URL] [--serverless-url URL] [--api-key KEY] [--endpoint ID] [--scenario NAME ...] [--scenario-file FILE] " +
    "[--duration S] [--connections N] [--rate RPS] [--pipelining N] [--seed N] [--baseline FILE] [--max-regression PCT] " +
    "[--report-dir DIR] [--json] [--export-k6 DIR] [--engine autocannon|k6] [--respect-rate-limit]",
  description:
    "Without --target, the embedded emulator runs in a child process (never in the generator's event loop) and its " +
    "rate-limit-exempt key is used (never $CPSIM_API_KEY, which is for --target). Closed model (default): autocannon connections, each sending when the previous " +
    "answer came. Open model (--rate): a fixed arrival rate, latency measured from each request's intended send time " +
    "(no coordinated omission). Latency in an HDR histogram at microsecond resolution.\n" +
    `Scenarios: ${builtinScenarios.map((s) => s.name).join(", ")}.`,
  flags: [
    { name: "target", type: "string", value: "URL", help: "{base_url} of the REST and GraphQL API (default: the embedded emulator)" },
    { name: "serverless-url", type: "string", value: "URL", help: "{serverless_url} of the job endpoints (default: --target)" },
    { name: "api-key", type: "string", value: "KEY", help: "key of the run (default with --target: $CPSIM_API_KEY; without: the embedded emulator's rate-limit-exempt key)" },
    { name: "limited-api-key", type: "string", value: "KEY", help: "a rate-limited key for the rate-limit scenario (default with --target: $CPSIM_LIMITED_API_KEY, else --api-key)" },
    { name: "endpoint", type: "string", value: "ID", help: "job endpoint running the conformance handler", default: defaultOptions.endpoint },
    { name: "scenario", type: "string", value: "NAME", help: "a built-in scenario to run (default: all)", multiple: true },
    { name: "scenario-file", type: "string", value: "FILE", help: "your own scenarios: JSON, or a .ts/.js module with a default export", multiple: true },
    { name: "duration", type: "number", value: "S", help: "seconds per scenario (default: each scenario's own)", min: 0.1, max: 3600 },
    { name: "connections", type: "integer", value: "N", help: "connections (default: each scenario's own)", min: 1, max: 10_000 },
    { name: "max-requests", type: "integer", value: "N", help: "at most this many requests per scenario (default: each scenario's own)", min: 1, max: 100_000_000 },
    { name: "rate", type: "number", value: "RPS", help: "open model at this arrival rate (requests/s)", min: 0.1, max: 1_000_000 },
    { name: "pipelining", type: "integer", value: "N", help: "requests in flight per connection", default: defaultOptions.pipelining, min: 1, max: 1000 },
    { name: "timeout", type: "number", value: "S", help: "per-request timeout in seconds", default: defaultOptions.timeoutS, min: 0.1, max: 600 },
    { name: "seed", type: "integer", value: "N", help: "seed of the run (mix order, emulator; default: random, printed)", min: 0, max: 2 ** 31 - 1 },
    { name: "baseline", type: "string", value: "FILE", help: "an earlier report.json (or k6 summary): fail when a figure regressed" },
    { name: "max-regression", type: "number", value: "PCT", help: "percent a figure may be worse than the baseline", default: defaultOptions.maxRegressionPct, min: 0, max: 10_000 },
    { name: "report-dir", type: "string", value: "DIR", help: "where report.json and report.html go (default: reports/load)" },
    { name: "json", type: "boolean", help: "print report.json on stdout; progress and the table go to stderr" },
    { name: "export-k6", type: "string", value: "DIR", help: "write k6 scripts, a k6-operator TestRun and a ConfigMap recipe to DIR, and stop" },
    { name: "engine", type: "enum", choices: ["autocannon", "k6"], help: "what sends the requests", default: defaultOptions.engine },
    { name: "respect-rate-limit", type: "boolean", help: "pace every step (setup included) to the target's RateLimit quota instead of spending it" },
    { name: "target-profile", type: "string", value: "FILE", help: "the target's facts as conform reads them (cpsim conform --discover prints one); win over discovery" },
    { name: "out", type: "string", value: "json=FILE|csv=FILE", help: "write each scenario's per-second figures to FILE while it runs (as k6 --out)", multiple: true },
    { name: "quiet", type: "boolean", help: "no progress line" },
    { name: "sweep-connections", type: "string", value: "N1,N2,...", help: "measure each connection count, interleaved over --sweep-rounds rounds (reports in DIR/cN/round-K/), and fit the Universal Scalability Law to the median throughput by concurrency (DIR/usl.json); --duration is each count's total (default 10 s)" },
    { name: "sweep-rounds", type: "integer", value: "R", help: `with --sweep-connections: rounds, each running every count once for --duration/R seconds, the order rotated each round (default ${DEFAULT_ROUNDS})`, min: 1, max: 100 },
    { name: "list", type: "boolean", help: "print the built-in scenarios with their descriptions, and stop (with --json: one JSON array of {name, description})", alone: true },
  ],
  exitCodes: [
    [0, "every scenario's checks passed (or --list, --export-k6 done)"],
    [1, "a check failed, or a figure regressed past --max-regression against --baseline"],
    [2, "usage or configuration error (the target unreachable, a key it refuses, a bad scenario file)"],
  ],
  examples: [
    "cpsim load --list",
    "cpsim load --scenario run-small --duration 5",
    "cpsim load --rate 2000 --scenario status-poll --duration 30",
    "cpsim load --target http://127.0.0.1:8080 --api-key \"$KEY\" --baseline main/report.json --max-regression 15",
    "cpsim load --export-k6 k6/ --target https://api.example.com",
    "cpsim load --scenario run-small --duration 5 --sweep-connections 1,2,4,8,16",
  ],
};

type Flags = Record<string, string | number | boolean | string[] | undefined>;

/**
 * The run's keys: a flag wins; $CPSIM_API_KEY and $CPSIM_LIMITED_API_KEY count with --target only
 * (a shell set up for "your service" must not send its key to the embedded emulator, which would
 * rate-limit it), and which of them came from the environment is kept for the reproduce line.
 */
function keysOf(flags: Flags, env: NodeJS.ProcessEnv): Pick<LoadOptions, "apiKey" | "limitedApiKey" | "keysFromEnvironment"> {
  const fromEnv: ("api" | "limited")[] = [];
  const key = (role: "api" | "limited", flag: string, variable: string): string | undefined => {
    const given = flags[flag] as string | undefined;
    if (given !== undefined) return given;
    const value = flags.target === undefined ? undefined : env[variable] || undefined;
    if (value !== undefined) fromEnv.push(role);
    return value;
  };
  return { apiKey: key("api", "api-key", "CPSIM_API_KEY"), limitedApiKey: key("limited", "limited-api-key", "CPSIM_LIMITED_API_KEY"), keysFromEnvironment: fromEnv };
}

export function optionsFromFlags(flags: Flags, env: NodeJS.ProcessEnv = process.env): Partial<LoadOptions> {
  const str = (n: string) => flags[n] as string | undefined;
  const givenScenarios = flags.scenario as string[] | undefined;
  const scenarios = givenScenarios?.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean) ?? [];
  // A --scenario with no name in it (',', an empty variable's spaces) must not mean "every scenario".
  if (givenScenarios !== undefined && scenarios.length === 0) {
    throw new UsageError(`--scenario ${JSON.stringify(givenScenarios.join(","))} names no scenario; run "cpsim load --list" for the names`, "load");
  }
  return {
    target: str("target"),
    serverlessUrl: str("serverless-url"),
    ...keysOf(flags, env),
    endpoint: str("endpoint"),
    scenarios,
    scenarioFiles: (flags["scenario-file"] as string[] | undefined) ?? [],
    durationS: flags.duration as number | undefined,
    connections: flags.connections as number | undefined,
    maxRequests: flags["max-requests"] as number | undefined,
    rate: flags.rate as number | undefined,
    pipelining: flags.pipelining as number | undefined,
    timeoutS: flags.timeout as number | undefined,
    seed: flags.seed as number | undefined,
    baseline: str("baseline"),
    maxRegressionPct: flags["max-regression"] as number | undefined,
    reportDir: str("report-dir"),
    json: flags.json === true,
    exportK6: str("export-k6"),
    engine: flags.engine as LoadEngine | undefined,
    respectRateLimit: flags["respect-rate-limit"] === true,
    progress: flags.quiet !== true,
    targetProfile: str("target-profile"),
    out: (flags.out as string[] | undefined) ?? [],
  };
}

/** Parses argv and runs; configuration errors (typed, exit code 2) are turned into messages by the dispatcher. */
export async function run(argv: readonly string[], io: CliIo, deps: LoadDeps = {}): Promise<number> {
  const parsed = parseArgs(spec, argv);
  if (parsed.help) {
    io.stdout(renderHelp(spec));
    return 0;
  }
  if (parsed.flags.list === true) {
    if (parsed.flags.json === true) {
      io.stdout(`${JSON.stringify(builtinScenarios.map((sc) => ({ name: sc.name, description: sc.description })))}\n`);
      return 0;
    }
    const width = Math.max(...builtinScenarios.map((sc) => sc.name.length));
    io.stdout(builtinScenarios.map((sc) => `${sc.name.padEnd(width)}  ${sc.description}`).join("\n") + "\n");
    return 0;
  }
  const sweep = parsed.flags["sweep-connections"] as string | undefined;
  if (sweep === undefined && parsed.flags["sweep-rounds"] !== undefined) throw new UsageError("--sweep-rounds goes with --sweep-connections", "load");
  if (sweep !== undefined) {
    if (parsed.flags.connections !== undefined) throw new UsageError("--sweep-connections sets the connections of each run; leave out --connections", "load");
    if (parsed.flags.rate !== undefined) throw new UsageError("--sweep-connections measures the closed model's throughput; it does not combine with --rate", "load");
    if (parsed.flags["export-k6"] !== undefined) throw new UsageError("--sweep-connections runs the load; it does not combine with --export-k6", "load");
    const counts = parseConnectionList(sweep);
    const rounds = parsed.flags["sweep-rounds"] as number | undefined;
    const swept = await sweepConnections(optionsFromFlags(parsed.flags), counts, { io, terminalWidth: process.stdout.columns, ...deps }, { rounds });
    return swept.exitCode;
  }
  const result = await load(optionsFromFlags(parsed.flags), { io, terminalWidth: process.stdout.columns, ...deps });
  return result.exitCode;
}
