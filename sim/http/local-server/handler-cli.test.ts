// `cpsim handler FILE`: one-shot runs (exit 0/1/2, --test_input, test_input.json) and the local
// test server (--rp_serve_api) in both languages, with the routes and answers of choices.md,
// concurrency, a crashing Python handler, --rp_debugger and --rp_log_level.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { call } from "../test-helpers.ts";
import { createHandlerCommand } from "./cli.ts";
import type { LocalServerHandle } from "./local-server.ts";

const H = (name: string): string => `fixtures/handlers/${name}`;

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) }, out, err };
}

async function once(argv: string[]) {
  const c = capture();
  const code = await createHandlerCommand().run(argv, c.io);
  return { code, out: c.out.join(""), err: c.err.join("") };
}

/** Starts the server in-process on a free port; `stop()` plays the part of SIGINT. */
async function serve(argv: string[]) {
  const c = capture();
  let stop: () => void = () => undefined;
  let listening!: (s: LocalServerHandle) => void;
  const ready = new Promise<LocalServerHandle>((r) => (listening = r));
  const exit = createHandlerCommand({
    onStopSignal: (s) => {
      stop = s;
      return () => undefined;
    },
    onListening: listening,
  }).run([...argv, "--rp_serve_api", "--rp_api_port", "0", "--rp_api_host", "127.0.0.1"], c.io);
  const server = await Promise.race([ready, exit.then((code) => Promise.reject(new Error(`exited ${code}: ${c.err.join("")}`)))]);
  return { server, url: server.url, exit, out: c.out, err: c.err, stop: () => stop() };
}

