/**
 * `cpsim serve`: the emulator as a command. A thin parser over `startEmulator`'s options; prints
 * where it listens and the API keys, then serves until SIGINT or SIGTERM and stops gracefully.
 * With `--json` the first line of stdout is one JSON object for scripts and CI.
 */
import { randomBytes } from "node:crypto";
import { processStopSignals } from "../cli/stop-signals.ts";
import { rmSync, statSync } from "node:fs";
import { type CliIo, type CommandModule, type CommandSpec, UsageError, parseArgs, renderHelp, reproduceCommand } from "../cli/args.ts";
import { loadCatalog } from "../catalog/index.ts";
import { HandlerLoadError, type HandlerRuntime, loadHandler } from "../handler/index.ts";
import { type Defect, UnknownDefectError, defectListJson, defectsNamed, renderDefectList } from "../defects/index.ts";
import type { BackendFactory } from "./backend.ts";
import { type HandlerSpec, parseHandlerSpec, withHandlerEndpoints } from "./handler-endpoints.ts";
import { workerEnvironment } from "./worker-environment.ts";
import { PlatformBackend } from "./platform-backend.ts";
import { type EmulatorHandle, startEmulator } from "./emulator.ts";
import { PortInUseError } from "./errors.ts";
import { JournalError } from "./state/state-journal.ts";
import { type ClockMode, type EmulatorOptions, MAX_SPEED, type RequestLogEntry, defaultOptions, isLoopbackHost } from "./options.ts";
import { writeReadyFile } from "../cli/ready-file.ts";
import { catalogUnder, ConventionsError, describeDifferences, EMULATOR_CONVENTIONS, modelUnder, parseConventionsArg } from "../conventions/index.ts";
import { ScenarioError } from "../plan/scenario.ts";
import { scenarioBackend } from "./scenario-backend.ts";

