/**
 * Python handlers: a `.py` file defining `handler(job)` (a function, a generator, or their async
 * forms), run by `python3 -u python/cpsim_runner.py FILE` over the JSON-lines protocol documented
 * in that file. Each process runs one job at a time; `concurrency` processes at most. A stopped job
 * kills its process; a process that dies mid-job fails the job; either way the next job that needs
 * a process starts a fresh one.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { HandlerLoadError } from "./handler-load-error.ts";
import { DEFAULT_MAX_OUTPUT_BYTES, type Execution, type HandlerJob, type HandlerLog, type HandlerOutcome, type HandlerRuntime, type RuntimeOptions } from "./types.ts";

const RUNNER = fileURLToPath(new URL("./python/cpsim_runner.py", import.meta.url));
/** Lines of a dead process's stderr quoted in the job's error. */
const STDERR_TAIL_LINES = 5;

type RunnerMessage =
  | { type: "ready"; generator: boolean }
  | { type: "fatal"; error: string }
  | { type: "chunk"; id: string; output: unknown }
  | { type: "result"; id: string; output: unknown }
  | { type: "error"; id: string; error: string; traceback?: string };

interface Pending {
  readonly job: HandlerJob;
  readonly onChunk?: (output: unknown) => void;
  readonly finish: (o: HandlerOutcome) => void;
  proc?: PythonProcess;
  done: boolean;
}

/** One python3 process and its protocol stream. */
class PythonProcess {
  readonly child: ChildProcessWithoutNullStreams;
  ready: Promise<{ generator: boolean }>;
  current: Pending | undefined;
  exited = false;
  idleTimer: NodeJS.Timeout | undefined;
  private readonly stderrTail: string[] = [];

  constructor(
    python: string,
    file: string,
    functionName: string | undefined,
    private readonly log: HandlerLog,
    maxLineBytes: number,
    private readonly onExit: (p: PythonProcess) => void,
  ) {
    this.child = spawn(python, ["-u", RUNNER, file, ...(functionName === undefined ? [] : [functionName])], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, PYTHONIOENCODING: "utf-8" } });
    let readyResolve!: (v: { generator: boolean }) => void;
    let readyReject!: (e: Error) => void;
    this.ready = new Promise((res, rej) => {
      readyResolve = res;
      readyReject = rej;
    });
    this.ready.catch(() => {});
    let started = false;
    this.child.on("error", (err) => {
      // python3 missing: spawn fails before any output.
      if (!started) readyReject(new Error(`cannot start ${python}: ${err.message}`));
    });
    const lines = createInterface({ input: this.child.stdout, crlfDelay: Infinity });
    lines.on("line", (line) => {
      if (line.length > maxLineBytes) {
        this.fail(`the handler's output is larger than ${maxLineBytes} bytes of JSON`);
        this.kill();
        return;
      }
      let m: RunnerMessage;
      try {
        m = JSON.parse(line) as RunnerMessage;
      } catch {
        this.log("WARN", `python runner: unreadable line: ${line.slice(0, 200)}`);
        return;
      }
      if (m.type === "ready") {
        started = true;
        readyResolve({ generator: m.generator });
      } else if (m.type === "fatal") {
        started = true;
        readyReject(new Error(m.error));
      } else if (this.current !== undefined && m.id === this.current.job.id) {
        const p = this.current;
        if (m.type === "chunk") p.onChunk?.(m.output);
        else if (m.type === "result") this.settle({ ok: true, output: m.output });
        else {
          if (m.traceback) this.log("DEBUG", m.traceback.trimEnd());
          this.settle({ ok: false, error: m.error });
        }
      }
    });
    createInterface({ input: this.child.stderr, crlfDelay: Infinity }).on("line", (line) => {
      this.stderrTail.push(line);
      if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
      this.log(levelOf(line), line);
    });
    this.child.on("exit", (code, signal) => {
      this.exited = true;
      if (this.idleTimer) clearTimeout(this.idleTimer);
      if (!started) readyReject(new Error(`python exited before loading the handler (code ${code}, signal ${signal})${this.tail()}`));
      const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
      if (this.current !== undefined) {
        this.log("ERROR", `handler process crashed on job ${this.current.job.id} (${how}); a new process starts for the next job`);
        this.settle({ ok: false, error: `the handler's process exited (${how})${this.tail()}`, crashed: true });
      }
      this.onExit(this);
    });
    this.child.stdin.on("error", () => {});
  }

  private tail(): string {
    return this.stderrTail.length === 0 ? "" : `: ${this.stderrTail.join(" | ")}`;
  }

  private fail(error: string): void {
    this.settle({ ok: false, error });
  }

  private settle(o: HandlerOutcome): void {
    const p = this.current;
    this.current = undefined;
    if (p !== undefined) p.finish(o);
  }

  send(p: Pending): void {
    this.current = p;
    p.proc = this;
    this.child.stdin.write(`${JSON.stringify({ type: "job", id: p.job.id, input: p.job.input })}\n`);
  }

  kill(): void {
    if (!this.exited) this.child.kill("SIGKILL");
  }
}

