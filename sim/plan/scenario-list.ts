/** `cpsim simulate --list` and `cpsim plan --list`: the bundled scenarios, one per line with its description (with --json, one JSON array). */
import { bundledScenarios, loadScenario } from "./scenario.ts";

/** Each bundled scenario with its description, or why it does not load. */
function scenarioEntries(): Array<{ name: string; description: string }> {
  return bundledScenarios().map((name) => {
    try {
      return { name, description: loadScenario(name).description };
    } catch (err) {
      return { name, description: `(does not load: ${(err as Error).message})` };
    }
  });
}

export function renderScenarioList(): string {
  const entries = scenarioEntries();
  const width = Math.max(0, ...entries.map((e) => e.name.length));
  const lines = entries.map((e) => `${e.name.padEnd(width)}  ${e.description}`);
  return lines.length === 0 ? "no bundled scenarios (fixtures/scenarios is missing)\n" : `${lines.join("\n")}\n`;
}

/** The same list as one JSON array of {name, description}, for --list --json. */
export function renderScenarioListJson(): string {
  return `${JSON.stringify(scenarioEntries())}\n`;
}
