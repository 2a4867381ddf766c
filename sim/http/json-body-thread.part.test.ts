// Large request bodies are read on a worker thread: while one is being read (held open by the
// test, so the order is one of events, not of time) the server answers other requests; the body
// then reads as JSON.parse reads it, and a bad one is refused with parseJsonBody's own words.
import t from "tap";
import { request } from "undici";
import { holdParses, OFF_THREAD_BODY_BYTES, parseJsonBodyOffThread, parsesInFlight, warmParsePool } from "./json-body-thread.ts";
import { BodyRejection } from "./json-body.ts";
import { startEmulator } from "./emulator.ts";
import { defaultLimits } from "./options.ts";

const KEY = "Bearer cpsim_load_exempt_5b0e8d3a6c1f9247";

async function send(base: string, method: "GET" | "POST", path: string, body?: string): Promise<{ status: number; text: string }> {
  const res = await request(base + path, {
    method,
    headers: { authorization: KEY, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body,
  });
  return { status: res.statusCode, text: await res.body.text() };
}

t.test("the server answers while a large upload is being read", async (t) => {
  const emulator = await startEmulator({ clock: "manual" });
  t.teardown(() => emulator.close());
  const base = emulator.baseUrl;
  const pad = "p".repeat(OFF_THREAD_BODY_BYTES + 10);
  await warmParsePool(defaultLimits);
  const release = holdParses();
  let answered = false;
  const upload = send(base, "POST", "/v2/conformance/run", JSON.stringify({ input: { op: "sleep", ms: 1, pad } })).then((r) => {
    answered = true;
    return r;
  });
  for (let i = 0; i < 10_000 && parsesInFlight() === 0; i++) await new Promise((r) => setTimeout(r, 1));
  t.equal(parsesInFlight(), 1, "the upload is being read");
  const health = await send(base, "GET", "/v2/conformance/health");
  t.equal(health.status, 200, "a health request is answered meanwhile");
  t.notOk(answered, "before the upload");
  release();
  const run = await upload;
  t.equal(run.status, 200, run.text.slice(0, 300));
  const id = JSON.parse(run.text).id as string;
  const status = await send(base, "GET", `/v2/conformance/status/${id}`);
  t.equal(JSON.parse(status.text).input.pad, pad, "the job holds the uploaded input");

  const deep = " ".repeat(OFF_THREAD_BODY_BYTES) + "[".repeat(100) + "]".repeat(100);
  const refused = await send(base, "POST", "/v2/conformance/run", deep);
  t.equal(refused.status, 400);
  t.match(JSON.parse(refused.text).detail, /deeper than 64 levels/);
});

t.test("off the thread, the same values and the same refusals", async (t) => {
  await warmParsePool(defaultLimits);
  const big = { input: { s: "é\"\\\\".repeat(400_000), n: [1, 2.5, null, true, { a: "b" }] } };
  t.strictSame(await parseJsonBodyOffThread(Buffer.from(JSON.stringify(big)), defaultLimits), big);
  await t.rejects(parseJsonBodyOffThread(Buffer.from("{" + " ".repeat(2_000_000)), defaultLimits), BodyRejection);
  await t.rejects(parseJsonBodyOffThread(Buffer.from(`{"a":1,"__proto__":{"x":"${"y".repeat(2_000_000)}"}}`), defaultLimits), /__proto__/);
});
