/**
 * Helpers for the transport's tests (not a test file itself): an emulator over the TEST backend
 * on 127.0.0.1 port 0, JSON requests with undici, and raw-socket exchanges for what a well-behaved
 * client cannot send.
 */
import { spawn, spawnSync } from "node:child_process";
import { connect } from "node:net";
import { request } from "undici";
import type { EmulatorHandle } from "./emulator.ts";
import { startEmulator } from "./emulator.ts";
import type { EmulatorOptions } from "./options.ts";
import { TestBackend } from "./test-backend.ts";

export interface TestServer {
  readonly emulator: EmulatorHandle;
  readonly backend: TestBackend;
  readonly url: string;
  readonly port: number;
}

export async function startTestServer(options: Partial<EmulatorOptions> = {}): Promise<TestServer> {
  const backend = new TestBackend({ seed: options.seed ?? 1 });
  const emulator = await startEmulator({ clock: "manual", ...options, backend });
  return { emulator, backend, url: emulator.baseUrl, port: emulator.port };
}

export interface JsonResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The parsed body, or undefined when it was empty or not JSON. */
  readonly body: any;
}

export async function call(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; raw?: string | Buffer; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await request(base + path, { method: method as "GET", headers, body, signal: options.signal });
  const text = await res.body.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, body: parsed };
}

/**
 * Sends raw bytes on a fresh connection and collects what comes back until the server closes it
 * (or `timeoutMs`). `write` may push more bytes over time; it gets a function telling whether the
 * server has answered yet.
 */
export function rawExchange(
  port: number,
  write: (send: (data: string | Buffer) => boolean, answered: () => boolean) => Promise<void> | void,
  timeoutMs = 5_000,
): Promise<{ response: string; closed: boolean; elapsedMs: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect({ host: "127.0.0.1", port });
    const chunks: Buffer[] = [];
    let finished = false;
    const finish = (closed: boolean): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ response: Buffer.concat(chunks).toString("latin1"), closed, elapsedMs: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on("data", (d) => chunks.push(d));
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    socket.on("connect", () => {
      const send = (data: string | Buffer): boolean => (!socket.destroyed && socket.writable ? socket.write(data) : false);
      void Promise.resolve(write(send, () => chunks.length > 0)).catch(() => undefined);
    });
  });
}

/** The status code of the first response in a raw exchange. */
export function statusOf(response: string): number {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(response);
  return m ? Number(m[1]) : 0;
}

/** The body of the first response in a raw exchange, parsed as JSON. */
export function bodyOf(response: string): any {
  const i = response.indexOf("\r\n\r\n");
  try {
    return JSON.parse(response.slice(i + 4));
  } catch {
    return undefined;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Whether python3 here can import `module`, and why not (for a test's skip reason). */
export function pythonHas(module: string): { readonly ok: boolean; readonly why: string } {
  const probe = spawnSync("python3", ["-c", `import ${module}`], { encoding: "utf8" });
  return { ok: probe.status === 0, why: (probe.stderr || probe.error?.message || "").trim().split("\n").pop() ?? "" };
}

/**
 * Runs `python3 -c script args…`, killed after `timeoutMs` (a bound on a hang, not on speed: five
 * minutes, as a machine running two test suites took more than one); its exit status and output.
 */
export function runPython(script: string, args: readonly string[], timeoutMs = 300_000): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("python3", ["-c", script, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.on("close", (status: number | null) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
