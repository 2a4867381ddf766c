/**
 * `cpsim plan`: a thin parser over plan(), planShard() and mergeShards(); reports are written by
 * reports/ from the plan's plain data.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { outputDirRefusal, renderPlanCsv, renderPlanJson, renderPlanSummary, writePlanReports } from "../../reports/index.ts";
import type { PlanReport } from "../../reports/plan-report.ts";
import { parseArgs, renderHelp, UsageError, type CliIo, type CommandSpec } from "../cli/args.ts";
import { progressLine } from "../cli/progress-line.ts";
import { renderScenarioList, renderScenarioListJson } from "./scenario-list.ts";
import { paramNames } from "./params.ts";
import { mergeShards, plan, planShard, type PlanOptions, type ShardFile } from "./plan.ts";
import { defaultWorkers } from "./pool.ts";
import { bundledScenarios, loadScenarioFile, scenarioJsonSchema } from "./scenario.ts";

export const spec: CommandSpec = {
  name: "plan",
  summary: "capacity planning: seeded what-if runs of a scenario with 95% intervals, sweeps and --find",
  usage:
    "cpsim plan SCENARIO [--seed N] [--seeds K] [--hours H] [--sweep PARAM=v1,v2,...] [--find PARAM --slo 'p99 delay < 2s'] " +
    "[--out DIR] [--json] [--csv] [--workers N] [--shard i/n | --shards N]\n       cpsim plan SCENARIO --arrival RATE [--window S] [--seeds K] [--json]\n" +
    "       cpsim plan calibrate ... (cpsim plan calibrate --help)\n       cpsim plan validate --scenario FILE --measured FILE\n       cpsim plan --merge DIR... [--out DIR]\n       cpsim plan --schema\n       cpsim plan --list [--json]",
  description:
    "SCENARIO is a bundled scenario (" +
    (bundledScenarios().join(", ") || "see fixtures/scenarios") +
    ") or a path to a scenario JSON file (cpsim plan --schema prints its JSON Schema). Each seed runs the scenario once; " +
    "every figure is the mean across seeds with its 95% Student t interval. Seeds and sweep points run in parallel on worker threads. " +
    "Writes plan.json, plan.csv and report.html into --out and prints a summary. Parameters for --sweep and --find: " +
    paramNames() +
    ". SLO terms: STAT METRIC < VALUE (STAT p50|p90|p99|mean|max, METRIC delay|execution, VALUE like 2s or 500ms) or 'cost per 1000 < $0.5', joined by 'and'. " +
    "For one seed with the platform's event-log hash, see cpsim simulate. " +
    "--arrival RATE predicts delay and latency percentiles of a measuring window at that rate instead, each seed a draw of a calibrated scenario's fit " +
    "(cpsim plan calibrate writes one from measurements; cpsim plan validate checks a prediction against a measurement).",
  positionals: [{ name: "SCENARIO", help: "bundled scenario name or path to a JSON file (with --merge: shard folders or files)" }],
  flags: [
    { name: "seed", type: "integer", value: "N", help: "first seed; seeds are N, N+1, ...", default: 1, min: 0, max: 2 ** 32 - 1 },
    { name: "seeds", type: "integer", value: "K", help: "seeds per point (2 or more for intervals)", default: 5, min: 1, max: 10_000 },
    { name: "hours", type: "number", value: "H", help: "virtual hours per run (default: the scenario's)", min: 0.001, max: 24 * 365 },
    { name: "sweep", type: "string", value: "PARAM=v1,v2", help: "run each value of a parameter (repeat for a grid)", multiple: true },
    { name: "find", type: "string", value: "PARAM", help: "search the cheapest value of PARAM meeting --slo" },
    { name: "slo", type: "string", value: "EXPR", help: "the objective --find must meet, judged on the upper 95% bound, e.g. 'p99 delay < 2s'" },
    { name: "range", type: "string", value: "LO..HI", help: "--find's search range (default: the parameter's)" },
    { name: "out", type: "string", value: "DIR", help: "folder for plan.json, plan.csv, report.html and shard files", default: "reports/plan" },
    { name: "json", type: "boolean", help: "print plan.json to stdout instead of the summary" },
    { name: "csv", type: "boolean", help: "print the CSV to stdout instead of the summary" },
    { name: "workers", type: "integer", value: "N", help: "worker threads (default: the cores)", min: 1, max: 256 },
    { name: "shard", type: "string", value: "i/n", help: "run only share i (0-based) of n of the runs and write a shard file to --out" },
    { name: "shards", type: "integer", value: "N", help: "shard count; the index comes from JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs)", min: 1, max: 10_000 },
    { name: "merge", type: "boolean", help: "combine shard files from the folders given into the report one run gives" },
    { name: "schema", type: "boolean", help: "print the scenario JSON Schema", alone: true },
    { name: "list", type: "boolean", help: "print the bundled scenarios with their descriptions, and stop (with --json: one JSON array of {name, description})", alone: true },
    { name: "arrival", type: "number", value: "RATE", help: "predict delay and latency percentiles at this arrival rate, jobs/s (default 40 runs; --seeds sets them)", min: 0.000001, max: 100_000 },
    { name: "window", type: "number", value: "S", help: "with --arrival: the measuring window predicted, seconds (default: the calibration's, else 600)", min: 1, max: 86_400 },
    { name: "progress", type: "boolean", help: "show progress on stderr: one line redrawn on a terminal, a line per percent elsewhere (default: unless --json or --csv)" },
  ],
  exitCodes: [
    [0, "the plan ran (with --find: a value meets the SLO), or --list, --schema printed"],
    [1, "--find found no value in the range meeting the SLO"],
    [2, "usage error, or a scenario or shard file that does not load"],
  ],
  examples: [
    "cpsim plan --list",
    "cpsim plan steady-inference",
    "cpsim plan diurnal-images --seeds 8 --sweep workersMax=2,4,6,8",
    "cpsim plan mmc-queue --find workers --slo 'p99 delay < 2s' --range 8..16",
    "cpsim plan bursty-batch --shard 0/4 --out shards && cpsim plan --merge shards --out report",
    "cpsim plan --schema > scenario.schema.json",
    "cpsim plan calib/scenario.json --arrival 12",
  ],
};

function parseShard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (m === null) throw new UsageError(`--shard "${text}": expected i/n, for example 0/4 (i counts from 0)`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (!(count >= 1 && index < count)) throw new UsageError(`--shard ${text}: i must be in 0..n-1`);
  return { index, count };
}

function parseRange(text: string): [number, number] {
  const m = /^\s*(-?[0-9]*\.?[0-9]+)\s*\.\.\s*(-?[0-9]*\.?[0-9]+)\s*$/.exec(text);
  if (m === null) throw new UsageError(`--range "${text}": expected LO..HI, for example 1..32`);
  return [Number(m[1]), Number(m[2])];
}

/** Shard files named on the command line: folders (their plan-shard-*.json) or files. */
function readShards(paths: readonly string[]): Array<{ name: string; shard: ShardFile }> {
  const files: string[] = [];
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new UsageError(`--merge: ${p} does not exist`);
    }
    if (st.isDirectory()) files.push(...readdirSync(p).filter((f) => /^plan-shard-.*\.json$/.test(f)).sort().map((f) => join(p, f)));
    else files.push(p);
  }
  return files.map((f) => {
    try {
      return { name: f, shard: JSON.parse(readFileSync(f, "utf8")) as ShardFile };
    } catch (err) {
      throw new UsageError(`--merge: ${f} is not a readable shard file: ${(err as Error).message}`);
    }
  });
}

