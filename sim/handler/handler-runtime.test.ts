// The handler runtimes for real: JavaScript/TypeScript in worker threads and Python in python3
// processes. Example handlers from fixtures/handlers: echo, streaming, failing, crashing, timing.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t, { type Test } from "tap";
import { HandlerLoadError, type HandlerRuntime, loadHandler } from "./index.ts";
import { splitHandlerRef } from "./load-handler.ts";

const H = (name: string): string => `fixtures/handlers/${name}`;

async function withHandler(t: Test, file: string, concurrency = 1): Promise<HandlerRuntime> {
  const runtime = await loadHandler(file, { concurrency });
  t.teardown(() => runtime.close());
  return runtime;
}

type Span = { started: number; ended: number };
const overlaps = (a: Span, b: Span): boolean => a.started < b.ended && b.started < a.ended;

for (const lang of ["js", "python"] as const) {
  const file = (js: string, py: string): string => H(lang === "js" ? js : py);

  t.test(`${lang}: echo, stream, fail, crash`, async (t) => {
    const echo = await withHandler(t, file("echo.ts", "echo.py"));
    t.equal(echo.generator, false);
    t.same(await echo.run({ id: "a", input: { hello: ["world", 1] } }).result, { ok: true, output: { hello: ["world", 1] } });

    const stream = await withHandler(t, file("stream-text.mjs", "stream_text.py"));
    t.equal(stream.generator, true, "a generator handler is known as one");
    const chunks: unknown[] = [];
    t.same(await stream.run({ id: "b", input: { text: "one two three" } }, (c) => chunks.push(c)).result, { ok: true, output: ["one", "two", "three"] });
    t.same(chunks, ["one", "two", "three"], "each output reported as it is yielded, in order");

    const failing = await withHandler(t, file("fail.mjs", "fail.py"));
    const failed = await failing.run({ id: "c", input: { x: 1 } }).result;
    t.match(failed, { ok: false, error: /cannot process/ });
    t.notOk("crashed" in failed && failed.crashed, "a raised error is not a crash");

    const crash = await withHandler(t, file("crash.mjs", "crash.py"));
    const crashed = await crash.run({ id: "d", input: { crash: true } }).result;
    t.match(crashed, { ok: false, crashed: true, error: /exit/ }, "a dead thread or process fails its job");
    t.match(await crash.run({ id: "e", input: {} }).result, { ok: true, output: { alive: true } }, "and a new one serves the next job");
  });

  t.test(`${lang}: a hanging job is stopped; concurrency 1 runs jobs one after another, 2 at once`, async (t) => {
    const conformance = await withHandler(t, lang === "js" ? H("conformance-handler.mjs") : H("conformance_handler.py"));
    const hang = conformance.run({ id: "h", input: { op: "sleep", ms: 600_000 } });
    await new Promise((r) => setTimeout(r, 200));
    hang.stop();
    // Stopped, not finished: the handler would have slept ten minutes.
    t.match(await hang.result, { ok: false, stopped: true }, "stop does not wait for the handler");
    t.match(await conformance.run({ id: "i", input: { op: "bytes", n: 3 } }).result, { ok: true, output: "abc" }, "the runtime goes on after a stop");

    for (const n of [1, 2]) {
      const span = await withHandler(t, file("span.mjs", "span.py"), n);
      // Two jobs at once first, so that every thread or process has started (its cold start).
      await Promise.all([span.run({ id: "w1", input: { ms: 50 } }).result, span.run({ id: "w2", input: { ms: 50 } }).result]);
      const [a, b] = await Promise.all([span.run({ id: "x", input: { ms: 800 } }).result, span.run({ id: "y", input: { ms: 800 } }).result]);
      if (!a.ok || !b.ok) throw new Error("span failed");
      t.equal(overlaps(a.output as Span, b.output as Span), n > 1, `concurrency ${n}: jobs ${n > 1 ? "overlap" : "do not overlap"}`);
    }
  });
}

t.test("the conformance handler's per-job form streams only the stream op", async (t) => {
  for (const file of [H("conformance-handler.mjs"), `${H("conformance_handler.py")}:cpsim_handler`]) {
    const h = await withHandler(t, file);
    const chunks: unknown[] = [];
    t.same(await h.run({ id: "s", input: { op: "stream", chunks: 2, bytes: 3 } }, (c) => chunks.push(c)).result, { ok: true, output: ["abc", "abc"] }, file);
    t.same(chunks, ["abc", "abc"]);
    const plain: unknown[] = [];
    t.same(await h.run({ id: "e", input: { op: "echo", k: 1 } }, (c) => plain.push(c)).result, { ok: true, output: { op: "echo", k: 1 } });
    t.same(plain, [], "other ops do not stream");
    t.match(await h.run({ id: "u", input: { op: "nope" } }).result, { ok: false, error: /unknown op "nope"/ });
  }
});

t.test("bad handler files: the file and the problem are named", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-bad-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const cases: [string, RegExp][] = [
    [join(dir, "missing.py"), /missing\.py: no such file/],
    [write("syntax.mjs", "export default function (job) { return job.input"), /syntax\.mjs: does not load/],
    [write("nodefault.mjs", "export const handler = (job) => job.input;"), /nodefault\.mjs: its default export is missing/],
    [write("notfn.mjs", "export default 42;"), /notfn\.mjs: its default export is a number/],
    [write("syntax.py", "def handler(job)\n    return 1\n"), /syntax\.py: SyntaxError/],
    [write("nohandler.py", "def other(job):\n    return 1\n"), /nohandler\.py: defines no function named handler\(job\)/],
    [write("raises.py", "raise ImportError('no module named torch')\n"), /raises\.py: ImportError: no module named torch/],
    [write("notes.txt", "hello"), /notes\.txt: unknown handler type "\.txt"/],
  ];
  for (const [file, message] of cases) {
    const err = await loadHandler(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    t.ok(err instanceof HandlerLoadError, `${file} is refused`);
    t.match((err as Error).message, message);
  }
  t.same(splitHandlerRef("a/b.py:cpsim_handler"), { file: "a/b.py", exportName: "cpsim_handler" });
  t.same(splitHandlerRef("C:\\h\\x.py"), { file: "C:\\h\\x.py" });
});

t.test("prints stay out of the protocol; output that is not JSON fails the job", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-odd-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const py = join(dir, "odd.py");
  writeFileSync(py, 'import sys\ndef handler(job):\n    print("noise on stdout")\n    if job["input"].get("set"):\n        return {1, 2}\n    return "fine"\n');
  const js = join(dir, "odd.mjs");
  writeFileSync(js, 'export default (job) => { console.log("noise", 1); return job.input.big ? 10n : "fine"; };\n');
  for (const file of [py, js]) {
    const lines: string[] = [];
    const h = await loadHandler(file, { log: (level, m) => lines.push(`${level} ${m}`) });
    t.teardown(() => h.close());
    t.same(await h.run({ id: "1", input: {} }).result, { ok: true, output: "fine" }, `${file}: a print does not break the answer`);
    // The print travels on stderr, the answer on the protocol: the log line may come just after the answer.
    for (let waited = 0; waited < 5_000 && !lines.some((l) => l.includes("noise")); waited += 20) await new Promise((r) => setTimeout(r, 20));
    t.ok(lines.some((l) => l.includes("noise")), "the print reaches the log");
    t.match(await h.run({ id: "2", input: { set: true, big: true } }).result, { ok: false, error: /not JSON|serializ/i });
    t.same(await h.run({ id: "3", input: {} }).result, { ok: true, output: "fine" }, "and the next job runs");
  }
});