export const spec: CommandSpec = {
  name: "serve",
  summary: "serve the simulated platform over HTTP (REST v2, GraphQL, job endpoints)",
  usage: "cpsim serve [--port N] [--host ADDR] [--seed N] [--clock real|manual] [--speed X] [--no-control] [--control-token T|none] [--max-output-mb N] [--results-budget-mb N] [--state DIR] [--state-keep-prefix] [--state-compact-mb MB] [--fixtures DIR] [--handler ID=FILE]... [--worker-endpoint ID]... [--scenario FILE] [--defect NAME]... [--list-defects] [--conventions SEED|FILE|emulator] [--json] [--ready-file FILE] [--log]",
  description:
    "One port serves REST v2 and GraphQL ({base_url}) and the job endpoints ({serverless_url}/v2/{endpoint_id}/...).\n" +
    "The official SDKs take the serverless URL with /v2 appended as their base URL.\n" +
    "With --clock manual, virtual time moves only through POST /_sim/clock/advance {\"ms\": N}: a runsync call then waits\n" +
    "until the clock is advanced (or its wait runs out).\n" +
    "With --handler ID=FILE, jobs of endpoint ID run that handler for real; the clock is then real at speed 1 and the\n" +
    "control API is off (virtual time may not run ahead of real code).\n" +
    "With --worker-endpoint ID, jobs of endpoint ID wait for worker processes outside the emulator (the official\n" +
    "runpod.serverless worker, unmodified): the command prints the environment such a worker needs; same clock rules.\n" +
    "With --conventions SEED (or FILE, a JSON object naming a value per dimension) it answers with other conventions where\n" +
    "the spec is silent: list envelopes and pages, action routes, catalog and volume paths, id and time formats, open\n" +
    "statuses, member order, header spelling, extra members, where its description is, catalog field types, GPU types\n" +
    "in one cloud only, non-contiguous vCPU counts (docs/conventions.md lists them).\n" +
    "To run it in the background, give --ready-file FILE and wait for FILE to appear: it holds the --json object\n" +
    "and the server's pid, to stop it with (npx does not pass signals on).",
  flags: [
    { name: "port", type: "integer", value: "N", help: "Port to listen on; 0 picks a free one", default: defaultOptions.port, min: 0, max: 65535 },
    { name: "host", type: "string", value: "ADDR", help: "Address to bind (only this one); a non-loopback address exposes the emulator to the network", default: defaultOptions.host },
    { name: "seed", type: "integer", value: "N", help: "Seed of the model", default: defaultOptions.seed, min: 0 },
    { name: "clock", type: "enum", choices: ["real", "manual"], help: "real: virtual time follows the wall clock; manual: only the control API moves it", default: defaultOptions.clock },
    { name: "speed", type: "number", value: "X", help: "Virtual seconds per wall second (real clock)", default: defaultOptions.speed, max: MAX_SPEED },
    { name: "control", type: "boolean", help: "Serve the control API under /_sim/ (--no-control: those paths answer 404)", default: defaultOptions.control },
    { name: "fixtures", type: "string", value: "DIR", help: "Fixtures directory (catalogs, accounts, endpoints); the built-in ones by default" },
    { name: "defect", type: "string", value: "NAME", multiple: true, help: "Switch on a documented defect (see --list-defects); the emulator then breaks that rule of the spec on purpose" },
    {
      name: "conventions", type: "string", value: "SEED|FILE|emulator",
      help: "Answer with a point of the open-choice space: a seed draws one value per dimension (0 or \"emulator\": the emulator's own), a JSON file names them",
    },
    { name: "list-defects", type: "boolean", help: "Print every defect (name, area, the rule it breaks, its spec sentence) and exit; with --json as a JSON array" },
    { name: "json", type: "boolean", help: "Print one JSON object {baseUrl, serverlessUrl, apiKeys} as the first line of stdout" },
    { name: "control-token", type: "string", value: "TOKEN|none", help: "Token the control API requires in X-Cpsim-Control-Token; default a random one with --clock real, none with --clock manual" },
    { name: "state", type: "string", value: "DIR", help: "Keep the session in DIR (a journal of every accepted change, replayed on start; one server per DIR): pods and jobs survive a crash or restart" },
    { name: "state-compact-mb", type: "number", value: "MB", help: "With --state: fold the journal into a snapshot of the live state once it holds this many MB (and at least the snapshot's size), so restart time and disk use follow the state, not its history; 0: never (default 64)", min: 0, max: 65536 },
    { name: "state-keep-prefix", type: "boolean", help: "With --state: when a journal record is damaged, keep the records before it (the rest is copied aside) instead of refusing to start" },
    { name: "max-output-mb", type: "number", value: "MB", help: "Largest output kept for one job; a larger one FAILS its job with an error saying so", default: 16, min: 0.001, max: 4096 },
    { name: "results-budget-mb", type: "number", value: "MB", help: "Job inputs and outputs held at once; past it jobs FAIL (outputs) or run/runsync answer 503 (inputs)", default: 256, min: 0.001, max: 65536 },
    {
      name: "handler", type: "string", value: "ID=FILE", multiple: true,
      help: "Jobs sent to endpoint ID run this handler (JS/TS module or .py file; FILE:NAME for another function) for real, behind the model's queue and workers; a new ID is added, shared by every key",
    },
    {
      name: "worker-endpoint", type: "string", value: "ID", multiple: true,
      help: "Jobs sent to endpoint ID are taken by worker processes you start (runpod.serverless.start); prints the RUNPOD_WEBHOOK_* environment they need; a new ID is added, shared by every key",
    },
    { name: "ready-file", type: "string", value: "FILE", help: "Once listening, write that JSON object and the server's pid to FILE (complete when it appears; removed on stop)" },
    { name: "log", type: "boolean", help: "Print one line per request to stderr: time, method, target, status, duration" },
    {
      name: "scenario", type: "string", value: "FILE",
      help: "Apply a cpsim plan scenario's endpoints (workers, scaler, cold starts, run-time distributions), GPU supply and outside demand to the model; its workloads are not run",
    },
  ],
  examples: [
    "cpsim serve --port 8000",
    "cpsim serve --clock manual --seed 42 --json",
    "cpsim serve --clock manual --ready-file /tmp/cpsim.json &   # then: jq -r .baseUrl /tmp/cpsim.json",
    "cpsim serve --speed 60   # one virtual minute per second",
    "cpsim serve --state ./cpsim-state   # pods and jobs survive a restart",
    "cpsim serve --handler my-endpoint=handler.py --handler conformance=fixtures/handlers/conformance-handler.mjs",
    "cpsim serve --worker-endpoint my-worker   # then export the printed variables and run: python handler.py",
    "cpsim serve --defect create-accepts-empty-name --defect no-retry-after",
    "cpsim serve --clock manual --conventions 7   # another implementation's conventions, drawn from seed 7",
    "cpsim serve --scenario hidden-endpoint.json   # endpoints as a planning scenario sets them",
  ],
  exitCodes: [
    [0, "stopped by SIGINT or SIGTERM (or --list-defects printed)"],
    [2, "usage or configuration error: a port in use, a handler that does not load, a --state directory another process holds, an unwritable --ready-file"],
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
  const token = flags["control-token"] as string | undefined;
  if (token !== undefined && token !== "none" && !/^[\x21-\x7e]{8,256}$/.test(token)) {
    throw new UsageError(`--control-token must be 8 to 256 visible ASCII characters, or "none"`, "serve");
  }
  // A real clock serves people and their browsers: the control API is locked unless told otherwise.
  const controlToken = token === "none" ? undefined : (token ?? (flags.clock === "real" ? randomBytes(16).toString("hex") : undefined));
  const state = flags.state as string | undefined;
  if (state !== undefined && state.trim() === "") throw new UsageError("--state needs a directory", "serve");
  if (flags["state-keep-prefix"] === true && state === undefined) throw new UsageError("--state-keep-prefix needs --state DIR", "serve");
  const compactMb = flags["state-compact-mb"] as number | undefined;
  if (compactMb !== undefined && state === undefined) throw new UsageError("--state-compact-mb needs --state DIR", "serve");
  return {
    ...(compactMb !== undefined ? { stateCompactBytes: Math.round(compactMb * 1024 * 1024) } : {}),
    ...(state !== undefined ? { state } : {}),
    ...(flags["state-keep-prefix"] === true ? { stateKeepPrefix: true } : {}),
    controlToken,
    port: flags.port as number,
    host: flags.host as string,
    seed: flags.seed as number,
    clock: flags.clock as ClockMode,
    speed,
    control: flags.control as boolean,
    fixtures,
    memory: {
      maxOutputBytes: Math.round((flags["max-output-mb"] as number) * 1024 * 1024),
      resultsBudgetBytes: Math.round((flags["results-budget-mb"] as number) * 1024 * 1024),
    },
    ...(defectNames.length ? { defects: defectsOrUsage(defectNames) } : {}),
    ...conventionsOrUsage(flags.conventions as string | undefined, fixtures),
  };
}

/** `--conventions`: the point it names, and for unlisted-any-id the first account's volumes a new id stands for. */
function conventionsOrUsage(text: string | undefined, fixtures: string | undefined): Partial<EmulatorOptions> {
  if (text === undefined) return {};
  let conventions;
  try {
    conventions = parseConventionsArg(text).conventions;
  } catch (err) {
    if (err instanceof ConventionsError) throw new UsageError(err.message, "serve");
    throw err;
  }
  if (conventions === EMULATOR_CONVENTIONS) return {};
  if (conventions.volumes !== "unlisted-any-id") return { conventions };
  const catalog = loadCatalog(fixtures);
  const account = catalog.accounts[0]?.id;
  return { conventions, conventionVolumes: catalog.networkVolumes.filter((v) => v.accountId === account).map((v) => v.id) };
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
      const options: { -readonly [K in keyof EmulatorOptions]?: EmulatorOptions[K] } = optionsFromFlags(parsed.flags);
      if (options.defects?.length) {
        io.stderr(`cpsim serve: defects on, this emulator breaks the spec on purpose: ${options.defects.map((d) => `${d.name} (${d.rule})`).join(", ")}\n`);
      }
      if (parsed.flags.conventions !== undefined) {
        io.stderr(`cpsim serve: conventions ${parsed.flags.conventions}: ${describeDifferences(options.conventions ?? EMULATOR_CONVENTIONS)}\n`);
      }
      const host = options.host as string;
      if (!isLoopbackHost(host)) {
        io.stderr(
          `cpsim serve: warning: --host ${host} exposes the emulator, its fixed API keys` +
            `${options.control ? " and its control API" : ""} beyond this machine\n`,
        );
      }
      const specs = ((parsed.flags.handler as string[] | undefined) ?? []).map((text) => {
        try {
          return parseHandlerSpec(text);
        } catch (err) {
          throw new UsageError((err as Error).message, "serve");
        }
      });
      const workerEndpoints = (parsed.flags["worker-endpoint"] as string[] | undefined) ?? [];
      for (const id of workerEndpoints) {
        let parsedId: string;
        try {
          parsedId = parseHandlerSpec(`${id}=outside-workers`).endpointId;
        } catch (err) {
          throw new UsageError((err as Error).message.replace(`--handler ${id}=outside-workers: `, `--worker-endpoint ${id}: `), "serve");
        }
        // An id with "=" in it parses as a shorter id: it is no endpoint id at all.
        if (parsedId !== id) throw new UsageError(`--worker-endpoint ${id}: the endpoint id must be lowercase letters, digits, "." and "-", starting with a letter or digit`, "serve");
        if (specs.some((s) => s.endpointId === id)) throw new UsageError(`--worker-endpoint ${id}: that endpoint runs a --handler already; give it one or the other`, "serve");
      }
      for (const [flag, given] of [["--handler", specs.length > 0], ["--worker-endpoint", workerEndpoints.length > 0]] as const) {
        if (!given) continue;
        // Real code runs in wall time: virtual time may not jump ahead of it or stand still.
        if (options.clock === "manual") throw new UsageError(`${flag} runs real code in real time; it cannot be combined with --clock manual`, "serve");
        if (options.speed !== 1) throw new UsageError(`${flag} runs real code in real time; it cannot be combined with --speed`, "serve");
        options.control = false;
      }
      let runtimes: { endpointId: string; runtime: HandlerRuntime }[];
      let createBackend = deps.createBackend;
      const scenarioFile = parsed.flags.scenario as string | undefined;
      if (scenarioFile !== undefined) {
        if (specs.length > 0 || workerEndpoints.length > 0) throw new UsageError("--scenario applies a planning scenario's endpoints; it does not combine with --handler or --worker-endpoint", "serve");
        if (options.state !== undefined) throw new UsageError("--scenario does not combine with --state (a restart would not know the scenario)", "serve");
        try {
          createBackend ??= scenarioBackend(scenarioFile);
        } catch (err) {
          if (err instanceof ScenarioError) throw new UsageError(`--scenario: ${err.message}`, "serve");
          throw err;
        }
      }
      let platformBackend: PlatformBackend | undefined;
      try {
        const loaded = await loadHandlerRuntimes(specs, options.fixtures, io);
        runtimes = loaded.runtimes;
        if ((specs.length > 0 || workerEndpoints.length > 0) && createBackend === undefined) {
          createBackend = (o) => (platformBackend = new PlatformBackend({ ...o, catalog: options.conventions && loaded.catalog ? catalogUnder(options.conventions, loaded.catalog) : loaded.catalog, ...(options.conventions ? { model: modelUnder(options.conventions) } : {}), handlers: runtimes, workerEndpoints }));
        }
      } catch (err) {
        if (err instanceof HandlerLoadError) {
          io.stderr(`cpsim serve: ${err.message}\n`);
          return 2;
        }
        throw err;
      }
      const closeRuntimes = async (): Promise<void> => {
        await Promise.all(runtimes.map((r) => r.runtime.close()));
      };
      const readyFile = parsed.flags["ready-file"] as string | undefined;
      const onRequestDone = parsed.flags.log === true ? (e: RequestLogEntry) => io.stderr(logLine(e)) : undefined;
      let emulator: EmulatorHandle;
      try {
        emulator = await startEmulator({ ...options, createBackend, onRequestDone });
      } catch (err) {
        await closeRuntimes();
        if (err instanceof JournalError) {
          io.stderr(`cpsim serve: ${err.message}\n`);
          return 2;
        }
        if (err instanceof PortInUseError) {
          io.stderr(`cpsim serve: ${err.message}\n`);
          return 2;
        }
        throw err;
      }
      for (const warning of emulator.stateWarnings) io.stderr(`cpsim serve: warning: ${warning}\n`);
      const json = parsed.flags.json === true;
      const ready = {
        baseUrl: emulator.baseUrl,
        serverlessUrl: emulator.serverlessUrl,
        apiKeys: emulator.apiKeys.map((k) => ({ key: k.key, account: k.account, access: k.access })),
        ...(emulator.options.controlToken !== undefined ? { controlToken: emulator.options.controlToken } : {}),
        ...(emulator.options.conventions !== undefined ? { conventions: emulator.options.conventions } : {}),
        ...(runtimes.length > 0 ? { handlers: runtimes.map((r) => ({ endpointId: r.endpointId, file: r.runtime.file, language: r.runtime.language })) } : {}),
        ...(workerEndpoints.length > 0
          ? { workerEndpoints: workerEndpoints.map((id) => ({ endpointId: id, environment: workerEnvironment(emulator.baseUrl, id, platformBackend?.workers?.keyFor(id) ?? "") })) }
          : {}),
      };
      const readyLine = `${JSON.stringify(ready)}\n`;
      // The stop signals are handled before anything says the server is ready: a script that
      // stops it as soon as the --ready-file or the --json line appears must see it stop
      // gracefully (exit 0), not die of the signal's default action.
      let signals = 0;
      let removeSignals = () => {};
      const stopped = new Promise<void>((resolve) => {
        removeSignals = (deps.onStopSignal ?? processStopSignals)(() => {
          signals++;
          if (signals === 1) {
            io.stderr("cpsim serve: stopping; in-flight requests finish (signal again to drop them)\n");
            emulator.close().then(() => {
              removeSignals();
              resolve();
            }, resolve);
          } else {
            // A second signal: stop waiting for slow clients.
            emulator.forceClose();
          }
        });
      });
      if (readyFile !== undefined) {
        try {
          // With the pid: `npx` does not pass a signal on to the server, so a script stops it by pid.
          writeReadyFile(readyFile, `${JSON.stringify({ ...ready, pid: process.pid })}\n`);
        } catch (err) {
          removeSignals();
          await emulator.close();
          await closeRuntimes();
          io.stderr(`cpsim serve: cannot write --ready-file ${readyFile}: ${(err as Error).message}; give a path in a writable directory\n`);
          return 2;
        }
      }
      if (json) {
        io.stdout(readyLine);
      } else {
        io.stdout(banner(emulator, reproduceCommand(spec, parsed, { omit: REPRODUCE_OMITS, always: ["seed", "clock"] })));
        for (const r of runtimes) io.stdout(`  endpoint ${r.endpointId} runs ${r.runtime.file} (${r.runtime.language}, up to ${r.runtime.concurrency} at once)\n`);
        for (const w of ready.workerEndpoints ?? []) {
          io.stdout(`  endpoint ${w.endpointId} waits for your workers; start one with this environment (another RUNPOD_POD_ID per worker):\n`);
          for (const [name, value] of Object.entries(w.environment)) io.stdout(`    export ${name}='${value}'\n`);
        }
      }
      deps.onListening?.(emulator);

      await stopped;
      await closeRuntimes();
      if (readyFile !== undefined) rmSync(readyFile, { force: true });
      io.stderr("cpsim serve: stopped\n");
      return 0;
    },
  };
}

