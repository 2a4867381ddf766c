// Request bodies read by body-read.ts: a large one with Content-Length goes chunk by chunk into
// shared memory (chunks of any size, at any alignment) and reads as JSON.parse reads it; the
// memory is given back and kept for the next body (within its limit); fastify's refusals stay
// (too large, a length other than Content-Length, a stream error); a client gone mid-body gives
// its memory back; over HTTP an upload with wide characters is stored as sent.
import { connect } from "node:net";
import { PassThrough } from "node:stream";
import t from "tap";
import { request } from "undici";
import { MAX_SPARE_BODY_BYTES, readJsonBody, sharedBodyBytes } from "./body-read.ts";
import { startEmulator } from "./emulator.ts";
import { holdParses, OFF_THREAD_BODY_BYTES, parsesInFlight, warmParsePool } from "./json-body-thread.ts";
import { defaultLimits } from "./options.ts";

const KEY = "Bearer cpsim_load_exempt_5b0e8d3a6c1f9247";

/** Feeds `bytes` to readJsonBody in chunks of the given sizes (cycled) and resolves with what it gave. */
function read(bytes: Buffer, sizes: readonly number[], contentLength: string | undefined = String(bytes.length), limit = 32 * 1024 * 1024, onChunk?: () => void): Promise<{ err: Error | null; body?: unknown }> {
  const payload = new PassThrough();
  const result = new Promise<{ err: Error | null; body?: unknown }>((resolve) => readJsonBody(payload, { contentLength, limit, direct: true }, defaultLimits, (err, body) => resolve({ err, body })));
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    payload.write(bytes.subarray(at, at + size));
    at += size;
    onChunk?.();
  }
  payload.end();
  return result;
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !check(); i++) await new Promise((r) => setTimeout(r, 1));
}

t.before(() => warmParsePool(defaultLimits));

t.test("a large body goes into shared memory in chunks of any size and reads as JSON.parse reads it", async (t) => {
  const value = { input: { s: "é\"\\\\x".repeat(300_000), wide: "€😀".repeat(200_000), n: [1, 2.5, null, true, { a: "b" }] } };
  const bytes = Buffer.from(JSON.stringify(value));
  t.ok(bytes.length >= OFF_THREAD_BODY_BYTES);
  let reading = 0;
  const got = await read(bytes, [1, 7, 65_536, 3, 12_345, 63_999], String(bytes.length), undefined, () => (reading = Math.max(reading, sharedBodyBytes().reading)));
  t.equal(got.err, null);
  t.strictSame(got.body, value);
  t.equal(reading, bytes.length, "the body's length was held in shared memory while it came");
  t.equal(sharedBodyBytes().reading, 0, "and given back");
  t.ok(sharedBodyBytes().spare > 0 && sharedBodyBytes().spare <= MAX_SPARE_BODY_BYTES, "kept for the next body, within its limit");
  const again = await read(bytes, [65_536]);
  t.strictSame(again.body, value, "a spare buffer, used again, reads the new body only");
  const shorter = { input: { s: "y".repeat(OFF_THREAD_BODY_BYTES) } };
  t.strictSame((await read(Buffer.from(JSON.stringify(shorter)), [65_536])).body, shorter, "a shorter body in a used buffer");
});

t.test("the checks of fastify's reader stay", async (t) => {
  const bytes = Buffer.from(JSON.stringify({ input: { s: "x".repeat(OFF_THREAD_BODY_BYTES) } }));
  t.match((await read(bytes, [65_536], String(bytes.length), 1000)).err, { code: "FST_ERR_CTP_BODY_TOO_LARGE" }, "Content-Length over the limit");
  t.match((await read(bytes, [65_536], undefined, 1000)).err, { code: "FST_ERR_CTP_BODY_TOO_LARGE" }, "bytes over the limit");
  t.match((await read(bytes, [65_536], String(bytes.length + 1))).err, { code: "FST_ERR_CTP_INVALID_CONTENT_LENGTH" }, "fewer bytes than Content-Length");
  t.match((await read(bytes, [65_536], String(bytes.length - 1))).err, { code: "FST_ERR_CTP_INVALID_CONTENT_LENGTH" }, "more bytes than Content-Length");
  t.strictSame((await read(bytes, [65_536], undefined)).body, JSON.parse(bytes.toString()), "a large body without Content-Length (chunked)");
  t.match((await read(Buffer.from("{" + " ".repeat(OFF_THREAD_BODY_BYTES)), [65_536])).err, { status: 400 }, "bad JSON: parseJsonBody's refusal");
  const payload = new PassThrough();
  const failed = new Promise<Error | null>((resolve) => readJsonBody(payload, { contentLength: String(2 * OFF_THREAD_BODY_BYTES), limit: 1e8, direct: true }, defaultLimits, (err) => resolve(err)));
  payload.write(Buffer.alloc(1000, 32));
  payload.destroy(new Error("boom"));
  t.match(await failed, { message: "boom", statusCode: 400 }, "a stream error answers 400");
  t.equal(sharedBodyBytes().reading, 0, "its memory given back");
  t.equal(parsesInFlight(), 0);
});

t.test("over HTTP: a client gone mid-body gives its memory back; wide characters are stored as sent", async (t) => {
  const emulator = await startEmulator({ clock: "manual" });
  t.teardown(() => emulator.close());
  const { port } = new URL(emulator.baseUrl);
  const socket = connect(Number(port), "127.0.0.1");
  await new Promise((r) => socket.once("connect", r));
  socket.write(`POST /v2/conformance/run HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${3 * OFF_THREAD_BODY_BYTES}\r\n\r\n`);
  socket.write(Buffer.alloc(OFF_THREAD_BODY_BYTES, 32));
  await until(() => sharedBodyBytes().reading > 0);
  t.equal(sharedBodyBytes().reading, 3 * OFF_THREAD_BODY_BYTES, "the body's memory is held while it comes");
  socket.destroy();
  await until(() => sharedBodyBytes().reading === 0);
  t.equal(sharedBodyBytes().reading, 0, "and given back when the client goes");

  const pad = "é€😀\u00ff".repeat(300_000);
  const release = holdParses();
  const upload = request(`${emulator.baseUrl}/v2/conformance/run`, {
    method: "POST",
    headers: { authorization: KEY, "content-type": "application/json" },
    body: JSON.stringify({ input: { op: "sleep", ms: 1, pad } }),
  });
  await until(() => parsesInFlight() > 0);
  release();
  const res = await upload;
  const { id } = (await res.body.json()) as { id: string };
  t.equal(res.statusCode, 200);
  const status = await request(`${emulator.baseUrl}/v2/conformance/status/${id}`, { headers: { authorization: KEY } });
  t.equal(((await status.body.json()) as { input: { pad: string } }).input.pad, pad, "the job holds the input as sent");
});
