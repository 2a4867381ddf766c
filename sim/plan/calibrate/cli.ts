/**
 * `cpsim plan calibrate` and `cpsim plan validate`: thin parsers over calibrate(),
 * calibrateTarget() and validate(); files are written into --out.
 */
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { outputDirRefusal } from "../../../reports/index.ts";
import { parseArgs, renderHelp, UsageError, type CliIo, type CommandSpec } from "../../cli/args.ts";
import { loadScenarioFile, ScenarioError } from "../scenario.ts";
import { calibrate } from "./calibrate.ts";
import { renderCalibrationHtml } from "./calibration-html.ts";
import type { JobMeasurement } from "./measurement.ts";
import { readMeasured, readMeasuredWithSource } from "./read-measured.ts";
import { calibrateTarget } from "./run-target.ts";
import { renderCalibrationText, renderValidationText } from "./text.ts";
import { fitUsl, type UslFit, type UslPoint } from "./usl.ts";
import { validate } from "./validate.ts";

const EXEMPT_KEY_HINT = "the key of the run (default: $CPSIM_API_KEY)";

export const calibrateSpec: CommandSpec = {
  name: "plan calibrate",
  summary: "fit a scenario to what was measured against a target: run times, workers, cold starts, arrivals, rate limits",
  usage:
    "cpsim plan calibrate --measured FILE... [--endpoint ID] [--load-report FILE...] [--out DIR] [--seed N] [--json]\n" +
    "       cpsim plan calibrate --target URL --endpoint ID [--api-key KEY] [--rate R] [--duration S] [--idle-watch S] [--input JSON] [--out DIR] [--seed N] [--json]",
  description:
    "Writes DIR/scenario.json, an ordinary scenario whose every fitted value has its 95% interval and its source under " +
    "calibration.values, and DIR/report.html (run-time histogram and Q-Q plot, delay by load level). " +
    "With --target it measures the endpoint first (DIR/measurement.json): Poisson jobs for --duration seconds, each followed to the end, " +
    "/health sampled all along and, after the last job, until idle workers have stopped (--idle-watch); without --rate a pilot at 1 job/s picks half the capacity it sees, within the target's rate limits. " +
    "--measured also takes the job log of a cpsim proxy that stood in front of the target (its report folder, report.json or jobs.json): real traffic's arrivals, " +
    "delayTime and executionTime, and /health's worker counts when the client read them. " +
    "--load-report takes cpsim load reports at several concurrencies (cpsim load --sweep-connections) and fits the Universal Scalability Law. " +
    "Then: cpsim plan DIR/scenario.json --arrival RATE predicts another load level; cpsim plan validate checks a prediction against a measurement.",
  flags: [
    { name: "measured", type: "string", value: "FILE", help: "a job measurement (measurement.json of an earlier --target run), or a cpsim proxy's job log (its --report-dir, report.json or jobs.json)", multiple: true },
    { name: "load-report", type: "string", value: "FILE", help: "a cpsim load report.json; several at different --connections fit the USL", multiple: true },
    { name: "target", type: "string", value: "URL", help: "measure this target's job endpoint ({serverless_url}); 127.0.0.1 or your own service" },
    { name: "endpoint", type: "string", value: "ID", help: "the job endpoint to measure; with a proxy's job log, the endpoint to fit (default: the one with the most jobs)" },
    { name: "api-key", type: "string", value: "KEY", help: EXEMPT_KEY_HINT },
    { name: "rate", type: "number", value: "R", help: "measure at this Poisson rate, jobs/s (default: half the capacity a pilot sees)", min: 0.01, max: 10_000 },
    { name: "duration", type: "number", value: "S", help: "seconds of measuring", default: 120, min: 1, max: 3600 },
    { name: "idle-watch", type: "number", value: "S", help: "after the last job, watch /health for up to S seconds while idle workers stop (the minimum workers and the idle timeout are fitted from it; 0: no watch)", default: 60, min: 0, max: 3600 },
    { name: "input", type: "string", value: "JSON", help: "the job input to send (default {})" },
    { name: "out", type: "string", value: "DIR", help: "folder for scenario.json, report.html, measurement.json (and the pilot's, pilot.json)", default: "reports/calibrate" },
    { name: "seed", type: "integer", value: "N", help: "one seed for the arrivals and every bootstrap", default: 1, min: 0, max: 2 ** 32 - 1 },
    { name: "json", type: "boolean", help: "print the calibration (values, intervals, sources) as JSON instead of the summary" },
  ],
  exitCodes: [
    [0, "the scenario was written"],
    [2, "usage error, a measurement that does not load or is too small, an unreachable target"],
  ],
  examples: [
    "cpsim plan calibrate --target http://127.0.0.1:8080 --endpoint my-endpoint --duration 120 --out calib",
    "cpsim plan calibrate --measured calib/measurement.json --out calib2",
    "cpsim plan calibrate --measured reports/proxy --endpoint my-endpoint --out from-traffic",
    "cpsim plan calib/scenario.json --arrival 12",
    "cpsim plan validate --scenario calib/scenario.json --measured at-12/measurement.json",
  ],
};