/**
 * Loads each `--handler` file with as many threads or processes as its endpoint has workers at
 * most, ending idle ones after the endpoint's idle timeout; a file that does not load stops the
 * command (HandlerLoadError, exit 2) after closing the ones already loaded.
 */
async function loadHandlerRuntimes(specs: readonly HandlerSpec[], fixtures: string | undefined, io: CliIo) {
  if (specs.length === 0) return { runtimes: [], catalog: undefined };
  let catalog;
  try {
    catalog = withHandlerEndpoints(loadCatalog(fixtures), specs);
  } catch (err) {
    throw new UsageError((err as Error).message, "serve");
  }
  const runtimes: { endpointId: string; runtime: HandlerRuntime }[] = [];
  try {
    for (const spec of specs) {
      const endpoint = catalog.endpoints.find((e) => e.id === spec.endpointId);
      const runtime = await loadHandler(spec.file, {
        concurrency: Math.min(endpoint?.workersMax ?? 1, 64),
        idleTimeoutMs: Math.max(endpoint?.idleTimeoutMs ?? 5000, 1000),
        log: (level, message) => {
          if (level !== "DEBUG") io.stderr(`[${spec.endpointId}] ${level.padEnd(5)} | ${message}\n`);
        },
      });
      runtimes.push({ endpointId: spec.endpointId, runtime });
    }
  } catch (err) {
    await Promise.all(runtimes.map((r) => r.runtime.close()));
    throw err;
  }
  return { runtimes, catalog };
}

