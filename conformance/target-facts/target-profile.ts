/**
 * `--target-profile FILE`: the target's facts stated by its owner, which win over discovery. The
 * file is JSON of the same shape `cpsim conform --discover` prints; it is validated with ajv and
 * every mistake is named by its field, so a typo never silently falls back to discovery.
 */
import { readFile } from "node:fs/promises";
import { Ajv, type ErrorObject } from "ajv";
import { ConformConfigError } from "../errors.ts";
import { FACT_KEYS, type FactValues } from "./target-facts.ts";

export type TargetProfile = Partial<FactValues>;

const path = { type: "string", pattern: "^/", minLength: 1, maxLength: 500 } as const;
const nullablePath = { anyOf: [path, { type: "null" }] } as const;
const field = { type: "string", minLength: 1, maxLength: 100 } as const;

/** The profile's JSON Schema; `$comment` and `description` are allowed so a file can explain itself. */
export const TARGET_PROFILE_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    $comment: { type: "string" },
    description: { type: "string" },
    podActionPath: { ...path, pattern: "^((POST|PATCH) )?/.*\\{podId\\}" },
    podDeletePath: { anyOf: [{ ...path, pattern: "^/.*\\{podId\\}" }, { type: "null" }] },
    podListPath: path,
    networkVolumes: {
      anyOf: [
        { type: "object", additionalProperties: false, required: ["path"], properties: { path, field } },
        { type: "object", additionalProperties: false, required: ["dataCenterField"], properties: { dataCenterField: field } },
        { type: "object", additionalProperties: false, required: ["dataCenterPath"], properties: { dataCenterPath: { ...path, pattern: "^/.*\\{dataCenterId\\}" } } },
        { type: "object", additionalProperties: false, required: ["dataCenterLink"], properties: { dataCenterLink: field } },
        {
          type: "object",
          additionalProperties: false,
          required: ["ids"],
          properties: {
            ids: {
              type: "array",
              minItems: 1,
              maxItems: 100,
              items: {
                anyOf: [
                  { type: "string", minLength: 1, maxLength: 200 },
                  { type: "object", additionalProperties: false, required: ["id"], properties: { id: { type: "string", minLength: 1, maxLength: 200 }, dataCenterId: field } },
                ],
              },
            },
          },
        },
        { type: "null" },
      ],
    },
    gpuCatalogPath: nullablePath,
    cpuCatalogPath: nullablePath,
    dataCenterCatalogPath: nullablePath,
    imageModel: { anyOf: [{ type: "string", pattern: "^[A-Za-z0-9._~-]+$", minLength: 1, maxLength: 200 }, { type: "null" }] },
    registriesPath: nullablePath,
    restSegments: { type: "array", maxItems: 200, uniqueItems: true, items: { type: "string", pattern: "^[A-Za-z0-9._~-]+$", minLength: 1, maxLength: 100 } },
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile(TARGET_PROFILE_SCHEMA);

/** One line per mistake, each naming its field; anyOf's noise is reduced to the branch the value aimed at. */
function describe(errors: readonly ErrorObject[]): string[] {
  const lines = new Set<string>();
  for (const e of errors) {
    if (e.keyword === "anyOf") continue;
    const at = e.instancePath ? e.instancePath.slice(1).replace(/\//g, ".") : "(the file)";
    if (e.keyword === "additionalProperties") {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      const known = e.instancePath === "" ? ` (known keys: ${FACT_KEYS.join(", ")})` : "";
      lines.add(`${at === "(the file)" ? "" : `${at}: `}unknown key "${extra}"${known}`);
      continue;
    }
    if (e.keyword === "pattern" && /podActionPath/.test(at)) {
      lines.add(`${at}: must be a path starting with / that contains {podId}, optionally after POST or PATCH and a space`);
      continue;
    }
    if (e.keyword === "pattern" && /podDeletePath/.test(at)) {
      lines.add(`${at}: must be a path starting with / that contains {podId}`);
      continue;
    }
    lines.add(`${at}: ${e.message ?? e.keyword}`);
  }
  return [...lines];
}

/** The profile in `text`, or a ConformConfigError saying which fields are wrong. */
export function parseTargetProfile(text: string, file: string): TargetProfile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `--target-profile ${file} is not JSON: ${(err as Error).message}`);
  }
  if (!validate(json)) {
    const lines = describe(validate.errors ?? []);
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `--target-profile ${file} is not a valid target profile:\n  ${lines.join("\n  ")}\n(print one with: npx cpsim conform --discover)`);
  }
  const profile = json as Record<string, unknown>;
  const volumes = profile["networkVolumes"];
  // A volume named by its id alone is the same as {"id": ...}.
  if (typeof volumes === "object" && volumes !== null && "ids" in volumes) {
    const ids = (volumes as { ids: readonly (string | { id: string; dataCenterId?: string })[] }).ids;
    profile["networkVolumes"] = { ids: ids.map((v) => (typeof v === "string" ? { id: v } : v)) };
  }
  return Object.fromEntries(FACT_KEYS.filter((k) => k in profile).map((k) => [k, profile[k]])) as TargetProfile;
}

export async function loadTargetProfile(file: string): Promise<TargetProfile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new ConformConfigError("CPSIM_ERR_CONFIG", `--target-profile ${file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseTargetProfile(text, file);
}
