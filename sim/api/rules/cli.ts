/** `cpsim rules [GLOB] [--json | --markdown]`: a thin parser over renderRules. */
import picomatch from "picomatch";
import { parseArgs, renderHelp, UsageError, type CliIo, type CommandSpec } from "../../cli/args.ts";
import { renderRules } from "./render-rules.ts";
import { rules } from "./rules.ts";

export const spec: CommandSpec = {
  name: "rules",
  summary: "print the rule catalog: each rule's id, the sentence it comes from, its section and readings",
  usage: "cpsim rules [GLOB] [--json | --markdown]",
  description:
    "The catalog is cpsim's statement of the specification: every rule the emulator enforces and the conformance\n" +
    "suite checks. GLOB selects rules by id, as `cpsim conform --only` does (* crosses dots: pods.*).",
  positionals: [{ name: "GLOB", help: "only the rules whose id matches (e.g. 'jobs.*')" }],
  flags: [
    { name: "json", type: "boolean", help: "print one JSON array of the rules" },
    { name: "markdown", type: "boolean", help: "print a Markdown table" },
  ],
  examples: ["cpsim rules", "cpsim rules 'pods.create.*'", "cpsim rules --markdown > RULES.md", "cpsim rules --json | jq length"],
  exitCodes: [
    [0, "rules printed"],
    [1, "no rule id matches GLOB"],
    [2, "usage error"],
  ],
};

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(spec, argv);
  if (args.help) {
    io.stdout(renderHelp(spec));
    return 0;
  }
  if (args.flags.json === true && args.flags.markdown === true) throw new UsageError("--json and --markdown exclude each other; give one", "rules");
  const glob = args.positionals[0];
  if (glob !== undefined && glob.trim() === "") throw new UsageError("GLOB is empty: give one such as 'pods.*', or none for every rule", "rules");
  const selected = glob === undefined ? rules : rules.filter((r) => picomatch.isMatch(r.id, glob, { dot: true }));
  if (selected.length === 0) {
    io.stderr(`cpsim rules: no rule id matches "${glob}"; run "cpsim rules" for the ids\n`);
    return 1;
  }
  io.stdout(renderRules(selected, args.flags.json === true ? "json" : args.flags.markdown === true ? "markdown" : "text"));
  return 0;
}
