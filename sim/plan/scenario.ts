/**
 * A workload scenario: what runs on the platform for a number of virtual hours. Pods arrive and
 * are terminated after a lifetime; jobs arrive on endpoints as Poisson processes (optionally with
 * a daily cycle); outside tenants load the GPU stock. Scenarios are data (fixtures/scenarios/),
 * validated at load with a message naming the file, the JSON path and what was expected.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { isAbsolute, resolve, sep } from "node:path";
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

export const JobWorkload = Type.Object(
  {
    endpoint: Type.String({ minLength: 1 }),
    account: Type.String({ minLength: 1 }),
    /** Mean job arrivals per second (Poisson). */
    perSecond: Type.Number({ exclusiveMinimum: 0, maximum: 100000 }),
    /** A daily cycle: the rate swings ±amplitude around perSecond, peaking at peakHour (virtual time of day). */
    diurnal: Type.Optional(
      Type.Object(
        { amplitude: Type.Number({ minimum: 0, maximum: 1 }), peakHour: Type.Number({ minimum: 0, maximum: 24 }) },
        { additionalProperties: false },
      ),
    ),
    inputs: Type.Array(JobInput, { minItems: 1, maxItems: 100 }),
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
    outsideDemand: Type.Optional(
      Type.Object(
        {
          intensity: Type.Number({ minimum: 0, maximum: 100 }),
          meanHoldMinutes: Type.Optional(Positive("mean hold of an outside tenant, minutes")),
        },
        { additionalProperties: false },
      ),
    ),
    pods: Type.Array(PodWorkload, { maxItems: 100 }),
    jobs: Type.Array(JobWorkload, { maxItems: 100 }),
  },
  { additionalProperties: false },
);
export type Scenario = Static<typeof Scenario>;
export type PodWorkload = Static<typeof PodWorkload>;
export type JobWorkload = Static<typeof JobWorkload>;

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
  return parseScenario(json, looksLikePath ? nameOrPath : `fixtures/scenarios/${nameOrPath}.json`);
}
