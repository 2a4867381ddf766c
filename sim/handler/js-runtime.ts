/**
 * JavaScript and TypeScript handlers in worker threads (piscina): a module whose default export is
 * a function of the job returning a value or a promise, or an async generator function (a
 * streaming handler; a plain function returning an async iterator streams too). `concurrency`
 * threads run jobs at once; more wait in piscina's queue. A stopped job (cancel, timeout) aborts
 * its task, which ends its thread; a thread that dies (process.exit, an uncaught exception) fails
 * its job and piscina starts another.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { workerExecArgv } from "../package-root.ts";
import { HandlerLoadError } from "./handler-load-error.ts";
import { DEFAULT_MAX_OUTPUT_BYTES, type Execution, type HandlerJob, type HandlerOutcome, type HandlerRuntime, type LogLevel, type RuntimeOptions } from "./types.ts";

const THREAD_FILE = new URL("./js-thread.mjs", import.meta.url).href;

type ThreadMessage =
  | { type: "log"; level: LogLevel; text: string }
  | { type: "chunk"; json: string | undefined }
  | { type: "result"; json: string | undefined }
  | { type: "error"; error: string; stack?: string };

export async function loadJsHandler(file: string, options: RuntimeOptions = {}): Promise<HandlerRuntime> {
  const path = resolve(file);
  if (!existsSync(path)) throw new HandlerLoadError(`${file}: no such file`, file);
  if (!statSync(path).isFile()) throw new HandlerLoadError(`${file}: not a file`, file);
  const concurrency = options.concurrency ?? 1;
  const exportName = options.exportName;
  const log = options.log ?? (() => {});
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const pool = new Piscina({ execArgv: workerExecArgv(),
    filename: THREAD_FILE,
    minThreads: 0,
    maxThreads: concurrency,
    idleTimeout: options.idleTimeoutMs ?? 2 ** 31 - 1,
    concurrentTasksPerWorker: 1,
  });
  let generator: boolean;
  try {
    ({ generator } = (await pool.run({ file: path, exportName, probe: true })) as { generator: boolean });
  } catch (err) {
    await pool.destroy();
    const message = err instanceof Error ? err.message : String(err);
    throw new HandlerLoadError(message.startsWith(path) ? message.replace(path, file) : `${file}: does not load: ${message}`, file);
  }
  let running = 0;
  const live = new Set<() => void>();
  let closed = false;

  function run(job: HandlerJob, onChunk?: (output: unknown) => void): Execution {
    const abort = new AbortController();
    const { port1, port2 } = new MessageChannel();
    let settle!: (o: HandlerOutcome) => void;
    const result = new Promise<HandlerOutcome>((r) => (settle = r));
    let done = false;
    const finish = (o: HandlerOutcome): void => {
      if (done) return;
      done = true;
      running--;
      live.delete(stop);
      port1.close();
      settle(o);
    };
    const stop = (): void => {
      if (done) return;
      finish({ ok: false, error: "the handler was stopped", stopped: true });
      abort.abort();
    };
    if (closed) {
      running++;
      finish({ ok: false, error: "the handler runtime is closed", stopped: true });
      return { result, stop };
    }
    running++;
    live.add(stop);
    port1.on("message", (m: ThreadMessage) => {
      if (done) return;
      if (m.type === "log") log(m.level, m.text);
      else if (m.type === "chunk") onChunk?.(m.json === undefined ? null : JSON.parse(m.json));
      else if (m.type === "result") finish({ ok: true, output: m.json === undefined ? undefined : JSON.parse(m.json) });
      else {
        if (m.stack !== undefined) log("DEBUG", m.stack);
        finish({ ok: false, error: m.error });
      }
    });
    pool.run({ file: path, exportName, job: { id: job.id, input: job.input }, port: port2, maxOutputBytes }, { transferList: [port2], signal: abort.signal }).then(
      // The result travels on port1; the task's own resolution only says the thread is free.
      () => {},
      (err: unknown) => {
        if (done) return;
        const message = err instanceof Error ? err.message : String(err);
        log("ERROR", `handler thread crashed on job ${job.id}: ${message}`);
        finish({ ok: false, error: `the handler's worker thread crashed: ${message}`, crashed: true });
      },
    );
    return { result, stop };
  }

  return {
    file,
    language: "javascript",
    generator,
    concurrency,
    run,
    get running() {
      return running;
    },
    async close() {
      closed = true;
      for (const stop of [...live]) stop();
      await pool.destroy();
    },
  };
}