/** One `--log` line; a key sent as `?api_key=` (GraphQL accepts that) is not written out. */
export function logLine(e: RequestLogEntry): string {
  const url = e.url.replace(/([?&]api_key=)[^&#]*/gi, "$1REDACTED");
  return `${new Date().toISOString()} ${e.method} ${url} ${e.status} ${e.ms.toFixed(1)}ms${e.finished ? "" : " (connection closed before the response ended)"}\n`;
}

/** Flags that do not shape what the emulator does: where it listens, what it prints, the secret. */
const REPRODUCE_OMITS = ["port", "host", "json", "log", "ready-file", "control-token", "list-defects"];

function banner(e: EmulatorHandle, reproduce: string): string {
  const o = e.options;
  const lines = [
    `cpsim serve: listening on ${e.baseUrl} (seed ${o.seed}, clock ${o.clock}${o.clock === "real" ? `, speed ${o.speed}` : ""}, control ${o.control ? "on" : "off"})`,
    `  base URL        ${e.baseUrl}        REST v2 (/v2/pods, /v2/catalog/...) and GraphQL (/graphql)`,
    `  serverless URL  ${e.serverlessUrl}        job endpoints (/v2/{endpoint_id}/run, ...); official SDKs: ${e.serverlessUrl}/v2`,
  ];
  if (o.control) lines.push(`  control API     ${e.baseUrl}/_sim/clock, POST /_sim/clock/advance {"ms": N}, POST /_sim/reset {"seed": N}`);
  if (o.control && o.controlToken !== undefined) lines.push(`  control token   ${o.controlToken}   (header X-Cpsim-Control-Token; --control-token none drops it)`);
  if (o.state !== undefined) lines.push(`  state           ${o.state} (journal of accepted changes, replayed on start)`);
  lines.push("  API keys:");
  const width = Math.max(...e.apiKeys.map((k) => k.key.length), 3);
  for (const k of e.apiKeys) lines.push(`    ${k.key.padEnd(width)}  ${k.access.padEnd(9)}  account ${k.account}`);
  lines.push(`  reproduce with: ${reproduce}`, "  Ctrl+C stops.");
  return lines.join("\n") + "\n";
}

const command = createServeCommand();
export const run = command.run;
