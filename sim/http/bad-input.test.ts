// Every class of bad input fired at a running emulator: each gets a clear 4xx problem+json (never
// a 5xx, never a crash), and a normal request right after it still succeeds.
import t, { type Test } from "tap";
import { Readable } from "node:stream";
import { request } from "undici";
import { bodyOf, call, rawExchange, sleep, startTestServer, statusOf, type TestServer } from "./test-helpers.ts";

const MiB = 1024 * 1024;

let s: TestServer;
t.before(async () => {
  s = await startTestServer({
    limits: { headersTimeoutMs: 400, requestTimeoutMs: 800, connectionsCheckingIntervalMs: 50 },
  });
});
t.teardown(() => s.emulator.close());

/** The normal request every test ends with: the server still serves everyone else. */
async function stillServing(t: Test): Promise<void> {
  const res = await call(s.url, "POST", "/v2/echo", { body: { still: "serving" } });
  t.equal(res.status, 200, "a normal request still succeeds");
  t.same(res.body.body, { still: "serving" });
}

function isProblem(t: Test, res: { status: number; headers: Record<string, unknown>; body: any }, status: number): void {
  t.equal(res.status, status, `status ${status}`);
  t.equal(res.headers["content-type"], "application/problem+json", "problem+json");
  t.equal(res.body?.status, status, "body.status");
  t.type(res.body?.title, "string", "body.title");
  t.type(res.body?.detail, "string", "body.detail");
}

t.test("malformed JSON gives 400 Bad Request", async (t) => {
  for (const raw of ["{bad", '{"a":1,}', "nul", '{"a":"unterminated', "[1,2"]) {
    const res = await call(s.url, "POST", "/v2/echo", { raw, headers: { "content-type": "application/json" } });
    isProblem(t, res, 400);
    t.equal(res.body.title, "Bad Request");
  }
  await stillServing(t);
});

t.test("other content types give 415", async (t) => {
  for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1"]) {
    const res = await call(s.url, "POST", "/v2/echo", { raw: '{"a":1}', headers: { "content-type": type } });
    isProblem(t, res, 415);
  }
  // A body with no content type at all.
  const bare = await call(s.url, "POST", "/v2/echo", { raw: '{"a":1}' });
  isProblem(t, bare, 415);
  // Variants of JSON that are accepted.
  for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/problem+json", 'application/json;charset="UTF-8"']) {
    const res = await call(s.url, "POST", "/v2/echo", { raw: '{"a":1}', headers: { "content-type": type } });
    t.equal(res.status, 200, type);
    t.same(res.body.body, { a: 1 });
  }
  await stillServing(t);
});

t.test("an empty body with Content-Type: application/json reads as {}", async (t) => {
  // What the official Python client sends on POST cancel and purge-queue.
  const post = await call(s.url, "POST", "/v2/echo", { headers: { "content-type": "application/json" } });
  t.equal(post.status, 200);
  t.same(post.body.body, {});
  // ... and on GET.
  const get = await call(s.url, "GET", "/v2/echo", { headers: { "content-type": "application/json" } });
  t.equal(get.status, 200);
  // No body and no content type: no body at all.
  const none = await call(s.url, "POST", "/v2/echo");
  t.equal(none.status, 200);
  t.equal(none.body.body, null, "the backend saw body undefined");
  await stillServing(t);
});

