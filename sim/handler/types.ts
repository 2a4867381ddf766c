/**
 * A user's job handler, loaded for real (a JavaScript/TypeScript module in worker threads, or a
 * Python file in python3 processes), behind one small interface that both cpsim's local test
 * server and the emulator's `--handler` endpoints use.
 */

/** What a handler is given: the platform's job shape. */
export interface HandlerJob {
  readonly id: string;
  readonly input: unknown;
}

/** How one execution ended. `stopped`: cpsim stopped it (cancel, timeout, close). */
export type HandlerOutcome =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly error: string; readonly crashed?: boolean; readonly stopped?: boolean };

export interface Execution {
  /** Settles once; never rejects. */
  readonly result: Promise<HandlerOutcome>;
  /** Stops the handler now (its thread or process is ended and replaced); the result is `stopped`. Idempotent. */
  stop(): void;
}

export type LogLevel = "ERROR" | "WARN" | "INFO" | "DEBUG";
export const LOG_LEVELS: readonly LogLevel[] = ["ERROR", "WARN", "INFO", "DEBUG"];
export type HandlerLog = (level: LogLevel, message: string) => void;

export interface HandlerRuntime {
  readonly file: string;
  readonly language: "javascript" | "python";
  /** Declared as a generator (async generator function / Python generator function). */
  readonly generator: boolean;
  /** Jobs that may run at once; more wait in order. */
  readonly concurrency: number;
  /** Runs one job; `onChunk` receives each output a streaming handler yields, in order. */
  run(job: HandlerJob, onChunk?: (output: unknown) => void): Execution;
  /** Executions running now (for tests and health). */
  readonly running: number;
  /** Stops every execution and ends every thread or process. */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** The function to run: a named export (JS) or a module-level function (Python); default: the default export / `handler`. */
  readonly exportName?: string;
  /** Jobs at once: worker threads or Python processes (default 1). */
  readonly concurrency?: number;
  /** An idle thread or process ends after this long (default: kept until close). */
  readonly idleTimeoutMs?: number;
  /** Lines the handler logs (its console / stderr) and cpsim's own notes about it. */
  readonly log?: HandlerLog;
  /** Python interpreter (default "python3"). */
  readonly python?: string;
  /** Largest output, in bytes of JSON, one job or chunk may return (default 64 MiB). */
  readonly maxOutputBytes?: number;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
