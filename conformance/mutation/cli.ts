/** `cpsim mutation`: a thin parser over `mutation()`'s options. */
import { type CliIo, type CommandSpec, UsageError, parseArgs, renderHelp } from "../../sim/cli/args.ts";
import { MAX_WORKERS, MutationConfigError, defaultMutationOptions, mutation } from "./mutation.ts";

export const spec: CommandSpec = {
  name: "mutation",
  exitCodes: [
    [0, "every defect was caught and the clean run passed"],
    [1, "a defect escaped, or the clean run failed"],
    [2, "usage or configuration error"],
  ],
  summary: "score the conformance suite: run it against the emulator with each documented defect",
  usage: "cpsim mutation [--defect GLOB]... [--conventions SEED]... [--workers N] [--seed N] [--profile strict|lenient] [--run-timeout-ms N] [--complete] [--report-dir DIR] [--json]",
  description:
    "Runs the conformance suite against the clean emulator (which must show no failure), then against a fresh emulator\n" +
    "per defect (cpsim serve --list-defects), in parallel worker threads. A defect is caught when a rule fails, caught\n" +
    "precisely when the rule it breaks fails. The check of that rule runs first, alone: when it fails, the defect is\n" +
    "caught precisely and its run ends there; otherwise the whole suite runs (--complete: the whole suite for every\n" +
    "defect, listing every rule that catches it). Writes mutation.json and mutation.html. Exit 1 when a defect escapes or\n" +
    "the clean run fails. --conventions SEED runs the same defects against the emulator answering with the conventions\n" +
    "drawn from SEED in the open-choice space (cpsim serve --conventions; list envelopes and pages, action routes, catalog\n" +
    "and volume paths, ids, times, statuses, extra fields ...), judged by the lenient suite and scored per seed\n" +
    "(mutation_conventions=N ... lines); a clean failure under a seed is a bug of the suite and exits 1, an escape there is\n" +
    "reported, and so are the defects that escape only under some seeds. The last line is:\n" +
    "mutation_defects=N caught=C precise=P escaped=E clean_failures=F wall_s=S",
  flags: [
    { name: "defect", type: "string", value: "GLOB", multiple: true, help: "defects to run, by name, area or rule id glob (default: all)" },
    { name: "conventions", type: "string", value: "SEED", multiple: true, help: "a seed of the open-choice space (a whole number from 1) to score the defects under too; repeat or comma-separate, at most 32" },
    { name: "family", type: "string", value: "N", multiple: true, help: "the older name of --conventions" },
    { name: "workers", type: "integer", value: "N", help: "suites run at once, one worker thread each", default: defaultMutationOptions.workers, min: 1, max: MAX_WORKERS },
    { name: "seed", type: "integer", value: "N", help: "seed of every emulator and suite run", default: defaultMutationOptions.seed, min: 0 },
    { name: "profile", type: "enum", choices: ["strict", "lenient"], help: "suite profile; strict also judges the emulator's documented choices", default: defaultMutationOptions.profile },
    { name: "run-timeout-ms", type: "integer", value: "N", help: "longest one suite run may take", default: defaultMutationOptions.runTimeoutMs, min: 1000 },
    { name: "complete", type: "boolean", help: "run the whole suite against every defect, not only until its own rule fails (slower)" },
    { name: "report-dir", type: "string", value: "DIR", help: "where mutation.json and mutation.html go (default: reports/mutation)" },
    { name: "json", type: "boolean", help: "print mutation.json on stdout; progress and table go to stderr" },
  ],
  examples: ["cpsim mutation", "cpsim mutation --defect 'pods.*' --conventions 1,2,3,4,5", "cpsim mutation --defect 'ratelimit*' --workers 4", "cpsim mutation --defect 'pods.create.*' --json > mutation.json"],
};

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(spec, argv);
  if (parsed.help) {
    io.stdout(renderHelp(spec));
    return 0;
  }
  const f = parsed.flags;
  const familyWords = [...((f.conventions as string[] | undefined) ?? []), ...((f.family as string[] | undefined) ?? [])].flatMap((v) => v.split(",")).map((v) => v.trim());
  const badFamily = familyWords.find((v) => !/^\d+$/.test(v));
  if (badFamily !== undefined) throw new UsageError(`--conventions takes seeds, whole numbers from 1 (repeat it or separate them with commas), got ${JSON.stringify(badFamily)}`, "mutation");
  try {
    const result = await mutation(
      {
        defects: (f.defect as string[] | undefined) ?? [],
        workers: f.workers as number,
        seed: f.seed as number,
        profile: f.profile as "strict" | "lenient",
        runTimeoutMs: f["run-timeout-ms"] as number,
        reportDir: f["report-dir"] as string | undefined,
        json: f.json === true,
        complete: f.complete === true,
        families: familyWords.map(Number),
      },
      io,
      process.stdout.columns ?? 160,
    );
    return result.exitCode;
  } catch (err) {
    if (err instanceof MutationConfigError) throw new UsageError(err.message, "mutation");
    throw err;
  }
}
