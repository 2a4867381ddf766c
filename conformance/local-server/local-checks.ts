/**
 * The checks of the local test server's rules (sim/api/rules/local-server-rules.ts), with the
 * conformance handler deployed there. The HTTP rules need `--local-server URL`; the rules about
 * the program itself (its default address, test_input.json, exit codes) also need
 * `--local-handler FILE`, which the suite runs with `--local-command` (default: this cpsim's
 * `handler` command; `python` runs a platform SDK handler) in a temporary directory.
 */
import { createConnection } from "node:net";
import type { CheckContext, CheckOutcome } from "../check.ts";
import type { ClientResponse } from "../client.ts";
import { type LocalRun, commandWords, handlerDir, runLocal, startLocal } from "./run-local-command.ts";

/** A one-shot run of the handler program may take this long (python start, module load, job). */
const RUN_TIMEOUT_MS = 30_000;
/** `/run` must answer well before a job it would run could end. */
const RUN_SLEEP_MS = 3_000;
const DEFAULT_ADDRESS = { host: "localhost", port: 8000 };
const START_BUDGET_MS = 20_000;

function server(ctx: CheckContext): string | undefined {
  return ctx.options.localServer;
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

async function post(ctx: CheckContext, url: string, json: unknown): Promise<ClientResponse> {
  return ctx.client.request({ method: "POST", url, json });
}

function body(res: ClientResponse): Record<string, unknown> {
  return typeof res.json === "object" && res.json !== null ? (res.json as Record<string, unknown>) : {};
}

export async function checkLocalRunsync(ctx: CheckContext): Promise<CheckOutcome | void> {
  const url = server(ctx);
  if (url === undefined) return ctx.skip("needs --local-server URL");
  const input = { op: "echo", n: ctx.seed % 1000, text: "cpsim" };
  const ok = await post(ctx, `${url}/runsync`, { input });
  const b = body(ok);
  if (ok.status !== 200 || b.status !== "COMPLETED" || JSON.stringify(b.output) !== JSON.stringify(input)) {
    return ctx.fail({ expected: `200 {"status": "COMPLETED", "output": ${show(input)}} (the conformance handler echoes); got ${ok.status} ${show(ok.json)}` });
  }
  const message = `cpsim local runsync ${ctx.seed}`;
  const failed = await post(ctx, `${url}/runsync`, { input: { op: "fail", message } });
  const f = body(failed);
  if (failed.status !== 200 || f.status !== "FAILED" || typeof f.error !== "string" || !f.error.includes(message)) {
    return ctx.fail({ expected: `200 {"status": "FAILED", "error": "...${message}..."} for a handler that raises; got ${failed.status} ${show(failed.json)}` });
  }
  return ctx.pass();
}

export async function checkLocalRunPlaceholder(ctx: CheckContext): Promise<CheckOutcome | void> {
  const url = server(ctx);
  if (url === undefined) return ctx.skip("needs --local-server URL");
  const started = performance.now();
  const res = await post(ctx, `${url}/run`, { input: { op: "sleep", ms: RUN_SLEEP_MS } });
  const took = performance.now() - started;
  const b = body(res);
  const strict = ctx.options.profile === "strict";
  const problems: string[] = [];
  if (res.status !== 200) problems.push(`status ${res.status}`);
  if (typeof b.id !== "string" || b.id === "") problems.push(`no id string (${show(b.id)})`);
  if (strict && typeof b.id === "string" && !b.id.startsWith("test-")) problems.push(`id ${show(b.id)} is not "test-<uuid>" (docs/choices.md)`);
  if (strict && b.status !== "IN_PROGRESS") problems.push(`status ${show(b.status)}, not "IN_PROGRESS" (docs/choices.md)`);
  if (took >= RUN_SLEEP_MS) problems.push(`it answered after ${Math.round(took)} ms, as if it ran a job that sleeps ${RUN_SLEEP_MS} ms`);
  if (problems.length > 0) return ctx.fail({ expected: `an immediate 200 {"id": ..., "status": ...} that runs nothing; ${problems.join("; ")}` });
  return ctx.pass();
}

export async function checkLocalStatusRunsOnce(ctx: CheckContext): Promise<CheckOutcome | void> {
  const url = server(ctx);
  if (url === undefined) return ctx.skip("needs --local-server URL");
  const run = await post(ctx, `${url}/run`, { input: { op: "bytes", n: 5 } });
  const id = body(run).id;
  if (typeof id !== "string") return ctx.fail({ expected: `POST /run answers an id; got ${run.status} ${show(run.json)}` });
  const first = await post(ctx, `${url}/status/${encodeURIComponent(id)}`, {});
  const a = body(first);
  if (first.status !== 200 || a.status !== "COMPLETED" || a.output !== "abcde") {
    return ctx.fail({ expected: `the first /status/${id} runs the stored job: 200 {"status": "COMPLETED", "output": "abcde"}; got ${first.status} ${show(first.json)}`, sequence: [run.exchange] });
  }
  const second = await post(ctx, `${url}/status/${encodeURIComponent(id)}`, {});
  const b = body(second);
  if (b.status !== "FAILED" || b.error !== "Job ID not found") {
    return ctx.fail({ expected: `a second /status/${id}: {"status": "FAILED", "error": "Job ID not found"}; got ${second.status} ${show(second.json)}`, sequence: [run.exchange, first.exchange] });
  }
  return ctx.pass();
}

/** A failure about a program run: the evidence is the command line and what it printed, attached to the last request. */
async function processFailure(ctx: CheckContext, expected: string, r: LocalRun | undefined, url: string | undefined): Promise<CheckOutcome> {
  // Failures carry an HTTP exchange as evidence; the local server's answer to an empty runsync stands for the program.
  if (ctx.client.exchanges().length === 0 && url !== undefined) await post(ctx, `${url}/runsync`, { input: {} });
  const detail = r === undefined ? "" : `; ran ${r.commandLine}: exit ${r.code ?? r.signal}${r.timedOut ? " (killed after the time limit)" : ""}, stdout ${show(r.stdout.trim())}, stderr ${show(r.stderr.trim().slice(-500))}`;
  return ctx.fail({ expected: `${expected}${detail}` });
}

function localHandler(ctx: CheckContext): string | undefined {
  return ctx.options.localHandler;
}

export async function checkLocalTestInput(ctx: CheckContext): Promise<CheckOutcome | void> {
  const file = localHandler(ctx);
  if (file === undefined || server(ctx) === undefined) return ctx.skip("needs --local-server URL and --local-handler FILE");
  const words = commandWords(ctx.options.localCommand);
  const dir = handlerDir(file, { input: { op: "bytes", n: 3 } });
  try {
    const fromFile = await runLocal(words, [dir.file], dir.dir, RUN_TIMEOUT_MS);
    if (fromFile.code !== 0 || !fromFile.stdout.includes('"abc"')) {
      return processFailure(ctx, `run without flags, the handler takes test_input.json {"input": {"op": "bytes", "n": 3}} and prints "abc"`, fromFile, server(ctx));
    }
    const inline = await runLocal(words, [dir.file, "--test_input", JSON.stringify({ input: { op: "bytes", n: 7 } })], dir.dir, RUN_TIMEOUT_MS);
    if (inline.code !== 0 || !inline.stdout.includes('"abcdefg"')) {
      return processFailure(ctx, `--test_input '{"input": {"op": "bytes", "n": 7}}' overrides test_input.json: the output is "abcdefg"`, inline, server(ctx));
    }
  } finally {
    dir.remove();
  }
  return ctx.pass();
}

export async function checkLocalExitCode(ctx: CheckContext): Promise<CheckOutcome | void> {
  const file = localHandler(ctx);
  if (file === undefined || server(ctx) === undefined) return ctx.skip("needs --local-server URL and --local-handler FILE");
  const words = commandWords(ctx.options.localCommand);
  const withInput = (input: unknown) => ["--test_input", JSON.stringify({ input })];
  const dir = handlerDir(file);
  try {
    const ok = await runLocal(words, [dir.file, ...withInput({ op: "echo" })], dir.dir, RUN_TIMEOUT_MS);
    if (ok.code !== 0) return processFailure(ctx, "exit 0 when the handler succeeds", ok, server(ctx));
    const failing = await runLocal(words, [dir.file, ...withInput({ op: "fail", message: "cpsim exit code" })], dir.dir, RUN_TIMEOUT_MS);
    if (failing.code !== 1) return processFailure(ctx, "exit 1 when the handler raises", failing, server(ctx));
    const missing = await runLocal(words, [dir.file], dir.dir, RUN_TIMEOUT_MS);
    if (missing.code !== 1) return processFailure(ctx, "exit 1 when there is no test input (no --test_input, no test_input.json)", missing, server(ctx));
  } finally {
    dir.remove();
  }
  return ctx.pass();
}

function portInUse(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.setTimeout(1_000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
  });
}

