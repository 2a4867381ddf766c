/**
 * `cpsim handler FILE`: a user's job handler (JavaScript/TypeScript or Python) run locally, with
 * the platform SDK's flags. Without `--rp_serve_api` it runs once on the test input; with it, it
 * serves the spec's local test server until SIGINT or SIGTERM.
 */
import { processStopSignals } from "../../cli/stop-signals.ts";
import { type CliIo, type CommandModule, type CommandSpec, UsageError, parseArgs, renderHelp } from "../../cli/args.ts";
import { HandlerLoadError, LOG_LEVELS, type LogLevel, MAX_CONCURRENCY, loadHandler } from "../../handler/index.ts";
import { PortInUseError } from "../errors.ts";
import { type LocalServerHandle, defaultLocalServerOptions, startLocalServer } from "./local-server.ts";
import { runOnce } from "./run-once.ts";

export const spec: CommandSpec = {
  name: "handler",
  summary: "run a job handler locally: once on a test input, or behind the spec's local test server",
  usage: "cpsim handler FILE [--test_input JSON] [--rp_serve_api [--rp_api_port N] [--rp_api_host H] [--rp_api_concurrency N]] [--rp_log_level L] [--rp_debugger]",
  description:
    "FILE is a JavaScript/TypeScript module whose default export is the handler (a function of the job {id, input},\n" +
    "or an async generator function for a streaming handler), or a .py file defining handler(job) (a function or a\n" +
    "generator), run by python3 (no packages needed). FILE:NAME runs the function NAME instead.\n" +
    "A .ts, .mts, .cts, .js, .mjs or .cjs file loads wherever it is kept, with or without a package.json, written\n" +
    "as an ES module (export default) or CommonJS (module.exports = handler); TypeScript needs no build step.\n" +
    "Without --rp_serve_api: runs once on --test_input, else on test_input.json next to FILE; prints the job;\n" +
    "exit 0 when it completes, 1 when the handler fails or the input is missing or invalid (not {\"input\": {...}},\n" +
    "which the local server answers with 422), 2 on a usage error or a handler file that does not load.\n" +
    "With --rp_serve_api: POST /runsync runs the handler; POST /run stores a job (id test-<uuid>) and runs nothing;\n" +
    "POST /status/{id} runs a stored job once; GET|POST /stream/{id} runs it and answers its outputs (generators).",
  positionals: [{ name: "FILE", help: "the handler file (.ts, .mts, .cts, .js, .mjs, .cjs or .py), or FILE:NAME for another function of it", required: true }],
  flags: [
    { name: "test_input", type: "string", value: "JSON", help: "Test job as inline JSON, e.g. '{\"input\": {\"prompt\": \"hi\"}}'; overrides test_input.json" },
    { name: "rp_serve_api", type: "boolean", help: "Start the local test server instead of running once" },
    { name: "rp_api_port", type: "integer", value: "N", help: "Port of the local server; 0 picks a free one and prints it", default: defaultLocalServerOptions.port, min: 0, max: 65535 },
    { name: "rp_api_host", type: "string", value: "HOST", help: "Host of the local server; 0.0.0.0 accepts connections from other devices", default: defaultLocalServerOptions.host },
    { name: "rp_api_concurrency", type: "integer", value: "N", help: "Jobs at once: worker threads (JS) or python3 processes", default: 1, min: 1, max: MAX_CONCURRENCY },
    { name: "rp_log_level", type: "enum", choices: LOG_LEVELS, help: "Log lines shown on stderr: ERROR, WARN, INFO or DEBUG", default: "INFO" },
    { name: "rp_debugger", type: "boolean", help: "Per-job timing in answers (rp_debugger) and debug output" },
    { name: "execution_timeout", type: "integer", value: "MS", help: "A job running longer is stopped and fails", default: defaultLocalServerOptions.executionTimeoutMs, min: 1, max: 7 * 24 * 3600 * 1000 },
    { name: "json", type: "boolean", help: "With --rp_serve_api: print {\"url\"} as the first line of stdout" },
  ],
  examples: [
    "cpsim handler fixtures/handlers/echo.py --test_input '{\"input\": {\"hello\": \"world\"}}'",
    "cpsim handler fixtures/handlers/stream-text.mjs --rp_serve_api --rp_api_port 0",
    "curl -s localhost:8000/runsync -H 'content-type: application/json' -d '{\"input\": {\"text\": \"a b\"}}'",
  ],
  exitCodes: [
    [0, "the job completed (with --rp_serve_api: the server stopped by SIGINT or SIGTERM)"],
    [1, "the handler failed or timed out, or the test input is missing or not {\"input\": {...}}"],
    [2, "usage error, a handler file that does not load, or a port in use"],
  ],
};

