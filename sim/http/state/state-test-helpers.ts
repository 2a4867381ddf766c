/**
 * Helpers for the --state tests (not a test file itself): requests with undici, a fresh
 * directory, and `cpsim serve --state` as a child process (ready when its --json line comes).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Test } from "tap";
import { request } from "undici";
import { JOURNAL_FILE } from "./state-journal.ts";

export const ALPHA = "Bearer cpsim_alpha_full_7f3a9c2e41b6d805";
export const BETA = "Bearer cpsim_beta_full_91d4e6a2c7b3f058";
export const LOAD = "Bearer cpsim_load_exempt_5b0e8d3a6c1f9247";

export async function send(base: string, method: string, path: string, key?: string, body?: unknown) {
  const res = await request(base + path, {
    method: method as "GET",
    headers: { ...(key ? { authorization: key } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, body: text === "" ? undefined : JSON.parse(text) };
}

export const pod = (name: string) => ({ name, image: "ubuntu:22.04", cpu: { id: "cpu3c", vcpuCount: 2 } });

export function stateDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-state-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The journal's records (their JSON), the start record first. */
export function journalLines(dir: string): Record<string, unknown>[] {
  return readFileSync(join(dir, JOURNAL_FILE), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l.slice(0, l.lastIndexOf("\t"))) as Record<string, unknown>);
}

export interface ServeChild {
  readonly child: ChildProcess;
  /** The base URL once ready; rejects with the exit code and stderr if it exits first. */
  readonly ready: Promise<string>;
  /** Exit code and everything on stderr, once it exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

export function serveChild(args: readonly string[]): ServeChild {
  const child = spawn(process.execPath, ["bin/cpsim.js", "serve", "--json", "--control-token", "none", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal, stderr })),
  );
  const ready = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (l) => resolve(JSON.parse(l).baseUrl));
    void exited.then((e) => reject(new Error(`serve exited ${e.code}: ${e.stderr}`)));
  });
  ready.catch(() => undefined);
  return { child, ready, exited };
}
