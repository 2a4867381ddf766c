/** `cpsim simulate --list` and `cpsim plan --list`: the bundled scenarios, one per line with its description. */
import { bundledScenarios, loadScenario } from "./scenario.ts";

export function renderScenarioList(): string {
  const names = bundledScenarios();
  const width = Math.max(0, ...names.map((n) => n.length));
  const lines = names.map((name) => {
    let description: string;
    try {
      description = loadScenario(name).description;
    } catch (err) {
      description = `(does not load: ${(err as Error).message})`;
    }
    return `${name.padEnd(width)}  ${description}`;
  });
  return lines.length === 0 ? "no bundled scenarios (fixtures/scenarios is missing)\n" : `${lines.join("\n")}\n`;
}
