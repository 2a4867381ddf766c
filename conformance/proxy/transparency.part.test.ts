/**
 * The proxy is transparent: answers arrive unchanged (status, end-to-end headers, bytes),
 * streamed chunk by chunk and in order (a chunk reaches the client before the target writes the
 * next one: no buffering), long polls held until the target answers, bodies above the capture
 * bound forwarded whole and judged on their head and size, upstream connections kept alive.
 * No wall-clock bound anywhere: each step waits for the event it needs.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import t, { type Test } from "tap";
import { request } from "undici";
import { startProxy } from "./proxy.ts";
import type { Flow } from "./forward.ts";
import { emulatorBehindProxy } from "../test-support/proxy/setup.ts";

/** A stub target: each request handed to the test, which answers it as it likes. */
async function stubTarget(t: Test) {
  const waiting: ((x: { req: IncomingMessage; res: ServerResponse; body: Buffer }) => void)[] = [];
  const queue: { req: IncomingMessage; res: ServerResponse; body: Buffer }[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const x = { req, res, body: Buffer.concat(parts) };
      const w = waiting.shift();
      if (w) w(x);
      else queue.push(x);
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    next: () => new Promise<{ req: IncomingMessage; res: ServerResponse; body: Buffer }>((r) => (queue.length ? r(queue.shift()!) : waiting.push(r))),
    connections: () => connections,
  };
}

async function proxyTo(t: Test, target: string, extra: { captureBytes?: number } = {}) {
  const flows: Flow[] = [];
  const proxy = await startProxy({ target, reportDir: t.testdir(), ...extra }, { onExchange: (_n, f) => flows.push(f) });
  t.teardown(() => proxy.stop());
  return { proxy, flows };
}

t.test("a streamed answer arrives chunk by chunk, in order, byte for byte", async (t) => {
  const stub = await stubTarget(t);
  const { proxy, flows } = await proxyTo(t, stub.url, { captureBytes: 1024 });
  const chunks = [randomBytes(70_000), randomBytes(5), randomBytes(300_000), Buffer.from("end\n")];
  const answer = request(`${proxy.baseUrl}/v2/ep1/stream/job-1`, { headers: { authorization: "Bearer k-0123456789abcdef" } });
  const { req, res } = await stub.next();
  t.equal(req.url, "/v2/ep1/stream/job-1", "the path unchanged");
  t.equal(req.headers.authorization, "Bearer k-0123456789abcdef", "the key passes through");
  res.writeHead(200, { "content-type": "application/octet-stream", "x-custom": "kept" });
  res.write(chunks[0]);
  const got = await answer;
  t.equal(got.statusCode, 200);
  t.equal(got.headers["x-custom"], "kept");
  const received: Buffer[] = [];
  let have = 0;
  const iterator = got.body[Symbol.asyncIterator]();
  for (const [i, chunk] of chunks.entries()) {
    // The client has every byte of chunk i before the target writes chunk i+1.
    const want = have + chunk.length;
    while (have < want) {
      const { value, done } = await iterator.next();
      if (done) break;
      received.push(value as Buffer);
      have += (value as Buffer).length;
    }
    t.equal(have, want, `chunk ${i} arrived before the next was written`);
    if (i + 1 < chunks.length) res.write(chunks[i + 1]);
    else res.end();
  }
  t.ok((await iterator.next()).done, "the answer ends when the target's does");
  t.ok(Buffer.concat(received).equals(Buffer.concat(chunks)), "byte for byte");
  await proxy.stop();
  t.equal(flows.length, 1);
  t.equal(flows[0].response?.size, Buffer.concat(chunks).length, "judged on its size");
  t.equal(flows[0].response?.truncated, true, "and its head: the body is above the capture bound");
});

t.test("a long poll is held until the target answers, and a large request body goes through whole", async (t) => {
  const stub = await stubTarget(t);
  const { proxy, flows } = await proxyTo(t, stub.url, { captureBytes: 1024 });
  const payload = randomBytes(200_000).toString("base64");
  const body = JSON.stringify({ input: { data: payload } });
  const pending = request(`${proxy.baseUrl}/v2/ep1/runsync?wait=300000`, { method: "POST", headers: { "content-type": "application/json" }, body });
  const { req, res, body: arrived } = await stub.next();
  t.equal(req.url, "/v2/ep1/runsync?wait=300000", "query unchanged");
  t.equal(arrived.toString(), body, "the request body arrives whole");
  t.equal(flows.length, 0, "nothing answered while the target holds the request");
  const answer = JSON.stringify({ id: "job-1", status: "COMPLETED", output: { ok: true } });
  res.writeHead(200, { "content-type": "application/json", "set-cookie": ["a=1", "b=2"] }).end(answer);
  const got = await pending;
  t.equal(await got.body.text(), answer, "the held answer, unchanged");
  t.same(got.headers["set-cookie"], ["a=1", "b=2"], "repeated headers stay repeated");
  await proxy.stop();
  t.equal(flows[0].requestSize, Buffer.byteLength(body));
  t.equal(flows[0].requestTruncated, true);
});