t.test("a body over the route's limit (Content-Length) is refused before it is read", async (t) => {
  let written = 0;
  const { response, elapsedMs } = await rawExchange(s.port, async (send, answered) => {
    send(`POST /v2/conformance/run HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${50 * MiB}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    while (written < 50 * MiB && !answered()) {
      send(chunk);
      written += chunk.length;
      await sleep(1);
    }
  });
  t.equal(statusOf(response), 413);
  t.match(bodyOf(response), { status: 413, title: "Content Too Large" });
  t.match(response, /connection: close/i);
  t.ok(written < 10 * MiB, `answered after ${(written / MiB).toFixed(2)} MiB of 50 (${elapsedMs.toFixed(0)} ms)`);
  await stillServing(t);
});

t.test("a chunked body over the route's limit is refused while it streams in", async (t) => {
  // Its own server, with the default request timeout: the shared one's 800 ms (for the 408 test)
  // would end a slow stream on a busy machine before its limit did.
  const own = await startTestServer();
  t.teardown(() => own.emulator.close());
  for (const [path, limit] of [
    ["/v2/conformance/run", 10 * MiB],
    ["/v2/conformance/runsync", 20 * MiB],
    ["/v2/echo", 1 * MiB],
  ] as const) {
    let produced = 0;
    const total = limit * 4;
    async function* body(): AsyncGenerator<Buffer> {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      while (produced < total) {
        produced += chunk.length;
        yield chunk;
        await new Promise((r) => setImmediate(r));
      }
    }
    const res = await request(own.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: Readable.from(body()) });
    const text = await res.body.text();
    t.equal(res.statusCode, 413, path);
    t.match(JSON.parse(text), { status: 413, detail: new RegExp(`${limit} bytes`) });
    t.ok(produced < limit + 4 * MiB, `${path}: answered after ${(produced / MiB).toFixed(1)} MiB, limit ${limit / MiB} MiB`);
  }
  await stillServing(t);
});

t.test("each job route has its own limit: 15 MiB passes runsync and fails run", async (t) => {
  // Its own server, with the default request timeout: the shared one's 800 ms (for the 408 test)
  // ended a 15 MiB upload on a busy machine (a 408), and the wait below then never came.
  const own = await startTestServer();
  t.teardown(() => own.emulator.close());
  const big = JSON.stringify({ input: { ms: 0, s: "x".repeat(15 * MiB) } });
  const run = await call(own.url, "POST", "/v2/conformance/run", { raw: big, headers: { "content-type": "application/json" } });
  isProblem(t, run, 413);
  let settled = false;
  const pending = call(own.url, "POST", "/v2/conformance/runsync?wait=5000", { raw: big, headers: { "content-type": "application/json" } })
    .finally(() => { settled = true; });
  // The job takes 0 ms of virtual time; the manual clock must still move for it to finish. An
  // answer before the wait is parked (a refusal) ends the loop too, and the asserts below say so.
  while (own.emulator.stats().waits === 0 && !settled) await sleep(5);
  if (!settled) await call(own.url, "POST", "/_sim/clock/advance", { body: { ms: 0 } });
  const runsync = await pending;
  t.equal(runsync.status, 200);
  t.equal(runsync.body.status, "COMPLETED");
  t.equal(runsync.body.output.s.length, 15 * MiB);
  await stillServing(t);
});

t.test("unknown routes give 404, known paths with a wrong method 405 with Allow", async (t) => {
  for (const path of ["/", "/nope", "/v2", "/v2/pods/a/b/c", "/v3/pods", "/v2/graphql/status/job-1", "/v2/pods/health/x"]) {
    isProblem(t, await call(s.url, "GET", path), 404);
  }
  const del = await call(s.url, "DELETE", "/v2/echo");
  isProblem(t, del, 405);
  t.equal(del.headers.allow, "GET, HEAD, OPTIONS, POST, PUT");
  // A reserved word is never an endpoint id: this is a pod path, not a job submission.
  const podsRun = await call(s.url, "POST", "/v2/pods/run", { body: { input: {} } });
  isProblem(t, podsRun, 405);
  t.equal(podsRun.headers.allow, "DELETE, GET, HEAD, OPTIONS, PATCH");
  const options = await call(s.url, "OPTIONS", "/v2/pods");
  t.equal(options.status, 204);
  t.equal(options.headers.allow, "GET, HEAD, OPTIONS, POST");
  const head = await call(s.url, "HEAD", "/v2/echo");
  t.equal(head.status, 200);
  t.equal(head.text, "");
  await stillServing(t);
});

t.test("deep nesting, huge arrays and too many values give 400", async (t) => {
  const deep = "[".repeat(65) + "]".repeat(65);
  const res = await call(s.url, "POST", "/v2/echo", { raw: deep, headers: { "content-type": "application/json" } });
  isProblem(t, res, 400);
  t.match(res.body.detail, /deeper than 64/);
  const veryDeep = "[".repeat(500_000) + "]".repeat(500_000);
  isProblem(t, await call(s.url, "POST", "/v2/echo", { raw: veryDeep, headers: { "content-type": "application/json" } }), 400);
  const ok64 = "[".repeat(64) + "]".repeat(64);
  t.equal((await call(s.url, "POST", "/v2/echo", { raw: ok64, headers: { "content-type": "application/json" } })).status, 200, "64 levels pass");
  const huge = `[${"0,".repeat(100_000)}0]`;
  const arr = await call(s.url, "POST", "/v2/echo", { raw: huge, headers: { "content-type": "application/json" } });
  isProblem(t, arr, 400);
  t.match(arr.body.detail, /more than 100000 items/);
  const manyValues = `{"input":[${Array.from({ length: 25 }, () => `[${"0,".repeat(49_999)}0]`).join(",")}]}`;
  const values = await call(s.url, "POST", "/v2/conformance/run", { raw: manyValues, headers: { "content-type": "application/json" } });
  isProblem(t, values, 400);
  t.match(values.body.detail, /more than 1000000 JSON values/);
  // Deep nesting hidden in strings is just text.
  const inString = JSON.stringify({ s: "[".repeat(1000) });
  t.equal((await call(s.url, "POST", "/v2/echo", { raw: inString, headers: { "content-type": "application/json" } })).status, 200);
  await stillServing(t);
});

t.test("__proto__ and constructor.prototype keys give 400 and pollute nothing", async (t) => {
  for (const raw of [
    '{"__proto__":{"polluted":true}}',
    '{"input":{"a":[{"__proto__":{"polluted":true}}]}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"a":{"constructor":{"prototype":{"polluted":true}}}}',
  ]) {
    const res = await call(s.url, "POST", "/v2/echo", { raw, headers: { "content-type": "application/json" } });
    isProblem(t, res, 400);
  }
  const q = await call(s.url, "GET", "/v2/echo?__proto__[polluted]=1&constructor[prototype][polluted]=1&__proto__=x");
  t.equal(q.status, 200);
  t.equal(({} as Record<string, unknown>).polluted, undefined, "Object.prototype untouched");
  // A plain "constructor" key is data like any other.
  const plain = await call(s.url, "POST", "/v2/echo", { body: { constructor: "x" } });
  t.equal(plain.status, 200);
  await stillServing(t);
});

t.test("invalid UTF-8 gives 400", async (t) => {
  for (const bytes of [
    [0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d],
    [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d],
    [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d],
  ]) {
    const res = await call(s.url, "POST", "/v2/echo", { raw: Buffer.from(bytes), headers: { "content-type": "application/json" } });
    isProblem(t, res, 400);
    t.match(res.body.detail, /UTF-8/);
  }
  const good = await call(s.url, "POST", "/v2/echo", { raw: Buffer.from('{"s":"héllo ✓ 🎉"}'), headers: { "content-type": "application/json" } });
  t.equal(good.body.body.s, "héllo ✓ 🎉");
  await stillServing(t);
});

t.test("header floods give 431", async (t) => {
  // Its own server, with the default header timeout: the shared one's 400 ms (for the 408 test)
  // answered 408 to a flood still streaming in on a busy machine (load 20), before its size did.
  const own = await startTestServer();
  t.teardown(() => own.emulator.close());
  const many = Array.from({ length: 150 }, (_, i) => `X-H${i}: v\r\n`).join("");
  const count = await rawExchange(own.port, (send) => {
    send(`GET /v2/echo HTTP/1.1\r\nHost: x\r\n${many}\r\n`);
  });
  t.equal(statusOf(count.response), 431, "too many fields");
  t.match(bodyOf(count.response), { status: 431 });
  t.ok(count.closed, "connection closed");
  const big = await rawExchange(own.port, (send) => {
    send(`GET /v2/echo HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
  });
  t.equal(statusOf(big.response), 431, "too many bytes");
  t.match(big.response, /application\/problem\+json/);
  t.ok(big.closed, "connection closed");
  // A flood that never ends: headers streamed forever.
  const endless = await rawExchange(own.port, async (send, answered) => {
    send("GET /v2/echo HTTP/1.1\r\nHost: x\r\n");
    for (let i = 0; i < 10_000 && !answered(); i++) {
      if (!send(`X-F${i}: ${"b".repeat(100)}\r\n`)) await sleep(1);
    }
  });
  t.equal(statusOf(endless.response), 431);
  await stillServing(t);
});

t.test("a long request target gives 414", async (t) => {
  const res = await call(s.url, "GET", `/v2/echo?q=${"a".repeat(9_000)}`);
  isProblem(t, res, 414);
  await stillServing(t);
});

t.test("slow clients hit the header and request timeouts (408)", async (t) => {
  const headers = await rawExchange(s.port, (send) => {
    send("GET /v2/echo HTTP/1.1\r\nHost: x\r\n"); // ... and never the blank line
  });
  t.equal(statusOf(headers.response), 408, "headers never finished");
  t.ok(headers.closed);
  t.comment(`closed after ${headers.elapsedMs.toFixed(0)} ms`);
  const body = await rawExchange(s.port, async (send) => {
    send("POST /v2/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
    for (let i = 0; i < 20; i++) {
      await sleep(100);
      send(" ");
    }
  });
  t.equal(statusOf(body.response), 408, "body trickled too slowly");
  t.ok(body.closed);
  const idle = await rawExchange(s.port, () => undefined);
  t.ok(idle.closed, "a connection that sends nothing is closed");
  t.equal(statusOf(idle.response), 408);
  await stillServing(t);
});

t.test("garbage and malformed HTTP give 400 (or 415 for a compressed body)", async (t) => {
  const res = await rawExchange(s.port, (send) => {
    send("HELLO\x00WORLD\r\n\r\n");
  });
  t.equal(statusOf(res.response), 400);
  t.match(bodyOf(res.response), { status: 400, title: "Bad Request" });
  const badChunked = await rawExchange(s.port, (send) => {
    send("POST /v2/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n");
  });
  t.equal(statusOf(badChunked.response), 400, "bad chunk framing");
  const mismatch = await rawExchange(s.port, (send) => {
    send("POST /v2/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
  });
  t.equal(statusOf(mismatch.response), 400, "Content-Length with Transfer-Encoding (request smuggling)");
  const noHost = await rawExchange(s.port, (send) => {
    send("GET /v2/echo HTTP/1.1\r\n\r\n");
  });
  t.equal(statusOf(noHost.response), 400, "HTTP/1.1 without Host");
  t.match(bodyOf(noHost.response), { status: 400, detail: /Host/ });
  const gzip = await call(s.url, "POST", "/v2/echo", { raw: "{}", headers: { "content-type": "application/json", "content-encoding": "gzip" } });
  t.equal(gzip.status, 415, "compressed bodies are not supported");
  const absolute = await rawExchange(s.port, (send) => {
    send("GET http://x/v2/echo?a=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  });
  t.equal(statusOf(absolute.response), 200, "absolute-form request targets are served");
  t.match(bodyOf(absolute.response), { path: "/v2/echo", query: { a: "1" } });
  await stillServing(t);
});

t.test("a backend that throws gives 500 and the server keeps serving", async (t) => {
  const res = await call(s.url, "GET", "/v2/boom");
  isProblem(t, res, 500);
  await stillServing(t);
});

t.test("requests reach the backend as the ApiRequest contract says", async (t) => {
  s.backend.recordRequests = true;
  await call(s.url, "PUT", "/v2/echo?b=2&a=1&a=3&e=%20x", { body: { k: [1, "2"] }, headers: { "X-Mixed-Case": "V" } });
  s.backend.recordRequests = false;
  const seen = s.backend.seen.at(-1);
  t.equal(seen?.method, "PUT");
  t.equal(seen?.path, "/v2/echo");
  t.same({ ...seen?.query }, { b: "2", a: "1", e: " x" }, "first value wins, decoded");
  t.equal(seen?.headers["x-mixed-case"], "V", "header names lower-cased");
  t.same(seen?.body, { k: [1, "2"] });
});