async function output(report: PlanReport, out: string, flags: Record<string, unknown>, io: CliIo): Promise<number> {
  const written = await writePlanReports(report, out);
  if (flags.json === true) io.stdout(renderPlanJson(report));
  else if (flags.csv === true) io.stdout(renderPlanCsv(report));
  else {
    io.stdout(renderPlanSummary(report));
    io.stdout(`\nwrote ${written.json}, ${basename(written.csv)} and ${basename(written.html)}\n`);
  }
  return report.find !== null && report.find.answer === null ? 1 : 0;
}

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === "calibrate") return (await import("./calibrate/cli.ts")).runCalibrate(argv.slice(1), io);
  if (argv[0] === "validate") return (await import("./calibrate/cli.ts")).runValidate(argv.slice(1), io);
  const merging = argv.includes("--merge");
  // --merge takes any number of folders: the same flags, more positionals.
  const args = parseArgs(merging ? { ...spec, positionals: Array.from({ length: 1000 }, () => ({ name: "DIR", help: "" })) } : spec, argv);
  if (args.help) {
    io.stdout(renderHelp(spec));
    return 0;
  }
  const f = args.flags;
  if (f.json === true && f.csv === true) throw new UsageError("--json and --csv exclude each other: one of them goes to stdout (both files are written into --out)");
  if (f.list === true) {
    io.stdout(f.json === true ? renderScenarioListJson() : renderScenarioList());
    return 0;
  }
  if (f.schema === true) {
    io.stdout(JSON.stringify(scenarioJsonSchema(), null, 2) + "\n");
    return 0;
  }
  const out = resolve(f.out as string);
  // Checked before the runs, not found out when writing after them.
  const outRefusal = outputDirRefusal("--out", out);
  if (outRefusal !== undefined) throw new UsageError(outRefusal);
  if (merging) {
    if (args.positionals.length === 0) throw new UsageError("--merge needs the folders (or files) holding the shard files");
    const report = mergeShards(readShards(args.positionals));
    return output(report, out, f, io);
  }
  if (args.positionals.length !== 1) throw new UsageError(`missing SCENARIO; usage: ${spec.usage.split("\n")[0]}`);
  if (f.find !== undefined && f.slo === undefined) throw new UsageError("--find needs --slo, for example --slo 'p99 delay < 2s'");
  if (f.slo !== undefined && f.find === undefined) throw new UsageError("--slo goes with --find PARAM");
  if (f.shard !== undefined && f.shards !== undefined) throw new UsageError("give --shard i/n or --shards N, not both");
  let shard: { index: number; count: number } | undefined;
  if (f.shard !== undefined) shard = parseShard(f.shard as string);
  else if (f.shards !== undefined) {
    const env = process.env.JOB_COMPLETION_INDEX;
    if (env === undefined || !/^\d+$/.test(env)) {
      throw new UsageError("--shards N reads the shard index from JOB_COMPLETION_INDEX (set by Kubernetes Indexed Jobs); it is not set: use --shard i/n");
    }
    shard = parseShard(`${env}/${f.shards as number}`);
  }
  const loaded = loadScenarioFile(args.positionals[0]);
  if (f.window !== undefined && f.arrival === undefined) throw new UsageError("--window goes with --arrival RATE");
  if (f.arrival !== undefined) {
    if (f.sweep !== undefined || f.find !== undefined || shard !== undefined) throw new UsageError("--arrival predicts one load level; it does not combine with --sweep, --find or --shard");
    const { predict } = await import("./calibrate/predict.ts");
    const { renderPredictionText } = await import("./calibrate/text.ts");
    const runs = argv.some((a) => a === "--seeds" || a.startsWith("--seeds=")) ? (f.seeds as number) : 40;
    if (runs < 2) throw new UsageError("--arrival needs --seeds 2 or more for its intervals");
    const p = predict(loaded, { perSecond: f.arrival as number, seed: f.seed as number, runs, ...(f.window !== undefined ? { windowS: f.window as number } : {}) });
    io.stdout(f.json === true ? JSON.stringify(p, null, 2) + "\n" : renderPredictionText(p));
    return 0;
  }
  const quiet = f.progress === false || (f.progress !== true && (f.json === true || f.csv === true));
  const progress = progressLine(io);
  const started = performance.now();
  const options: PlanOptions = {
    loaded,
    seed: f.seed as number,
    seeds: f.seeds as number,
    hours: f.hours as number | undefined,
    sweep: (f.sweep as string[] | undefined) ?? [],
    workers: (f.workers as number | undefined) ?? defaultWorkers(),
    ...(f.find !== undefined ? { find: { param: f.find as string, slo: f.slo as string, ...(f.range !== undefined ? { range: parseRange(f.range as string) } : {}) } } : {}),
    onProgress: quiet
      ? undefined
      : (done, total) => progress.update(`plan: ${done}/${total} runs (${Math.round((100 * done) / total)}%), ${((performance.now() - started) / 1000).toFixed(1)} s`, (100 * done) / total),
  };
  if (shard !== undefined) {
    const file = await planShard(options, shard.index, shard.count);
    progress.done();
    await mkdir(out, { recursive: true });
    const path = join(out, `plan-shard-${shard.index}-of-${shard.count}.json`);
    await writeFile(path, JSON.stringify(file) + "\n", "utf8");
    io.stdout(`shard ${shard.index}/${shard.count}: ${file.results.length} of ${file.totalRuns} runs written to ${path}; combine with: npx cpsim plan --merge ${out}\n`);
    return 0;
  }
  const report = await plan(options);
  progress.done();
  return output(report, out, f, io);
}
