// `cpsim serve --handler ID=FILE`: users' handlers run for real behind the model's job API, on the
// real clock. The official JS client (runpod-sdk, unmodified) drives a JavaScript endpoint; a
// Python endpoint shows a crash, an execution timeout that stops the handler, and stream chunks
// of at most 1 MB; the command refuses bad --handler values and bad files with exit 2.
import runpodSdk from "runpod-sdk";
import t, { type Test } from "tap";
import { loadHandler, type HandlerRuntime } from "../handler/index.ts";
import { createServeCommand } from "./cli.ts";
import { startEmulator } from "./emulator.ts";
import { PlatformBackend } from "./platform-backend.ts";
import { call } from "./test-helpers.ts";

const KEY = "cpsim_alpha_full_7f3a9c2e41b6d805";
const auth = { authorization: `Bearer ${KEY}` };
const H = (name: string): string => `fixtures/handlers/${name}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A bound so that a state never reached fails rather than hangs; generous, as a busy machine is slow, not wrong.
async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, budgetMs = 120_000): Promise<T> {
  const end = performance.now() + budgetMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (performance.now() > end) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await sleep(50);
  }
}

async function serveHandlers(t: Test, handlers: Record<string, string>) {
  const runtimes: { endpointId: string; runtime: HandlerRuntime }[] = [];
  for (const [endpointId, file] of Object.entries(handlers)) runtimes.push({ endpointId, runtime: await loadHandler(file, { concurrency: 3 }) });
  const emulator = await startEmulator({ clock: "real", control: false, createBackend: (o) => new PlatformBackend({ ...o, handlers: runtimes }) });
  t.teardown(async () => {
    await emulator.close();
    await Promise.all(runtimes.map((r) => r.runtime.close()));
  });
  return { emulator, url: emulator.serverlessUrl, runtime: (id: string) => runtimes.find((r) => r.endpointId === id)!.runtime };
}

t.test("the official JS client against a JavaScript handler: run, runSync, stream, cancel, (raw) retry, health", async (t) => {
  const { url, runtime } = await serveHandlers(t, { "js-conformance": H("conformance-handler.mjs") });
  const log = console.log;
  console.log = () => undefined; // the SDK prints each poll
  t.teardown(() => {
    console.log = log;
  });
  const endpoint = runpodSdk(KEY, { baseUrl: `${url}/v2` }).endpoint("js-conformance");
  if (endpoint === null) throw new Error("no endpoint");

  const queued = await endpoint.run({ input: { op: "echo", n: 1 } });
  t.match(queued, { id: /^[0-9a-f-]{36}$/, status: "IN_QUEUE" });
  const done = await endpoint.runSync({ input: { op: "sleep", ms: 300 } }, 10_000);
  t.match(done, { status: "COMPLETED", output: { slept_ms: 300 }, completed: true });
  t.ok((done as { executionTime: number }).executionTime >= 300, "executionTime is the handler's real time");
  t.match(await endpoint.status(queued.id), { status: "COMPLETED", output: { op: "echo", n: 1 } });

  const streaming = await endpoint.run({ input: { op: "stream", chunks: 3, bytes: 5, ms: 200 } });
  const chunks: unknown[] = [];
  for await (const chunk of endpoint.stream(streaming.id)) chunks.push(chunk);
  t.same(chunks, [{ output: "abcde" }, { output: "abcde" }, { output: "abcde" }], "every chunk once, in order");

  const long = await endpoint.run({ input: { op: "sleep", ms: 600_000 } });
  await until("the long job starts", () => endpoint.status(long.id), (s) => s.status === "IN_PROGRESS");
  t.equal(runtime("js-conformance").running, 1);
  t.match(await endpoint.cancel(long.id), { id: long.id, status: "CANCELLED" });
  t.equal(runtime("js-conformance").running, 0, "cancel stops the handler");
  t.match(await endpoint.status(long.id), { status: "CANCELLED" });

  const failing = await endpoint.runSync({ input: { op: "fail", message: "no GPU today" } }, 10_000);
  t.match(failing, { status: "FAILED", error: /no GPU today/ });
  // The JS client has no retry call: the raw request.
  const retry = await call(url, "POST", `/v2/js-conformance/retry/${(failing as { id: string }).id}`, { headers: auth });
  t.match(retry.body, { status: "IN_QUEUE" });
  const retried = await until("the retry ends", () => endpoint.status((failing as { id: string }).id), (s) => s.status === "FAILED");
  t.match(retried, { error: /no GPU today/ }, "a retried job runs the handler again");

  const health = await endpoint.health();
  t.match(health, { jobs: { completed: 3, failed: 1, inProgress: 0, inQueue: 0, retried: 1 }, workers: { running: 0 } });
});

t.test("a Python endpoint: crash, execution timeout, chunks of at most 1 MB", async (t) => {
  const { url, runtime } = await serveHandlers(t, { crashy: H("crash.py"), "py-conformance": `${H("conformance_handler.py")}:cpsim_handler` });
  const post = (path: string, body: unknown) => call(url, "POST", path, { body, headers: auth });
  const crashed = await post("/v2/crashy/runsync", { input: { crash: true } });
  t.match(crashed.body, { status: "FAILED", error: /process exited \(exit code 7\)/ }, "a crashed process fails its job");
  t.match((await post("/v2/crashy/runsync", { input: {} })).body, { status: "COMPLETED", output: { alive: true } }, "and a new process serves the next");

  const hang = await post("/v2/py-conformance/run", { input: { op: "sleep", ms: 600_000 }, policy: { executionTimeout: 5_000 } });
  const timedOut = await until(
    "the timeout",
    async () => (await call(url, "GET", `/v2/py-conformance/status/${hang.body.id}`, { headers: auth })).body,
    (b) => b.status === "TIMED_OUT",
    20_000,
  );
  t.match(timedOut, { status: "TIMED_OUT", error: /execution timeout/ });
  t.equal(runtime("py-conformance").running, 0, "the hanging handler was stopped");

  const big = await post("/v2/py-conformance/run", { input: { op: "stream", chunks: 1, bytes: 2_500_000 } });
  await until("the big stream job", async () => (await call(url, "GET", `/v2/py-conformance/status/${big.body.id}`, { headers: auth })).body, (b) => b.status === "COMPLETED");
  const read = await call(url, "GET", `/v2/py-conformance/stream/${big.body.id}`, { headers: auth });
  const pieces = (read.body.stream as { output: string }[]).map((c) => c.output);
  t.ok(pieces.length >= 3 && pieces.every((p) => Buffer.byteLength(JSON.stringify(p)) <= 1024 * 1024), `${pieces.length} chunks of at most 1 MB`);
  t.equal(pieces.join("").length, 2_500_000, "that concatenate to the output");
});

t.test("cpsim serve --handler refuses bad values and files with exit 2", async (t) => {
  const run = async (argv: string[]) => {
    const err: string[] = [];
    const code = await createServeCommand().run(argv, { stdout: () => undefined, stderr: (s) => err.push(s) }).catch((e: Error) => {
      err.push(e.message);
      return 2;
    });
    return { code, err: err.join("") };
  };
  t.match(await run(["--handler", "no-equals"]), { code: 2, err: /expected ENDPOINT_ID=FILE/ });
  t.match(await run(["--handler", "pods=x.py"]), { code: 2, err: /reserved path segment/ });
  t.match(await run(["--handler", "ok=fixtures/handlers/nope.py"]), { code: 2, err: /nope\.py: no such file/ });
  t.match(await run(["--handler", "ok=fixtures/handlers/echo.py", "--clock", "manual"]), { code: 2, err: /real time/ });
});

t.test("cpsim serve --handler ID=FILE serves the handler and says so in --json", async (t) => {
  const out: string[] = [];
  let stop: () => void = () => undefined;
  let listening!: () => void;
  const ready = new Promise<void>((r) => (listening = r));
  const exit = createServeCommand({
    onStopSignal: (s) => {
      stop = s;
      return () => undefined;
    },
    onListening: () => listening(),
  }).run(["--port", "0", "--json", "--handler", "echo-py=fixtures/handlers/echo.py"], { stdout: (s) => out.push(s), stderr: () => undefined });
  await ready;
  const info = JSON.parse(out.join("").split("\n")[0]);
  t.same(info.handlers, [{ endpointId: "echo-py", file: "fixtures/handlers/echo.py", language: "python" }]);
  const res = await call(info.serverlessUrl, "POST", "/v2/echo-py/runsync", { body: { input: { from: "python" } }, headers: auth });
  t.match(res.body, { status: "COMPLETED", output: { from: "python" } });
  t.equal((await call(info.baseUrl, "GET", "/_sim/clock")).status, 404, "no control API: virtual time cannot run ahead of real code");
  stop();
  t.equal(await exit, 0);
});
