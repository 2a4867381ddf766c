/**
 * A workload scenario: what runs on the platform for a number of virtual hours. Pods arrive and
 * are terminated after a lifetime; jobs arrive on endpoints as Poisson processes (optionally with
 * a daily cycle); outside tenants load the GPU stock. Scenarios are data (fixtures/scenarios/),
 * validated at load with a message naming the file, the JSON path and what was expected.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve, sep } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { Ajv } from "ajv";
import { packagePath } from "../package-root.ts";

const Positive = (description: string) => Type.Number({ exclusiveMinimum: 0, description });

export const LognormalSpec = Type.Object(
  { mean: Positive("mean"), cv: Type.Number({ minimum: 0, maximum: 10, description: "coefficient of variation" }) },
  { additionalProperties: false },
);

export const PodWorkload = Type.Object(
  {
    account: Type.String({ minLength: 1 }),
    /** Pod creations per hour (Poisson). */
    perHour: Positive("pod creations per hour"),
    /** How long a pod lives before it is terminated, in minutes. */
    lifetimeMinutes: LognormalSpec,
    /** A CreatePodRequest body, as the REST API takes it. */
    request: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);

export const JobInput = Type.Object(
  { weight: Type.Number({ minimum: 0 }), input: Type.Record(Type.String(), Type.Unknown()) },
  { additionalProperties: false },
);

/** A duration distribution in milliseconds. */
export const Distribution = Type.Union(
  [
    Type.Object({ dist: Type.Literal("constant"), value: Type.Number({ minimum: 0, maximum: 7 * 86_400_000 }) }, { additionalProperties: false }),
    Type.Object({ dist: Type.Literal("exponential"), mean: Type.Number({ exclusiveMinimum: 0, maximum: 7 * 86_400_000 }) }, { additionalProperties: false }),
    Type.Object(
      { dist: Type.Literal("lognormal"), mean: Type.Number({ exclusiveMinimum: 0, maximum: 7 * 86_400_000 }), cv: Type.Number({ minimum: 0, maximum: 10 }) },
      { additionalProperties: false },
    ),
    Type.Object(
      { dist: Type.Literal("uniform"), min: Type.Number({ minimum: 0, maximum: 7 * 86_400_000 }), max: Type.Number({ minimum: 0, maximum: 7 * 86_400_000 }) },
      { additionalProperties: false },
    ),
    Type.Object(
      { dist: Type.Literal("gamma"), mean: Type.Number({ exclusiveMinimum: 0, maximum: 7 * 86_400_000 }), cv: Type.Number({ exclusiveMinimum: 0, maximum: 10 }) },
      { additionalProperties: false },
    ),
    Type.Object(
      { dist: Type.Literal("weibull"), shape: Type.Number({ minimum: 0.05, maximum: 100 }), scale: Type.Number({ exclusiveMinimum: 0, maximum: 7 * 86_400_000 }) },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        dist: Type.Literal("empirical"),
        quantiles: Type.Array(Type.Number({ minimum: 0, maximum: 7 * 86_400_000 }), {
          minItems: 2,
          maxItems: 1001,
          description: "the values at equally spaced probabilities from 0 to 1, non-decreasing; a draw interpolates between them",
        }),
      },
      { additionalProperties: false },
    ),
  ],
  {
    description:
      "milliseconds: constant {value}, exponential {mean}, lognormal {mean, cv}, uniform {min, max}, gamma {mean, cv}, weibull {shape, scale} or empirical {quantiles}",
  },
);
export type Distribution = Static<typeof Distribution>;

/**
 * A serverless endpoint for the scenario. With the id of a catalog endpoint, the fields given
 * replace the catalog's (worker limits, scaler...) without editing the catalog; with a new id, it
 * is a planner endpoint whose jobs take `executionMs` (the job input is not read).
 */
export const EndpointSpec = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$" }),
    gpuTypeIds: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 16, description: "GPU types in order of preference" })),
    gpuCount: Type.Optional(Type.Integer({ minimum: 1, maximum: 8 })),
    workersMin: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    workersMax: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    scaler: Type.Optional(
      Type.Object(
        {
          type: Type.Union([Type.Literal("QueueDelay"), Type.Literal("RequestCount")]),
          value: Type.Number({ exclusiveMinimum: 0, maximum: 3600, description: "QueueDelay: seconds of wait; RequestCount: jobs per worker" }),
        },
        { additionalProperties: false },
      ),
    ),
    idleTimeoutMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400_000 })),
    coldStartMs: Type.Optional(LognormalColdStart()),
    executionMs: Type.Optional(Distribution),
    failureProbability: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    executionTimeoutMs: Type.Optional(Type.Integer({ minimum: 5000, maximum: 7 * 86_400_000 })),
    ttlMs: Type.Optional(Type.Integer({ minimum: 10_000, maximum: 7 * 86_400_000, description: "job lifetime from submission (policy.ttl)" })),
  },
  { additionalProperties: false },
);
export type EndpointSpec = Static<typeof EndpointSpec>;

