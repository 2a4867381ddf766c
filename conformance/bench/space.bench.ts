/**
 * `npm run bench:space -- --seeds N`: the lenient suite across N seeds of the open-choice space
 * (1..N; sim/conventions/), each against the emulator answering with that seed's conventions
 * (manual clock), judged against a run on the emulator's own conventions (space-run.ts). Progress,
 * one line per seed (a failing one with the dimension values that broke it), on stderr; the last
 * line, on stdout:
 *   space_seeds=N false_failures=F judged_min=A judged_median=M wall_s_median=W
 * F counts the seeds with a failure, a target error or a rule judged on the emulator left unjudged
 * without a reason (target: 0). Exit 1 when F > 0.
 * Options: --seeds N (default 50) --from S (first seed, default 1) --workers W (default 2)
 */
import { runSpace, seedPassed } from "../mutation/space-run.ts";

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const v = Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(v) || v < 1) {
    process.stderr.write(`bench:space: --${name} takes a whole number from 1, got ${JSON.stringify(process.argv[at + 1])}\n`);
    process.exit(2);
  }
  return v;
}

const count = flag("seeds", 50);
const from = flag("from", 1);
const workers = flag("workers", 2);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : 0;
};
const seeds = Array.from({ length: count }, (_, i) => from + i);
process.stderr.write(`bench:space: seeds ${from}..${from + count - 1}, ${workers} worker(s)\n`);
const result = await runSpace({ seeds, workers, runTimeoutMs: 600_000 }, (line) => process.stderr.write(`${line}\n`));
const falseFailures = result.seeds.filter((v) => !seedPassed(v)).length + (seedPassed(result.reference) ? 0 : 1);
const judged = result.seeds.map((v) => v.judged);
process.stdout.write(
  `space_seeds=${count} false_failures=${falseFailures} judged_min=${Math.min(...judged)} judged_median=${median(judged)} wall_s_median=${(median(result.seeds.map((v) => v.wallTimeMs)) / 1000).toFixed(1)}\n`,
);
process.exitCode = falseFailures > 0 ? 1 : 0;