export const validateSpec: CommandSpec = {
  name: "plan validate",
  summary: "compare a calibrated scenario's prediction with a measurement at that load level",
  usage: "cpsim plan validate --scenario FILE --measured FILE [--seed N] [--runs K] [--json]",
  description:
    "Predicts delay and latency percentiles (p50, p90, p99) at the measurement's rate and window, each with a 95% interval that " +
    "includes the fit's uncertainty, and says whether each measured value lies in its interval.",
  flags: [
    { name: "scenario", type: "string", value: "FILE", help: "a scenario (cpsim plan calibrate's scenario.json)" },
    { name: "measured", type: "string", value: "FILE", help: "a job measurement at the load level to check (or a cpsim proxy's job log)" },
    { name: "seed", type: "integer", value: "N", help: "first seed of the prediction's runs", default: 1, min: 0, max: 2 ** 32 - 1 },
    { name: "runs", type: "integer", value: "K", help: "runs of the prediction (parameter draw and seed each)", default: 40, min: 2, max: 10_000 },
    { name: "json", type: "boolean", help: "print the comparison as JSON" },
  ],
  exitCodes: [
    [0, "every measured percentile lies in its predicted interval"],
    [1, "one or more lie outside"],
    [2, "usage error, or a scenario or measurement that does not load"],
  ],
  examples: ["cpsim plan validate --scenario calib/scenario.json --measured at-12/measurement.json"],
};

/** (connections, requests/s) of each scenario of cpsim load reports. */
export function loadReportPoints(files: readonly string[]): UslPoint[] {
  return files.flatMap((f) => {
    let r: { scenarios?: Array<{ connections?: number; rps?: number; skipped?: string }> };
    try {
      r = JSON.parse(readFileSync(f, "utf8"));
    } catch (err) {
      throw new ScenarioError(`--load-report ${f}: not readable JSON (${(err as Error).message})`);
    }
    if (!Array.isArray(r.scenarios)) throw new ScenarioError(`--load-report ${f}: not a cpsim load report (no scenarios array)`);
    return r.scenarios.filter((s) => s.skipped === undefined && typeof s.connections === "number" && typeof s.rps === "number").map((s) => ({ concurrency: s.connections as number, throughput: s.rps as number }));
  });
}

function parseInput(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // said below
  }
  throw new UsageError(`--input ${text}: expected a JSON object, for example '{"op":"sleep","ms":200}'`);
}