t.test("one-shot: --test_input, test_input.json, exit codes", async (t) => {
  let r = await once([H("echo.py"), "--test_input", '{"input": {"hello": "world"}}']);
  t.equal(r.code, 0);
  t.same(JSON.parse(r.out), { id: "local_test", status: "COMPLETED", output: { hello: "world" } });

  r = await once([H("stream-text.mjs")]);
  t.equal(r.code, 0, "test_input.json next to the handler is used without flags");
  t.same(JSON.parse(r.out).output, ["hello", "from", "test_input.json"]);
  r = await once([H("stream-text.mjs"), "--test_input", '{"input": {"text": "inline wins"}}']);
  t.same(JSON.parse(r.out).output, ["inline", "wins"], "--test_input overrides the file");

  r = await once([H("fail.mjs"), "--test_input", '{"input": {"n": 1}}']);
  t.equal(r.code, 1, "a handler error exits 1");
  t.match(JSON.parse(r.out), { status: "FAILED", error: /cannot process/ });
  t.match(r.err, /the handler failed: cannot process/);

  const dir = mkdtempSync(join(tmpdir(), "cpsim-once-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(H("echo.py"), join(dir, "echo.py"));
  r = await once([join(dir, "echo.py")]);
  t.equal(r.code, 1, "no input at all exits 1");
  t.match(r.err, /no test input: pass --test_input .* or put a test_input.json next to the handler/);
  writeFileSync(join(dir, "test_input.json"), "{not json");
  r = await once([join(dir, "echo.py")]);
  t.equal(r.code, 1);
  t.match(r.err, /test_input\.json is not valid JSON/);
  r = await once([join(dir, "echo.py"), "--test_input", '{"prompt": "no input key"}']);
  t.equal(r.code, 1);
  t.match(r.err, /--test_input must be a JSON object with an "input" key/);

  // The local server answers 422 for a body whose input is not an object: a one-shot run exits 1 for it.
  for (const input of ["5", '"text"', "[1]", "null"]) {
    r = await once([H("echo.ts"), "--test_input", `{"input": ${input}}`]);
    t.equal(r.code, 1, `{"input": ${input}} exits 1`);
    t.match(r.err, /--test_input: "input" must be a JSON object/);
    t.equal(r.out, "", "and runs nothing");
  }

  r = await once([join(dir, "missing.mjs")]);
  t.equal(r.code, 2, "a handler file that does not exist exits 2");
  t.match(r.err, /missing\.mjs: no such file/);
  writeFileSync(join(dir, "bad.py"), "def handle(job):\n    return 1\n");
  r = await once([join(dir, "bad.py"), "--test_input", '{"input": {}}']);
  t.equal(r.code, 2);
  t.match(r.err, /bad\.py: defines no function named handler\(job\)/);
  await t.rejects(once([]), /missing FILE/, "no file is a usage error");

  // A TypeScript handler in a folder with no package.json, as a user's first try (npx cpsim handler t.ts).
  writeFileSync(join(dir, "t.ts"), "export default function handler(job: { input: { x: number } }): { y: number } {\n  return { y: job.input.x * 2 };\n}\n");
  r = await once([join(dir, "t.ts"), "--test_input", '{"input": {"x": 21}}']);
  t.equal(r.code, 0, r.err);
  t.same(JSON.parse(r.out), { id: "local_test", status: "COMPLETED", output: { y: 42 } });
  await t.rejects(once([H("echo.py"), "--json"]), /--json needs --rp_serve_api/);
});

for (const [lang, stream, echo] of [
  ["js", "stream-text.mjs", "conformance-handler.mjs"],
  ["python", "stream_text.py", "conformance_handler.py"],
] as const) {
  t.test(`${lang}: the local test server answers as choices.md says`, async (t) => {
    const s = await serve([H(echo)]);
    t.teardown(async () => {
      s.stop();
      await s.exit;
    });
    const runsync = await call(s.url, "POST", "/runsync", { body: { input: { op: "echo", k: [1, 2] } } });
    t.equal(runsync.status, 200);
    t.match(runsync.body, { id: /^test-[0-9a-f-]{36}$/, status: "COMPLETED", output: { op: "echo", k: [1, 2] } });
    t.match((await call(s.url, "POST", "/runsync", { body: { input: { op: "fail", message: "kaput" } } })).body, { status: "FAILED", error: /kaput/ });

    const run = await call(s.url, "POST", "/run", { body: { input: { op: "bytes", n: 4 } } });
    t.match(run.body, { id: /^test-/, status: "IN_PROGRESS" });
    const first = await call(s.url, "POST", `/status/${run.body.id}`);
    t.same(first.body, { id: run.body.id, status: "COMPLETED", output: "abcd" }, "/status runs the stored job");
    const again = await call(s.url, "POST", `/status/${run.body.id}`);
    t.same(again.body, { id: run.body.id, status: "FAILED", error: "Job ID not found" }, "once");
    const other = await call(s.url, "POST", "/run", { body: { input: {} } });
    t.match((await call(s.url, "GET", `/stream/${other.body.id}`)).body, { status: "FAILED", error: "Stream not supported, handler must be a generator." });

    const bad = await call(s.url, "POST", "/runsync", { body: { inputs: {} } });
    t.equal(bad.status, 422);
    t.match(bad.body, { detail: [{ loc: ["body", "input"], msg: "field required" }] });
    t.equal((await call(s.url, "POST", "/runsync", { body: { input: [1] } })).status, 422, "input must be an object");
    t.equal((await call(s.url, "GET", "/health")).status, 404);

    const g = await serve([H(stream)]);
    t.teardown(async () => {
      g.stop();
      await g.exit;
    });
    t.match((await call(g.url, "POST", "/runsync", { body: { input: { text: "a b c" } } })).body, { status: "COMPLETED", output: ["a", "b", "c"] }, "a generator's outputs aggregated into a list");
    const streamed = await call(g.url, "POST", "/run", { body: { input: { text: "x y" } } });
    t.match((await call(g.url, "POST", `/stream/${streamed.body.id}`)).body, { id: streamed.body.id, status: "COMPLETED", stream: [{ output: "x" }, { output: "y" }] });
    t.match((await call(g.url, "POST", `/stream/${streamed.body.id}`)).body, { status: "FAILED", error: "Job ID not found" });
  });
}

t.test("--rp_api_concurrency: 2 jobs overlap, 1 do not; a crashing Python handler fails its job and the server goes on", async (t) => {
  for (const n of [1, 2]) {
    const s = await serve([H("span.py"), "--rp_api_concurrency", String(n)]);
    const job = () => call(s.url, "POST", "/runsync", { body: { input: { ms: 800 } } });
    await Promise.all([job(), job()]); // every process started
    const [a, b] = (await Promise.all([job(), job()])).map((r) => r.body.output as { started: number; ended: number });
    t.equal(a.started < b.ended && b.started < a.ended, n > 1, `concurrency ${n}`);
    s.stop();
    t.equal(await s.exit, 0);
  }
  const s = await serve([H("crash.py"), "--rp_log_level", "ERROR"]);
  const crashed = await call(s.url, "POST", "/runsync", { body: { input: { crash: true } } });
  t.match(crashed.body, { status: "FAILED", error: /process exited \(exit code 7\)/ });
  t.match((await call(s.url, "POST", "/runsync", { body: { input: {} } })).body, { status: "COMPLETED", output: { alive: true } });
  t.match(s.err.join(""), /ERROR \| handler process crashed/);
  t.notMatch(s.err.join(""), /INFO/, "--rp_log_level ERROR hides INFO lines");
  s.stop();
  await s.exit;

  const d = await serve([H("echo.ts"), "--rp_debugger", "--json"]);
  const info = JSON.parse(d.out.join("").split("\n")[0]);
  t.match(info, { url: d.url, port: Number, generator: false, concurrency: 1 });
  t.match((await call(d.url, "POST", "/runsync", { body: { input: { a: 1 } } })).body, { status: "COMPLETED", output: { a: 1 }, rp_debugger: { executionTime: Number } });
  t.match(d.err.join(""), /DEBUG \| job test-.*: started with input/);
  d.stop();
  await d.exit;
});
