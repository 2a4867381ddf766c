/**
 * Runs the handler program the local-server rules are about (`--local-command`, default
 * `cpsim handler`) on a copy of `--local-handler` in a fresh temporary directory, which is also its
 * working directory: `test_input.json` is then both next to the handler (cpsim) and in the working
 * directory (the platform SDK). Every run is bounded in time and killed by its pid when over.
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parse } from "shell-quote";
import { packagePath } from "../../sim/package-root.ts";

const CPSIM_BIN = packagePath("bin", "cpsim.js");
/** Output kept from one run (a limit on everything). */
const MAX_OUTPUT_CHARS = 1_000_000;

export interface LocalRun {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** The command line, for the report. */
  readonly commandLine: string;
}

/** The command's words: `--local-command` split like a shell would, or this cpsim's `handler` command. */
export function commandWords(localCommand: string | undefined): string[] {
  if (localCommand === undefined) return [process.execPath, CPSIM_BIN, "handler"];
  const words = parse(localCommand).filter((w): w is string => typeof w === "string");
  if (words.length === 0) throw new Error(`--local-command "${localCommand}" names no program`);
  return words;
}

/** A temporary directory holding a copy of the handler (and test_input.json when given). */
export function handlerDir(handler: string, testInput?: unknown): { dir: string; file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-local-"));
  const file = join(dir, basename(handler));
  copyFileSync(handler, file);
  if (testInput !== undefined) writeFileSync(join(dir, "test_input.json"), JSON.stringify(testInput));
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function runLocal(words: readonly string[], args: readonly string[], cwd: string, timeoutMs: number): Promise<LocalRun> {
  const [program, ...rest] = words;
  const all = [...rest, ...args];
  return new Promise((resolve) => {
    const child = spawn(program, all, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (d: Buffer) => {
      if (stdout.length < MAX_OUTPUT_CHARS) stdout += d.toString("utf8");
    });
    child.stderr.on("data", (d: Buffer) => {
      if (stderr.length < MAX_OUTPUT_CHARS) stderr += d.toString("utf8");
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    const commandLine = [program, ...all].map((w) => (/^[\w./:=-]+$/.test(w) ? w : JSON.stringify(w))).join(" ");
    child.on("error", (err) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stdout, stderr: `${stderr}${err.message}`, timedOut, commandLine });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut, commandLine });
    });
  });
}

/** Starts the program as a server; `stop()` kills it by its pid and waits for it to end. */
export function startLocal(words: readonly string[], args: readonly string[], cwd: string): { stop(): Promise<void>; output(): string } {
  const [program, ...rest] = words;
  const child = spawn(program, [...rest, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const keep = (d: Buffer): void => {
    if (out.length < MAX_OUTPUT_CHARS) out += d.toString("utf8");
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  child.on("error", (err) => (out += err.message));
  const exited = new Promise<void>((r) => child.once("close", () => r()));
  return {
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