function LognormalColdStart() {
  return Type.Object(
    { mean: Type.Number({ minimum: 0, maximum: 3_600_000 }), cv: Type.Number({ minimum: 0, maximum: 10 }) },
    { additionalProperties: false, description: "lognormal cold start in ms; mean 0: none" },
  );
}

export const Burst = Type.Object(
  {
    startMinute: Type.Number({ minimum: 0 }),
    durationMinutes: Type.Number({ exclusiveMinimum: 0 }),
    multiplier: Type.Number({ minimum: 0, maximum: 1000 }),
    everyMinutes: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: "repeat period; once when absent" })),
  },
  { additionalProperties: false },
);

export const JobWorkload = Type.Object(
  {
    endpoint: Type.String({ minLength: 1 }),
    /** Default: the catalog's first account. */
    account: Type.Optional(Type.String({ minLength: 1 })),
    /** Mean job arrivals per second (Poisson). */
    perSecond: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100000 })),
    /** A daily cycle: the rate swings ±amplitude around perSecond, peaking at peakHour (virtual time of day). */
    diurnal: Type.Optional(
      Type.Object(
        { amplitude: Type.Number({ minimum: 0, maximum: 1 }), peakHour: Type.Number({ minimum: 0, maximum: 24 }) },
        { additionalProperties: false },
      ),
    ),
    /** A daily curve: 24 rate multipliers, one per hour of the day, linearly interpolated. */
    curve: Type.Optional(Type.Array(Type.Number({ minimum: 0, maximum: 1000 }), { minItems: 24, maxItems: 24 })),
    /** Periods when the rate is multiplied. */
    bursts: Type.Optional(Type.Array(Burst, { maxItems: 100 })),
    /** A CSV trace (relative to the scenario file): columns offset_s (arrival) and duration_ms (optional). Replaces the rate. */
    trace: Type.Optional(Type.String({ minLength: 1 })),
    inputs: Type.Optional(Type.Array(JobInput, { minItems: 1, maxItems: 100 })),
  },
  { additionalProperties: false },
);

export const Scenario = Type.Object(
  {
    $comment: Type.Optional(Type.String()),
    name: Type.String({ minLength: 1 }),
    description: Type.String(),
    /** Default virtual hours to run (the CLI's --hours overrides). */
    hours: Type.Number({ exclusiveMinimum: 0, maximum: 24 * 365 }),
    /** Minutes at the start left out of every figure (the system fills up). */
    warmupMinutes: Type.Optional(Type.Number({ minimum: 0, maximum: 7 * 1440 })),
    outsideDemand: Type.Optional(
      Type.Object(
        {
          intensity: Type.Number({ minimum: 0, maximum: 100 }),
          meanHoldMinutes: Type.Optional(Positive("mean hold of an outside tenant, minutes")),
        },
        { additionalProperties: false },
      ),
    ),
    /** GPUs of each listed type on the platform (hosts are trimmed or added); the catalog's otherwise. */
    gpuSupply: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Integer({ minimum: 0, maximum: 100_000 }))),
    /** USD per GPU-hour for workers of each listed type; the catalog's price of the lease's cloud otherwise. */
    prices: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Number({ minimum: 0, maximum: 1000 }))),
    endpoints: Type.Optional(Type.Array(EndpointSpec, { maxItems: 100 })),
    pods: Type.Optional(Type.Array(PodWorkload, { maxItems: 100 })),
    jobs: Type.Optional(Type.Array(JobWorkload, { maxItems: 100 })),
    /** Where a calibrated scenario's values came from (`cpsim plan calibrate`): read by predictions, ignored by plain runs. */
    calibration: Type.Optional(
      Type.Object(
        { format: Type.Literal("cpsim-calibration/1") },
        { additionalProperties: true, description: "written by cpsim plan calibrate: each fitted value with its interval and source, and parameter draws" },
      ),
    ),
  },
  { additionalProperties: false },
);
export type Scenario = Static<typeof Scenario>;
export type PodWorkload = Static<typeof PodWorkload>;
export type JobWorkload = Static<typeof JobWorkload>;

/** A parsed CSV trace: arrival offsets (µs from the start) and durations (ms, NaN when absent). */
export interface Trace {
  readonly offsetsUs: number[];
  readonly durationsMs: number[];
}

/** A scenario with where it came from and its traces read. Plain data: it crosses to worker threads. */
export interface LoadedScenario {
  readonly scenario: Scenario;
  /** How messages name it: the path given or fixtures/scenarios/NAME.json. */
  readonly label: string;
  /** By trace file name as written in the scenario. */
  readonly traces: Readonly<Record<string, Trace>>;
}

export class ScenarioError extends Error {
  override readonly name = "ScenarioError";
  readonly code = "CPSIM_ERR_SCENARIO";
  readonly exitCode = 2;
}

export const BUNDLED_SCENARIO_DIR = packagePath("fixtures", "scenarios") + sep;

const ajv = new Ajv({ allErrors: true, strict: false });
const validateScenario = ajv.compile(Scenario);