export async function runCalibrate(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(calibrateSpec, argv);
  if (args.help) {
    io.stdout(renderHelp(calibrateSpec));
    return 0;
  }
  const f = args.flags;
  const measured = (f.measured as string[] | undefined) ?? [];
  const target = f.target as string | undefined;
  if (measured.length === 0 && target === undefined) throw new UsageError("give --measured FILE (a job measurement) or --target URL --endpoint ID to measure one");
  if (measured.length > 0 && target !== undefined) throw new UsageError("--measured and --target exclude each other: calibrate from files, or measure the target now");
  const out = resolve(f.out as string);
  const refusal = outputDirRefusal("--out", out);
  if (refusal !== undefined) throw new UsageError(refusal);
  const seed = f.seed as number;
  const measurements: JobMeasurement[] = [];
  const sources: string[] = [];
  let rateReason: string | undefined;
  if (target !== undefined) {
    if (f.endpoint === undefined) throw new UsageError("--target needs --endpoint ID: the job endpoint to measure");
    try {
      new URL(target);
    } catch {
      throw new UsageError(`--target ${target} is not a URL; give one like http://127.0.0.1:8080`);
    }
    const apiKey = (f["api-key"] as string | undefined) ?? (process.env.CPSIM_API_KEY || undefined);
    if (apiKey === undefined) throw new UsageError("--target needs a key: --api-key KEY or $CPSIM_API_KEY");
    const run = await calibrateTarget({
      serverlessUrl: target,
      apiKey,
      endpoint: f.endpoint as string,
      durationS: f.duration as number,
      idleWatchS: f["idle-watch"] as number,
      seed,
      inputs: [{ weight: 1, input: parseInput(f.input as string | undefined) }],
      ...(f.rate !== undefined ? { perSecond: f.rate as number } : {}),
      onProgress: (t) => io.stderr(`${t}\n`),
    });
    rateReason = run.rateReason;
    await mkdir(out, { recursive: true });
    await writeFile(join(out, "measurement.json"), JSON.stringify(run.measurement) + "\n", "utf8");
    if (run.pilot !== undefined) {
      // The pilot's jobs and worker starts count too; the arrivals and measured percentiles are the measurement's.
      await writeFile(join(out, "pilot.json"), JSON.stringify(run.pilot) + "\n", "utf8");
      measurements.push(run.pilot);
      sources.push(join(out, "pilot.json"));
    }
    measurements.push(run.measurement);
    sources.push(join(out, "measurement.json"));
  } else {
    for (const m of measured) {
      const read = readMeasuredWithSource(m, f.endpoint as string | undefined);
      measurements.push(read.measurement);
      sources.push(read.source);
    }
  }
  const { scenario, calibration } = calibrate(measurements, { seed, sources });
  let usl: UslFit | undefined;
  const reports = (f["load-report"] as string[] | undefined) ?? [];
  if (reports.length > 0) {
    try {
      usl = fitUsl(loadReportPoints(reports));
    } catch (err) {
      if (err instanceof RangeError) throw new ScenarioError(`--load-report: ${err.message}`);
      throw err;
    }
    (calibration as { rest?: unknown }).rest = { usl, source: reports.join(", "), method: "Universal Scalability Law, least squares on the throughput" };
  }
  if (rateReason !== undefined) (calibration.values as Record<string, unknown>).measuringRate = { value: measurements[0].offeredPerSecond, source: "cpsim plan calibrate --target", method: rateReason };
  await mkdir(out, { recursive: true });
  await writeFile(join(out, "scenario.json"), JSON.stringify(scenario, null, 2) + "\n", "utf8");
  await writeFile(join(out, "report.html"), await renderCalibrationHtml(scenario, calibration, measurements, usl), "utf8");
  if (f.json === true) io.stdout(JSON.stringify(calibration, null, 2) + "\n");
  else {
    io.stdout(renderCalibrationText(calibration, usl));
    io.stdout(`\nwrote ${join(out, "scenario.json")} and report.html; predict another level with: cpsim plan ${join(out, "scenario.json")} --arrival RATE\n`);
  }
  return 0;
}

export async function runValidate(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(validateSpec, argv);
  if (args.help) {
    io.stdout(renderHelp(validateSpec));
    return 0;
  }
  const f = args.flags;
  if (f.scenario === undefined || f.measured === undefined) throw new UsageError("validate needs --scenario FILE and --measured FILE");
  const loaded = loadScenarioFile(f.scenario as string);
  const m = readMeasured(f.measured as string);
  const v = validate(loaded, m, { seed: f.seed as number, runs: f.runs as number });
  io.stdout(f.json === true ? JSON.stringify(v, null, 2) + "\n" : renderValidationText(v));
  return v.inside === v.total ? 0 : 1;
}
