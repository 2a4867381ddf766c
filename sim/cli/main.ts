/**
 * The command table: `cpsim COMMAND ...` loads COMMAND's cli.ts (which sits beside its library)
 * and runs it. Nothing else lives here: parsing belongs to each command.
 */
import { readFileSync } from "node:fs";
import { UsageError, processIo, type CliIo, type CommandModule } from "./args.ts";

interface CommandEntry {
  readonly summary: string;
  readonly load: () => Promise<CommandModule>;
}

export const commands: Record<string, CommandEntry> = {
  simulate: { summary: "run the platform model with a workload scenario and summarize it", load: () => import("../plan/simulate-cli.ts") },
  serve: { summary: "serve the simulated platform over HTTP (REST v2, GraphQL, job endpoints)", load: () => import("../http/cli.ts") },
  conform: { summary: "check an implementation of the API against the specification, rule by rule", load: () => import("../../conformance/cli.ts") },
  mutation: { summary: "score the conformance suite: run it against the emulator with each documented defect", load: () => import("../../mutation/cli.ts") },
};

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

export function topLevelHelp(): string {
  const names = Object.keys(commands);
  const width = Math.max(12, ...names.map((n) => n.length + 2));
  const lines = [
    "cpsim: a seeded simulator, emulator and conformance suite for a GPU compute platform API",
    "",
    "Usage: cpsim COMMAND [options]",
    "       cpsim COMMAND --help",
    "",
    "Commands:",
    ...names.map((n) => `  ${n.padEnd(width)} ${commands[n].summary}`),
    "",
    "Options:",
    `  ${"--help, -h".padEnd(width)} Show this help`,
    `  ${"--version".padEnd(width)} Print the version`,
    "",
    "Exit codes: 0 success, 1 failures found, 2 usage or configuration error.",
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
