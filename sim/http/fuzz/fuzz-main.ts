/**
 * `npm run fuzz [-- --requests N --seconds S --seed N --concurrency N]`: runs the emulator's
 * fuzzer in-process and prints `fuzz_requests=N fuzz_5xx=F crashes=C rss_growth_mb=M` last.
 * Exit 1 when F or C is above 0.
 */
import { type CommandSpec, parseArgs, processIo, renderHelp, UsageError } from "../../cli/args.ts";
import { defaultFuzzOptions, runFuzz } from "./run-fuzz.ts";

const spec: CommandSpec = {
  name: "fuzz",
  summary: "Fuzz the emulator: every OpenAPI operation and the GraphQL schema, valid, mutated, hostile and raw requests",
  usage: "npm run fuzz -- [--requests N] [--seconds S] [--seed N] [--concurrency N]",
  description: "Prints fuzz_requests=N fuzz_5xx=F crashes=C rss_growth_mb=M last; the target is F = 0 and C = 0.",
  flags: [
    { name: "requests", type: "integer", value: "N", help: "Requests to send", default: defaultFuzzOptions.requests, min: 1, max: 10_000_000 },
    { name: "seconds", type: "integer", value: "S", help: "Stop after this many seconds whatever the count", default: defaultFuzzOptions.seconds, min: 1, max: 86_400 },
    { name: "seed", type: "integer", value: "N", help: "Seed of the requests drawn and of the model", default: defaultFuzzOptions.seed, min: 0 },
    { name: "concurrency", type: "integer", value: "N", help: "Requests in flight at once", default: defaultFuzzOptions.concurrency, min: 1, max: 1024 },
  ],
  examples: ["npm run fuzz", "npm run fuzz -- --requests 5000 --seed 7"],
};

try {
  const parsed = parseArgs(spec, process.argv.slice(2));
  if (parsed.help) {
    processIo.stdout(renderHelp(spec));
  } else {
    const f = parsed.flags as { requests: number; seconds: number; seed: number; concurrency: number };
    processIo.stderr(`fuzz: seed ${f.seed}, ${f.requests} requests within ${f.seconds} s, ${f.concurrency} at once (reproduce with --seed ${f.seed})\n`);
    const r = await runFuzz({ ...f, log: (line) => processIo.stderr(`${line}\n`) });
    processIo.stderr(`fuzz: ${r.seconds.toFixed(1)} s; by kind ${JSON.stringify(r.byKind)}; ${r.stalls} requests without an answer in time\n`);
    processIo.stdout(`fuzz_requests=${r.requests} fuzz_5xx=${r.fiveXX} crashes=${r.crashes} rss_growth_mb=${r.rssGrowthMb}\n`);
    process.exitCode = r.fiveXX > 0 || r.crashes > 0 ? 1 : 0;
  }
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  processIo.stderr(`fuzz: ${err.message}\n`);
  process.exitCode = 2;
}
