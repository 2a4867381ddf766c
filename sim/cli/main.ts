/**
 * The command table: `cpsim COMMAND ...` loads COMMAND's cli.ts (which sits beside its library)
 * and runs it. Nothing else lives here: parsing belongs to each command.
 */
import { packageVersion } from "../package-root.ts";
import { UsageError, processIo, type CliIo, type CommandModule } from "./args.ts";

interface CommandEntry {
  readonly summary: string;
  readonly load: () => Promise<CommandModule>;
}

export const commands: Record<string, CommandEntry> = {
  simulate: { summary: "one seeded run of the whole platform (pods, jobs, stock) with its event-log hash, for reproducing a run", load: () => import("../plan/simulate-cli.ts") },
  plan: { summary: "capacity planning: seeded what-if runs with 95% intervals, sweeps, --find, shards", load: () => import("../plan/cli.ts") },
  serve: { summary: "serve the simulated platform over HTTP (REST v2, GraphQL, job endpoints)", load: () => import("../http/cli.ts") },
  handler: { summary: "run a job handler (JS/TS or Python) locally: once on a test input, or behind the local test server", load: () => import("../http/local-server/cli.ts") },
  rules: { summary: "print the rule catalog: each rule's id, sentence, section and readings", load: () => import("../api/rules/cli.ts") },
  conform: { summary: "check an implementation of the API against the specification, rule by rule", load: () => import("../../conformance/cli.ts") },
  load: { summary: "run load scenarios (payload limits, streams, rate limits) with autocannon, or export them as k6 scripts", load: () => import("../../load/cli.ts") },
  proxy: { summary: "a transparent proxy that judges live traffic between any client and any target, on both sides", load: () => import("../../conformance/proxy/cli.ts") },
  mutation: { summary: "score the conformance suite: run it against the emulator with each documented defect", load: () => import("../../conformance/mutation/cli.ts") },
};

export function version(): string {
  return packageVersion();
}

export function topLevelHelp(): string {
  const names = Object.keys(commands);
  const width = Math.max(12, ...names.map((n) => n.length + 2));
  const lines = [
    "cpsim: a seeded simulator, emulator and conformance suite for a GPU compute platform API",
    "",
    "Usage: cpsim COMMAND [options]",
    "       cpsim COMMAND --help    (or: cpsim help COMMAND)",
    "",
    "Commands:",
    ...names.map((n) => `  ${n.padEnd(width)} ${commands[n].summary}`),
    "",
    "Options:",
    `  ${"--help, -h".padEnd(width)} Show this help`,
    `  ${"--version".padEnd(width)} Print the version`,
    "",
    "Exit codes (each command's --help says what they mean for it):",
    "  0   success",
    "  1   failures found (a rule failed, a check regressed, a defect escaped, a handler failed)",
    "  2   usage or configuration error",
    "  70  internal error (a bug in cpsim; it prints the stack to report)",
  ];
  return lines.join("\n") + "\n";
}

/** Runs the CLI and returns the exit code; never throws. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    // No command is a usage error: the help goes to stderr with exit 2.
    io.stderr(topLevelHelp());
    return 2;
  }
  if (first === "help" && rest.length > 0) {
    // `cpsim help COMMAND` is `cpsim COMMAND --help`.
    const [name, ...extra] = rest;
    if (extra.length > 0 || commands[name] === undefined) {
      io.stderr(`cpsim help: ${commands[name] === undefined ? `unknown command "${name}"` : `unexpected argument "${extra[0]}"`}; the commands are ${Object.keys(commands).join(", ")}\n`);
      return 2;
    }
    return main([name, "--help"], io);
  }
  if ((first === "--help" || first === "-h" || first === "--version" || first === "-v") && rest.length > 0) {
    io.stderr(`cpsim: ${first} takes no argument, got "${rest[0]}"; for one command's help: cpsim COMMAND --help\n`);
    return 2;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    io.stdout(topLevelHelp());
    return 0;
  }
  if (first === "--version" || first === "-v") {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const entry = commands[first];
  if (!entry) {
    const what = first.startsWith("-") ? `unknown option "${first}"` : `unknown command "${first}"`;
    io.stderr(`cpsim: ${what}; run "cpsim --help" for the commands\n`);
    return 2;
  }
  try {
    const mod = await entry.load();
    return await mod.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`cpsim ${first}: ${err.message}\n`);
      return 2;
    }
    const e = err as { code?: string; message?: string; exitCode?: number };
    if (typeof e?.code === "string" && e.code.startsWith("CPSIM_ERR_")) {
      io.stderr(`cpsim ${first}: ${e.message}\n`);
      return typeof e.exitCode === "number" ? e.exitCode : 2;
    }
    io.stderr(`cpsim ${first}: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    return 70;
  }
}