function levelOf(line: string): "ERROR" | "WARN" | "INFO" | "DEBUG" {
  if (/^(ERROR|CRITICAL|Traceback)/.test(line)) return "ERROR";
  if (/^WARN/.test(line)) return "WARN";
  if (/^DEBUG/.test(line)) return "DEBUG";
  return "INFO";
}

export async function loadPythonHandler(file: string, options: RuntimeOptions = {}): Promise<HandlerRuntime> {
  const path = resolve(file);
  if (!existsSync(path)) throw new HandlerLoadError(`${file}: no such file`, file);
  if (!statSync(path).isFile()) throw new HandlerLoadError(`${file}: not a file`, file);
  const python = options.python ?? "python3";
  const concurrency = options.concurrency ?? 1;
  const log = options.log ?? (() => {});
  const maxLine = (options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES) + 4096;
  const idle: PythonProcess[] = [];
  const all = new Set<PythonProcess>();
  const queue: Pending[] = [];
  let closed = false;
  let running = 0;

  const onExit = (p: PythonProcess): void => {
    all.delete(p);
    const i = idle.indexOf(p);
    if (i >= 0) idle.splice(i, 1);
    pump();
  };
  const startProcess = (): PythonProcess => {
    const p = new PythonProcess(python, path, options.exportName, log, maxLine, onExit);
    all.add(p);
    return p;
  };

  // The first process proves the file loads; it then serves the first job.
  const first = startProcess();
  let generator: boolean;
  try {
    ({ generator } = await first.ready);
  } catch (err) {
    first.kill();
    const message = err instanceof Error ? err.message : String(err);
    throw new HandlerLoadError(message.startsWith(path) ? message.replace(path, file) : `${file}: ${message}`, file);
  }
  idle.push(first);

  function release(p: PythonProcess): void {
    if (p.exited || closed) return;
    idle.push(p);
    if (options.idleTimeoutMs !== undefined) {
      p.idleTimer = setTimeout(() => {
        const i = idle.indexOf(p);
        if (i >= 0) {
          idle.splice(i, 1);
          p.kill();
        }
      }, options.idleTimeoutMs);
      p.idleTimer.unref();
    }
  }

  function pump(): void {
    while (queue.length > 0 && !closed) {
      let p = idle.pop();
      if (p === undefined) {
        if (all.size >= concurrency) return;
        p = startProcess();
      }
      if (p.idleTimer) clearTimeout(p.idleTimer);
      const next = queue.shift() as Pending;
      const proc = p;
      proc.ready.then(
        () => {
          if (next.done) {
            release(proc);
            pump();
          } else if (!proc.exited) proc.send(next);
        },
        (err: Error) => next.finish({ ok: false, error: `the handler's process did not start: ${err.message}`, crashed: true }),
      );
    }
  }

  function run(job: HandlerJob, onChunk?: (output: unknown) => void): Execution {
    let settle!: (o: HandlerOutcome) => void;
    const result = new Promise<HandlerOutcome>((r) => (settle = r));
    running++;
    const pending: Pending = {
      job,
      onChunk,
      done: false,
      finish: (o) => {
        if (pending.done) return;
        pending.done = true;
        running--;
        const proc = pending.proc;
        if (proc !== undefined && proc.current === pending) proc.current = undefined;
        if (proc !== undefined && (o.ok || (o.crashed !== true && o.stopped !== true))) release(proc);
        settle(o);
        pump();
      },
    };
    const stop = (): void => {
      if (pending.done) return;
      const i = queue.indexOf(pending);
      if (i >= 0) queue.splice(i, 1);
      const proc = pending.proc;
      pending.finish({ ok: false, error: "the handler was stopped", stopped: true });
      // A Python thread cannot be interrupted safely: the process goes, a fresh one replaces it.
      proc?.kill();
    };
    if (closed) pending.finish({ ok: false, error: "the handler runtime is closed", stopped: true });
    else {
      queue.push(pending);
      pump();
    }
    return { result, stop };
  }

  return {
    file,
    language: "python",
    generator,
    concurrency,
    run,
    get running() {
      return running;
    },
    async close() {
      closed = true;
      for (const p of queue.splice(0)) p.finish({ ok: false, error: "the handler runtime is closed", stopped: true });
      const exits = [...all].map((p) => (p.exited ? Promise.resolve() : new Promise<void>((r) => p.child.once("exit", () => r()))));
      for (const p of all) {
        if (p.current !== undefined) p.current.finish({ ok: false, error: "the handler runtime is closed", stopped: true });
        p.kill();
      }
      await Promise.all(exits);
    },
  };
}
