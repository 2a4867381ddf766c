/** The scenarios of a run: built-ins by name (all when none is named) and users' files. */
import { builtinScenarios } from "./scenarios/index.ts";
import type { Scenario } from "./scenario.ts";
import { loadScenarioFile, validateScenario } from "./scenario-file.ts";
import { LoadConfigError } from "./options.ts";

export async function selectScenarios(names: readonly string[], files: readonly string[]): Promise<Scenario[]> {
  const out: Scenario[] = [];
  for (const name of names) {
    const s = builtinScenarios.find((x) => x.name === name);
    if (!s) throw new LoadConfigError(`unknown scenario "${name}"; the built-in ones are: ${builtinScenarios.map((x) => x.name).join(", ")} (or give your own with --scenario-file)`);
    out.push(validateScenario(s, `built-in scenario ${name}`));
  }
  for (const f of files) out.push(...(await loadScenarioFile(f)));
  if (names.length === 0 && files.length === 0) out.push(...builtinScenarios.map((s) => validateScenario(s, `built-in scenario ${s.name}`)));
  const seen = new Set<string>();
  for (const s of out) {
    if (seen.has(s.name)) throw new LoadConfigError(`scenario "${s.name}" is given twice; names must be unique in a run`);
    seen.add(s.name);
  }
  return out;
}
