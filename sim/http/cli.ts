/**
 * `cpsim serve`: the emulator as a command. A thin parser over `startEmulator`'s options; prints
 * where it listens and the API keys, then serves until SIGINT or SIGTERM and stops gracefully.
 * With `--json` the first line of stdout is one JSON object for scripts and CI.
 */
import { statSync } from "node:fs";
import { type CliIo, type CommandModule, type CommandSpec, UsageError, parseArgs, renderHelp } from "../cli/args.ts";
import { type Defect, UnknownDefectError, defectListJson, defectsNamed, renderDefectList } from "../defects/index.ts";
import type { BackendFactory } from "./backend.ts";
import { type EmulatorHandle, startEmulator } from "./emulator.ts";
import { PortInUseError } from "./errors.ts";
import { type ClockMode, type EmulatorOptions, MAX_SPEED, defaultOptions, isLoopbackHost } from "./options.ts";

export const spec: CommandSpec = {
  name: "serve",
  summary: "Serve the simulated platform over HTTP (REST v2, GraphQL, job endpoints)",
  usage: "cpsim serve [--port N] [--host ADDR] [--seed N] [--clock real|manual] [--speed X] [--no-control] [--fixtures DIR] [--defect NAME]... [--list-defects] [--json]",
  description:
    "One port serves REST v2 and GraphQL ({base_url}) and the job endpoints ({serverless_url}/v2/{endpoint_id}/...).\n" +
    "The official SDKs take the serverless URL with /v2 appended as their base URL.\n" +
    "With --clock manual, virtual time moves only through POST /_sim/clock/advance {\"ms\": N}.",
  flags: [
    { name: "port", type: "integer", value: "N", help: "Port to listen on; 0 picks a free one", default: defaultOptions.port, min: 0, max: 65535 },
    { name: "host", type: "string", value: "ADDR", help: "Address to bind (only this one); a non-loopback address exposes the emulator to the network", default: defaultOptions.host },
    { name: "seed", type: "integer", value: "N", help: "Seed of the model", default: defaultOptions.seed, min: 0 },
    { name: "clock", type: "enum", choices: ["real", "manual"], help: "real: virtual time follows the wall clock; manual: only the control API moves it", default: defaultOptions.clock },
    { name: "speed", type: "number", value: "X", help: "Virtual seconds per wall second (real clock)", default: defaultOptions.speed, max: MAX_SPEED },
    { name: "control", type: "boolean", help: "Serve the control API under /_sim/ (--no-control: those paths answer 404)", default: defaultOptions.control },
    { name: "fixtures", type: "string", value: "DIR", help: "Fixtures directory (catalogs, accounts, endpoints); the built-in ones by default" },
    { name: "defect", type: "string", value: "NAME", multiple: true, help: "Switch on a documented defect (see --list-defects); the emulator then breaks that rule of the spec on purpose" },
    { name: "list-defects", type: "boolean", help: "Print every defect (name, area, the rule it breaks, its spec sentence) and exit; with --json as a JSON array" },
    { name: "json", type: "boolean", help: "Print one JSON object {baseUrl, serverlessUrl, apiKeys} as the first line of stdout" },
  ],
  examples: [
    "cpsim serve --port 8000",
    "cpsim serve --clock manual --seed 42 --json",
    "cpsim serve --speed 60   # one virtual minute per second",
    "cpsim serve --defect create-accepts-empty-name --defect no-retry-after",
  ],
};

export interface ServeDeps {
  /** Builds the backend; the platform model by default. */
  readonly createBackend?: BackendFactory;
  /**
   * Calls `stop` when the process is asked to stop; returns a function that removes the handlers.
   * The default listens for SIGINT and SIGTERM.
   */
  readonly onStopSignal?: (stop: () => void) => () => void;
  /** Called once the server listens (tests use it to reach the handle). */
  readonly onListening?: (emulator: EmulatorHandle) => void;
}

const processSignals = (stop: () => void): (() => void) => {
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return () => {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  };
};

/** Maps parsed flags onto the library's options object. */
export function optionsFromFlags(flags: Record<string, unknown>): Partial<EmulatorOptions> {
  const speed = flags.speed as number;
  if (!(speed > 0)) throw new UsageError(`--speed must be above 0, got ${speed}`, "serve");
  const defectNames = (flags.defect as string[] | undefined) ?? [];
  const fixtures = flags.fixtures as string | undefined;
  if (fixtures !== undefined) {
    let isDir = false;
    try {
      isDir = statSync(fixtures).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) throw new UsageError(`--fixtures ${fixtures} is not a directory`, "serve");
  }
  return {
    port: flags.port as number,
    host: flags.host as string,
    seed: flags.seed as number,
    clock: flags.clock as ClockMode,
    speed,
    control: flags.control as boolean,
    fixtures,
    ...(defectNames.length ? { defects: defectsOrUsage(defectNames) } : {}),
  };
}