export interface HandlerDeps {
  readonly onStopSignal?: (stop: () => void) => () => void;
  readonly onListening?: (server: LocalServerHandle) => void;
}

export function createHandlerCommand(deps: HandlerDeps = {}): CommandModule {
  return {
    spec,
    async run(argv: readonly string[], io: CliIo): Promise<number> {
      const parsed = parseArgs(spec, argv);
      if (parsed.help) {
        io.stdout(renderHelp(spec));
        return 0;
      }
      const file = parsed.positionals[0];
      const f = parsed.flags;
      const serve = f.rp_serve_api === true;
      if (!serve && f.json === true) throw new UsageError("--json needs --rp_serve_api", "handler");
      const threshold = LOG_LEVELS.indexOf(f.rp_debugger === true ? "DEBUG" : (f.rp_log_level as LogLevel));
      const log = (level: LogLevel, message: string): void => {
        if (LOG_LEVELS.indexOf(level) <= threshold) io.stderr(`${level.padEnd(5)} | ${message}\n`);
      };
      let runtime;
      try {
        runtime = await loadHandler(file, { concurrency: f.rp_api_concurrency as number, log });
      } catch (err) {
        if (err instanceof HandlerLoadError) {
          io.stderr(`cpsim handler: ${err.message}\n`);
          return 2;
        }
        throw err;
      }
      const timeoutMs = f.execution_timeout as number;
      if (!serve) {
        try {
          const r = await runOnce(runtime, f.test_input as string | undefined, timeoutMs);
          if (r.job !== undefined) io.stdout(`${JSON.stringify(r.job)}\n`);
          if (r.message !== undefined) io.stderr(`cpsim handler: ${r.message}\n`);
          return r.exitCode;
        } finally {
          await runtime.close();
        }
      }
      let server: LocalServerHandle;
      try {
        server = await startLocalServer(runtime, {
          host: f.rp_api_host as string,
          port: f.rp_api_port as number,
          executionTimeoutMs: timeoutMs,
          debugger: f.rp_debugger === true,
          log,
        });
      } catch (err) {
        await runtime.close();
        if (err instanceof PortInUseError) {
          io.stderr(`cpsim handler: port ${err.port} on ${err.host} is already in use; pick another with --rp_api_port, or --rp_api_port 0 for a free one\n`);
          return 2;
        }
        throw err;
      }
      // The stop signals are handled before the server says it listens: a script that stops it as
      // soon as that line appears must see it stop gracefully, not die of the signal's default action.
      const stopped = new Promise<void>((resolve) => {
        const remove = (deps.onStopSignal ?? processStopSignals)(() => {
          remove();
          resolve();
        });
      });
      if (f.json === true) io.stdout(`${JSON.stringify({ url: server.url, port: server.port, handler: file, generator: runtime.generator, concurrency: runtime.concurrency, pid: process.pid })}\n`);
      else {
        io.stdout(
          `cpsim handler: serving ${file} (${runtime.language}${runtime.generator ? ", generator" : ""}, concurrency ${runtime.concurrency}) on ${server.url}\n` +
            `  POST ${server.url}/runsync  {"input": {...}}   runs the handler\n` +
            `  POST ${server.url}/run      {"input": {...}}   stores a job; POST /status/{id} or /stream/{id} runs it\n` +
            "  Ctrl+C stops.\n",
        );
      }
      deps.onListening?.(server);
      await stopped;
      await server.close();
      await runtime.close();
      io.stderr("cpsim handler: stopped\n");
      return 0;
    },
  };
}

const command = createHandlerCommand();
export const run = command.run;
