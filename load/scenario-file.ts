/**
 * Scenarios from users' files (`--scenario-file`): a JSON file holding one scenario or an array
 * of them, or a module (.ts, .js, .mjs) whose default export is one or an array. Every scenario,
 * built-in or not, is validated against the scenario schema (ajv); errors name the file and field.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import { ScenarioSchema, type Scenario } from "./scenario.ts";
import { parseThreshold } from "./thresholds.ts";

export class ScenarioFileError extends Error {
  override readonly name = "ScenarioFileError";
  readonly code = "CPSIM_ERR_LOAD_SCENARIO";
  readonly exitCode = 2;
}

const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile<Scenario>(ScenarioSchema);

/** Checks one value against the schema and the rules a schema cannot say; returns it typed. */
export function validateScenario(value: unknown, source: string): Scenario {
  if (!validate(value)) {
    const problems = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || "(the scenario)"} ${e.message}${e.params && "additionalProperty" in e.params ? ` "${String(e.params.additionalProperty)}"` : ""}`);
    throw new ScenarioFileError(`${source}: not a valid scenario:\n  ${problems.join("\n  ")}`);
  }
  const s = value;
  for (const [metric, exprs] of Object.entries(s.thresholds)) {
    for (const [i, e] of exprs.entries()) {
      try {
        parseThreshold(e);
      } catch (err) {
        throw new ScenarioFileError(`${source}: /thresholds/${metric}/${i}: ${(err as Error).message}`);
      }
    }
  }
  const setups = new Set((s.setup ?? []).map((x) => x.name));
  for (const [i, r] of s.requests.entries()) {
    for (const m of r.path.matchAll(/\{ids:([^}]*)\}/g)) {
      if (!setups.has(m[1])) throw new ScenarioFileError(`${source}: /requests/${i}/path uses {ids:${m[1]}} but no setup step is named ${m[1]}`);
    }
  }
  return s;
}

export async function loadScenarioFile(file: string): Promise<Scenario[]> {
  const path = resolve(file);
  let value: unknown;
  if (/\.(json)$/i.test(path)) {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (err) {
      throw new ScenarioFileError(`--scenario-file ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new ScenarioFileError(`--scenario-file ${file}: not JSON (${(err as Error).message})`);
    }
  } else if (/\.(ts|js|mjs)$/i.test(path)) {
    try {
      value = ((await import(pathToFileURL(path).href)) as { default?: unknown }).default;
    } catch (err) {
      throw new ScenarioFileError(`--scenario-file ${file}: cannot load the module (${(err as Error).message})`);
    }
  } else {
    throw new ScenarioFileError(`--scenario-file ${file}: expected a .json file or a .ts/.js/.mjs module with a default export`);
  }
  const list = Array.isArray(value) ? value : [value];
  return list.map((v, i) => validateScenario(v, list.length > 1 ? `${file}[${i}]` : file));
}