/** Validates parsed JSON as a scenario; `label` names its source in messages. */
export function parseScenario(value: unknown, label: string): Scenario {
  if (validateScenario(value)) return value as Scenario;
  const lines = (validateScenario.errors ?? []).slice(0, 20).map((e) => {
    const where = e.instancePath === "" ? "/" : e.instancePath;
    const extra = e.keyword === "additionalProperties" ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : "";
    return `${label}: ${where}: ${e.message ?? "is invalid"}${extra}`;
  });
  throw new ScenarioError(`invalid scenario:\n${lines.join("\n")}`);
}

/** Names of the bundled scenarios, sorted. */
export function bundledScenarios(): string[] {
  try {
    return readdirSync(BUNDLED_SCENARIO_DIR)
      .filter((f) => f.endsWith(".json"))
      .map((f) => f.slice(0, -5))
      .sort();
  } catch {
    return [];
  }
}

/** A bundled scenario's name (`default`) or a path to a JSON file. */
export function loadScenario(nameOrPath: string): Scenario {
  return loadScenarioFile(nameOrPath).scenario;
}

/** The JSON Schema of scenarios, as `cpsim plan --schema` prints it. */
export function scenarioJsonSchema(): object {
  return JSON.parse(JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", title: "cpsim plan scenario", ...Scenario })) as object;
}

/** Reads, validates and completes a scenario: its traces are read and parsed too. */
export function loadScenarioFile(nameOrPath: string): LoadedScenario {
  const looksLikePath = nameOrPath.includes("/") || nameOrPath.endsWith(".json");
  const file = looksLikePath
    ? isAbsolute(nameOrPath) ? nameOrPath : resolve(process.cwd(), nameOrPath)
    : resolve(BUNDLED_SCENARIO_DIR, `${nameOrPath}.json`);
  if (!existsSync(file)) {
    const known = bundledScenarios();
    throw new ScenarioError(
      looksLikePath
        ? `scenario file ${nameOrPath} does not exist`
        : `no bundled scenario "${nameOrPath}"; bundled: ${known.join(", ") || "(none)"}; or pass a path to a JSON file`,
    );
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ScenarioError(`cannot read scenario ${nameOrPath}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ScenarioError(`${nameOrPath}: not valid JSON: ${(err as Error).message}`);
  }
  const label = looksLikePath ? nameOrPath : `fixtures/scenarios/${nameOrPath}.json`;
  const scenario = parseScenario(json, label);
  const traces: Record<string, Trace> = {};
  (scenario.jobs ?? []).forEach((w, i) => {
    if (w.trace === undefined || traces[w.trace] !== undefined) return;
    const path = isAbsolute(w.trace) ? w.trace : resolve(dirname(file), w.trace);
    let csv: string;
    try {
      csv = readFileSync(path, "utf8");
    } catch (err) {
      throw new ScenarioError(`${label}: /jobs/${i}/trace: cannot read ${w.trace}: ${(err as Error).message}`);
    }
    traces[w.trace] = parseTrace(csv, `${label}: /jobs/${i}/trace (${w.trace})`);
  });
  return { scenario, label, traces };
}

/** At most this many arrivals per trace: a limit on everything. */
export const TRACE_LIMIT = 10_000_000;

/** CSV with a header naming offset_s and optionally duration_ms; offsets need not be sorted. */
export function parseTrace(csv: string, label: string): Trace {
  const lines = csv.split(/\r?\n/).filter((l) => l.trim() !== "" && !l.startsWith("#"));
  if (lines.length === 0) throw new ScenarioError(`${label}: empty trace; expected a header "offset_s,duration_ms" and rows`);
  const header = lines[0].split(",").map((h) => h.trim());
  const oi = header.indexOf("offset_s");
  const di = header.indexOf("duration_ms");
  if (oi < 0) throw new ScenarioError(`${label}: the header must name offset_s (and optionally duration_ms), got "${lines[0]}"`);
  if (lines.length - 1 > TRACE_LIMIT) throw new ScenarioError(`${label}: ${lines.length - 1} rows, at most ${TRACE_LIMIT}`);
  const rows: Array<[number, number]> = [];
  for (let r = 1; r < lines.length; r++) {
    const cells = lines[r].split(",");
    const offset = Number(cells[oi]);
    const duration = di >= 0 ? Number(cells[di]) : Number.NaN;
    if (!(Number.isFinite(offset) && offset >= 0)) throw new ScenarioError(`${label}: line ${r + 1}: offset_s must be a number >= 0, got "${cells[oi] ?? ""}"`);
    if (di >= 0 && !(Number.isFinite(duration) && duration >= 0)) {
      throw new ScenarioError(`${label}: line ${r + 1}: duration_ms must be a number >= 0, got "${cells[di] ?? ""}"`);
    }
    rows.push([offset, duration]);
  }
  rows.sort((a, b) => a[0] - b[0]);
  return { offsetsUs: rows.map((x) => Math.round(x[0] * 1_000_000)), durationsMs: rows.map((x) => x[1]) };
}