function defectsOrUsage(names: readonly string[]): Defect[] {
  try {
    return defectsNamed(names);
  } catch (err) {
    if (err instanceof UnknownDefectError) throw new UsageError(`--defect: ${err.message}`, "serve");
    throw err;
  }
}

export function createServeCommand(deps: ServeDeps = {}): CommandModule {
  return {
    spec,
    async run(argv: readonly string[], io: CliIo): Promise<number> {
      const parsed = parseArgs(spec, argv);
      if (parsed.help) {
        io.stdout(renderHelp(spec));
        return 0;
      }
      if (parsed.flags["list-defects"] === true) {
        io.stdout(parsed.flags.json === true ? `${JSON.stringify(defectListJson())}\n` : renderDefectList());
        return 0;
      }
      const options = optionsFromFlags(parsed.flags);
      if (options.defects?.length) {
        io.stderr(`cpsim serve: defects on, this emulator breaks the spec on purpose: ${options.defects.map((d) => `${d.name} (${d.rule})`).join(", ")}\n`);
      }
      const host = options.host as string;
      if (!isLoopbackHost(host)) {
        io.stderr(
          `cpsim serve: warning: --host ${host} exposes the emulator, its fixed API keys` +
            `${options.control ? " and its control API" : ""} beyond this machine\n`,
        );
      }
      let emulator: EmulatorHandle;
      try {
        emulator = await startEmulator({ ...options, createBackend: deps.createBackend });
      } catch (err) {
        if (err instanceof PortInUseError) {
          io.stderr(`cpsim serve: ${err.message}\n`);
          return 2;
        }
        throw err;
      }
      const json = parsed.flags.json === true;
      if (json) {
        io.stdout(
          `${JSON.stringify({
            baseUrl: emulator.baseUrl,
            serverlessUrl: emulator.serverlessUrl,
            apiKeys: emulator.apiKeys.map((k) => ({ key: k.key, account: k.account, access: k.access })),
          })}\n`,
        );
      } else {
        io.stdout(banner(emulator));
      }
      deps.onListening?.(emulator);

      let signals = 0;
      await new Promise<void>((resolve) => {
        const remove = (deps.onStopSignal ?? processSignals)(() => {
          signals++;
          if (signals === 1) {
            io.stderr("cpsim serve: stopping; in-flight requests finish (signal again to drop them)\n");
            emulator.close().then(() => {
              remove();
              resolve();
            }, resolve);
          } else {
            // A second signal: stop waiting for slow clients.
            emulator.forceClose();
          }
        });
      });
      io.stderr("cpsim serve: stopped\n");
      return 0;
    },
  };
}

function banner(e: EmulatorHandle): string {
  const o = e.options;
  const lines = [
    `cpsim serve: listening on ${e.baseUrl} (seed ${o.seed}, clock ${o.clock}${o.clock === "real" ? `, speed ${o.speed}` : ""}, control ${o.control ? "on" : "off"})`,
    `  base URL        ${e.baseUrl}        REST v2 (/v2/pods, /v2/catalog/...) and GraphQL (/graphql)`,
    `  serverless URL  ${e.serverlessUrl}        job endpoints (/v2/{endpoint_id}/run, ...); official SDKs: ${e.serverlessUrl}/v2`,
  ];
  if (o.control) lines.push(`  control API     ${e.baseUrl}/_sim/clock, POST /_sim/clock/advance {"ms": N}, POST /_sim/reset {"seed": N}`);
  lines.push("  API keys:");
  const width = Math.max(...e.apiKeys.map((k) => k.key.length), 3);
  for (const k of e.apiKeys) lines.push(`    ${k.key.padEnd(width)}  ${k.access.padEnd(9)}  account ${k.account}`);
  lines.push(`  reproduce with: cpsim serve --seed ${o.seed}${o.clock === "manual" ? " --clock manual" : ""}`, "  Ctrl+C stops.");
  return lines.join("\n") + "\n";
}

const command = createServeCommand();
export const run = command.run;