t.test("statuses, headers and bodies unchanged; upstream connections kept alive", async (t) => {
  const stub = await stubTarget(t);
  const { proxy } = await proxyTo(t, stub.url);
  for (const [status, type, text] of [
    [418, "text/plain; charset=latin1", "I'm a teapot"],
    [204, undefined, ""],
    [503, "application/problem+json", '{"title":"Service Unavailable","status":503,"detail":"x"}'],
  ] as const) {
    const pending = request(`${proxy.baseUrl}/v2/pods/p1`, { method: "GET" });
    const { res } = await stub.next();
    res.writeHead(status, { ...(type ? { "content-type": type } : {}), "x-trace": "abc, def", etag: '"v1"' }).end(text);
    const got = await pending;
    t.equal(got.statusCode, status);
    if (type) t.equal(got.headers["content-type"], type);
    t.equal(got.headers["x-trace"], "abc, def");
    t.equal(got.headers["etag"], '"v1"');
    t.equal(await got.body.text(), text);
  }
  t.equal(stub.connections(), 1, "three exchanges over one kept-alive connection to the target");
});

t.test("against the emulator: the same bytes through the proxy as directly", async (t) => {
  const s = await emulatorBehindProxy(t);
  const headers = { authorization: `Bearer ${s.key}` };
  for (const path of ["/v2/catalog/gpus", "/v2/catalog/cpus", "/v2/pods/no-such-pod"]) {
    const direct = await request(`${s.emulator.baseUrl}${path}`, { headers });
    const proxied = await request(`${s.proxy.baseUrl}${path}`, { headers });
    t.equal(proxied.statusCode, direct.statusCode, `${path}: status`);
    t.equal(proxied.headers["content-type"], direct.headers["content-type"], `${path}: content type`);
    t.ok(Buffer.from(await proxied.body.arrayBuffer()).equals(Buffer.from(await direct.body.arrayBuffer())), `${path}: bytes`);
  }
  // A runsync the emulator holds until its job completes, and the job's stream, through the proxy.
  const run = await request(`${s.proxy.serverlessUrl}/v2/conformance/runsync`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ input: { op: "stream", chunks: 3, bytes: 4, ms: 10 } }),
  });
  const done = (await run.body.json()) as { id: string; status: string };
  t.equal(done.status, "COMPLETED", "runsync held until the job completed");
  const direct = await (await request(`${s.emulator.serverlessUrl}/v2/conformance/status/${done.id}`, { headers })).body.text();
  const proxied = await (await request(`${s.proxy.serverlessUrl}/v2/conformance/status/${done.id}`, { headers })).body.text();
  t.equal(proxied, direct, "the job's record, byte for byte");
});

t.test("a small request body arrives whole and is judged whole; a client that leaves mid-answer stops the target's answer", async (t) => {
  const stub = await stubTarget(t);
  const { proxy, flows } = await proxyTo(t, stub.url);
  const body = JSON.stringify({ input: { op: "echo", n: 1 } });
  const pending = request(`${proxy.baseUrl}/v2/ep1/run`, { method: "POST", headers: { "content-type": "application/json", "x-custom": "kept" }, body });
  const first = await stub.next();
  t.equal(first.body.toString(), body, "the body, whole");
  t.equal(first.req.headers["content-length"], String(Buffer.byteLength(body)), "with its length");
  t.equal(first.req.headers["x-custom"], "kept");
  first.res.writeHead(200, { "content-type": "application/json" }).end('{"id":"job-1","status":"IN_QUEUE"}');
  t.equal(await (await pending).body.text(), '{"id":"job-1","status":"IN_QUEUE"}');

  // A stream the client abandons after its first chunk: the proxy lets go of the target's answer.
  const controller = new AbortController();
  const streamed = request(`${proxy.baseUrl}/v2/ep1/stream/job-1`, { signal: controller.signal }).catch((e: Error) => e);
  const second = await stub.next();
  const upstreamClosed = new Promise<void>((resolve) => second.res.on("close", () => resolve()));
  second.res.writeHead(200, { "content-type": "application/octet-stream" });
  second.res.write(Buffer.alloc(1000, 1));
  const got = await streamed;
  t.notOk(got instanceof Error, "the answer started");
  controller.abort();
  await upstreamClosed;
  t.ok(second.res.destroyed || !second.res.writableFinished, "the target's answer was cut off, not finished");
  await proxy.stop();
  t.equal(flows.length, 2);
  t.equal(flows[0].requestText, body, "judged on the whole body");
  t.equal(flows[0].requestSize, Buffer.byteLength(body));
  t.equal(flows[0].requestTruncated, false);
  t.equal(flows[0].response?.text, '{"id":"job-1","status":"IN_QUEUE"}');
  t.match(flows[1].error ?? "", /^the answer was cut: /, "the abandoned answer is reported as cut");
});

t.test("an answer of known length sent in pieces reaches the client piece by piece", async (t) => {
  const stub = await stubTarget(t);
  const { proxy, flows } = await proxyTo(t, stub.url);
  const first = Buffer.from('{"id":"job-1",');
  const second = Buffer.from('"status":"IN_QUEUE"}');
  const pending = request(`${proxy.baseUrl}/v2/ep1/status/job-1`);
  const { res } = await stub.next();
  res.writeHead(200, { "content-type": "application/json", "content-length": String(first.length + second.length) });
  res.write(first);
  const got = await pending;
  t.equal(got.headers["content-length"], String(first.length + second.length), "its length unchanged");
  const iterator = got.body[Symbol.asyncIterator]();
  const head = (await iterator.next()).value as Buffer;
  t.equal(head.toString(), first.toString(), "the first piece arrives before the target sends the second");
  res.end(second);
  const rest: Buffer[] = [];
  for (let r = await iterator.next(); !r.done; r = await iterator.next()) rest.push(r.value as Buffer);
  t.equal(Buffer.concat(rest).toString(), second.toString(), "then the second");
  await proxy.stop();
  t.equal(flows[0].response?.text, `${first}${second}`, "judged on the whole answer");
});