export async function checkLocalDefaultAddress(ctx: CheckContext): Promise<CheckOutcome | void> {
  const file = localHandler(ctx);
  if (file === undefined || server(ctx) === undefined) return ctx.skip("needs --local-server URL and --local-handler FILE");
  const { host, port } = DEFAULT_ADDRESS;
  if (await portInUse(host, port)) return ctx.skip(`port ${port} on ${host} is taken by another program, so the default address cannot be tried`);
  const dir = handlerDir(file);
  const proc = startLocal(commandWords(ctx.options.localCommand), [dir.file, "--rp_serve_api"], dir.dir);
  const url = `http://${host}:${port}`;
  try {
    const deadline = performance.now() + START_BUDGET_MS;
    let last: ClientResponse | undefined;
    let lastError = "";
    while (performance.now() < deadline) {
      try {
        last = await post(ctx, `${url}/runsync`, { input: { op: "bytes", n: 2 } });
        break;
      } catch (err) {
        lastError = (err as Error).message;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const b = last === undefined ? {} : body(last);
    if (last === undefined || last.status !== 200 || b.output !== "ab") {
      const expected = `started with --rp_serve_api and no address flags, it serves ${url}: POST /runsync answers {"output": "ab"}`;
      if (last === undefined) {
        return processFailure(ctx, `${expected}; nothing answered within ${START_BUDGET_MS} ms (${lastError}); it printed ${show(proc.output().slice(-500))}`, undefined, server(ctx));
      }
      return ctx.fail({ expected: `${expected}; got ${last.status} ${show(last.json)}`, exchange: last.exchange });
    }
  } finally {
    await proc.stop();
    dir.remove();
  }
  return ctx.pass();
}
