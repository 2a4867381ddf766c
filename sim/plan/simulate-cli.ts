/** `cpsim simulate SCENARIO [--seed N] [--hours H] [--json]`: a thin parser over simulate(). */
import { parseArgs, renderHelp, type CliIo, type CommandSpec } from "../cli/args.ts";
import { progressLine } from "../cli/progress-line.ts";
import { renderScenarioList, renderScenarioListJson } from "./scenario-list.ts";
import { bundledScenarios, loadScenarioFile } from "./scenario.ts";
import { formatSummary, simulate } from "./simulate.ts";

export const defaultOptions = { seed: 1, json: false } as const;

export const spec: CommandSpec = {
  name: "simulate",
  summary: "one seeded run of the whole platform (pods, jobs, stock) with its event-log hash, for reproducing a run",
  usage: "cpsim simulate SCENARIO [--seed N] [--hours H] [--json]\n       cpsim simulate --list [--json]",
  description:
    "SCENARIO is a bundled scenario name (" +
    (bundledScenarios().join(", ") || "see fixtures/scenarios") +
    ") or a path to a scenario JSON file. The same seed gives the same summary and event-log hash, byte for byte. " +
    "simulate is one run of one seed, pods included, for reproducing and debugging; for capacity questions (figures across seeds with " +
    "confidence intervals, sweeps, the cheapest setting meeting an SLO) use cpsim plan on the same scenario.",
  positionals: [{ name: "SCENARIO", help: "bundled scenario name or path to a JSON file", required: true }],
  flags: [
    { name: "seed", type: "integer", value: "N", help: "seed of every random stream", default: defaultOptions.seed, min: 0, max: 2 ** 32 - 1 },
    { name: "hours", type: "number", value: "H", help: "virtual hours to run (default: the scenario's)", min: 0.001, max: 24 * 365 },
    { name: "json", type: "boolean", help: "print the summary as one JSON object" },
    { name: "list", type: "boolean", help: "print the bundled scenarios with their descriptions, and stop (with --json: one JSON array of {name, description})", alone: true },
  ],
  examples: ["cpsim simulate --list", "cpsim simulate default", "cpsim simulate default --seed 7 --hours 24 --json", "cpsim simulate ./my-scenario.json"],
  exitCodes: [
    [0, "the run finished (or --list printed)"],
    [2, "usage error or a scenario that does not load"],
  ],
};

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(spec, argv);
  if (args.help) {
    io.stdout(renderHelp(spec));
    return 0;
  }
  if (args.flags.list === true) {
    io.stdout(args.flags.json === true ? renderScenarioListJson() : renderScenarioList());
    return 0;
  }
  const loaded = loadScenarioFile(args.positionals[0]);
  const scenario = loaded.scenario;
  const seed = args.flags.seed as number;
  const hours = args.flags.hours as number | undefined;
  const json = args.flags.json === true;
  const started = performance.now();
  if (!json) io.stderr(`simulating ${scenario.name} for ${hours ?? scenario.hours} virtual hours, seed ${seed}\n`);
  const progress = progressLine(io);
  const summary = simulate({
    scenario,
    loaded,
    seed,
    hours,
    onProgress: json ? undefined : (f) => progress.update(`  ${Math.round(f * 100)}%`, f * 100),
  });
  const wallMs = Math.round(performance.now() - started);
  if (json) {
    io.stdout(JSON.stringify(summary) + "\n");
  } else {
    progress.done();
    io.stdout(formatSummary(summary));
    io.stdout(`wall time ${wallMs} ms; reproduce with: npx cpsim simulate ${args.positionals[0]} --seed ${seed}${hours !== undefined ? ` --hours ${hours}` : ""}\n`);
  }
  return 0;
}
