import t from "tap";
import { Client, type ClientOptions } from "./client.ts";
import { TargetError } from "./errors.ts";
import { sendJson, startTestServer } from "./test-support/test-server.ts";

/** A fake clock: sleeping moves it, so waits are measured exactly and cost no real time. */
function fakeClock() {
  let now = 1_000_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

function client(extra: Partial<ClientOptions> = {}): Client {
  const c = Client.create({ timeoutMs: 2000, keys: { api: "sk-api-0123456789", other: "sk-other-9876543210" }, ...extra });
  return c;
}

t.test("a 429 with Retry-After is waited out and the request sent again", async (t) => {
  const server = await startTestServer((_req, res, i) =>
    i === 0 ? sendJson(res, 429, { title: "Too Many Requests" }, { "retry-after": "2" }) : sendJson(res, 200, { ok: true }),
  );
  t.teardown(() => server.close());
  const clock = fakeClock();
  const c = client(clock);
  t.teardown(() => c.close());
  const res = await c.request({ method: "GET", url: `${server.url}/v2/pods`, auth: { key: "api" } });
  t.equal(res.status, 200);
  t.equal(res.retries, 1);
  t.same(clock.sleeps, [2050], "Retry-After 2 s plus the margin");
  t.equal(server.received.length, 2);
  t.same(c.exchanges().map((e) => e.response?.status), [429, 200], "both attempts are recorded");
  t.equal(c.stats.retried429, 1);
});

t.test("the same with real time: the retry lands after Retry-After", async (t) => {
  const times: number[] = [];
  const server = await startTestServer((_req, res, i) => {
    times.push(Date.now());
    return i === 0 ? sendJson(res, 429, {}, { "retry-after": "1" }) : sendJson(res, 200, {});
  });
  t.teardown(() => server.close());
  const c = client();
  t.teardown(() => c.close());
  const res = await c.request({ method: "GET", url: server.url, auth: { key: "api" } });
  t.equal(res.status, 200);
  t.ok(times[1] - times[0] >= 1000, `waited ${times[1] - times[0]} ms`);
});

t.test("a raw client (the rate-limit rules') sees the 429 as it is", async (t) => {
  const server = await startTestServer((_req, res) => sendJson(res, 429, {}, { "retry-after": "30", ratelimit: `"minute";r=0;t=30` }));
  t.teardown(() => server.close());
  const clock = fakeClock();
  const c = client(clock).scoped({ raw429: true });
  const first = await c.request({ method: "GET", url: server.url, auth: { key: "other" } });
  const second = await c.request({ method: "GET", url: server.url, auth: { key: "other" } });
  t.equal(first.status, 429);
  t.equal(second.status, 429);
  t.same(clock.sleeps, [], "no pacing and no retry");
});

t.test("RateLimit remaining 0: the next request with that key waits until the reset", async (t) => {
  const server = await startTestServer((_req, res, i) =>
    sendJson(res, 200, {}, { ratelimit: i === 0 ? `"minute";r=0;t=3, "day";r=500;t=80000` : `"minute";r=59;t=60` }),
  );
  t.teardown(() => server.close());
  const clock = fakeClock();
  const c = client(clock);
  t.teardown(() => c.close());
  await c.request({ method: "GET", url: server.url, auth: { key: "api" } });
  await c.request({ method: "GET", url: server.url, auth: { key: "other" } });
  t.same(clock.sleeps, [], "another key (another user) is not held back");
  await c.request({ method: "GET", url: server.url, auth: { key: "api" } });
  t.same(clock.sleeps, [3050], "waits for the minute window's reset");
  await c.request({ method: "GET", url: server.url, auth: { key: "api" } });
  t.same(clock.sleeps, [3050], "no further wait once the window has room");
});

t.test("the pacer also counts requests the target has not yet reported", async (t) => {
  const server = await startTestServer((_req, res, i) => sendJson(res, 200, {}, i === 0 ? { ratelimit: `"minute";r=1;t=10` } : {}));
  t.teardown(() => server.close());
  const clock = fakeClock();
  const c = client(clock);
  t.teardown(() => c.close());
  await c.request({ method: "GET", url: server.url, auth: { key: "api" } });
  await c.request({ method: "GET", url: server.url, auth: { key: "api" } });
  t.same(clock.sleeps, []);
  await c.request({ method: "GET", url: server.url, auth: { key: "api" } });
  t.same(clock.sleeps, [10050], "the last allowed request was spent without a header saying so");
});

t.test("a 429 without Retry-After waits for the spent window's reset", async (t) => {
  const server = await startTestServer((_req, res, i) =>
    i === 0 ? sendJson(res, 429, {}, { ratelimit: `"minute";r=0;t=7` }) : sendJson(res, 200, {}),
  );
  t.teardown(() => server.close());
  const clock = fakeClock();
  const c = client(clock);
  t.teardown(() => c.close());
  t.equal((await c.request({ method: "GET", url: server.url, auth: { key: "api" } })).status, 200);
  t.same(clock.sleeps, [7050]);
});

t.test("waits are bounded: too long a Retry-After is a target error, not a hang", async (t) => {
  const server = await startTestServer((_req, res) => sendJson(res, 429, {}, { "retry-after": "3600" }));
  t.teardown(() => server.close());
  const clock = fakeClock();
  const c = client(clock);
  t.teardown(() => c.close());
  const err = await c.request({ method: "POST", url: `${server.url}/v2/pods`, json: { a: 1 }, auth: { key: "api" } }).catch((e) => e);
  t.type(err, TargetError);
  t.equal(err.code, "CPSIM_ERR_TARGET_RATE_LIMITED");
  t.match(err.message, /3600 s is over the limit of 65 s/);
  t.equal(err.request.url, `${server.url}/v2/pods`);
  t.same(clock.sleeps, []);
});

t.test("waits are bounded in total over the run", async (t) => {
  const server = await startTestServer((_req, res) => sendJson(res, 429, {}, { "retry-after": "40" }));
  t.teardown(() => server.close());
  const clock = fakeClock();
  const c = client({ ...clock, pacing: { budgetMs: 100_000, maxRetries: 10 } });
  t.teardown(() => c.close());
  const err = await c.request({ method: "GET", url: server.url, auth: { key: "api" } }).catch((e) => e);
  t.equal(err.code, "CPSIM_ERR_TARGET_RATE_LIMITED");
  t.match(err.message, /budget of 100 s/);
  t.same(clock.sleeps, [40050, 40050]);
});

t.test("after maxRetries 429s the 429 is returned", async (t) => {
  const server = await startTestServer((_req, res) => sendJson(res, 429, {}, { "retry-after": "0" }));
  t.teardown(() => server.close());
  const clock = fakeClock();
  const c = client({ ...clock, pacing: { maxRetries: 2 } });
  t.teardown(() => c.close());
  const res = await c.request({ method: "GET", url: server.url });
  t.equal(res.status, 429);
  t.equal(server.received.length, 3);
});

t.test("a target that does not answer in time raises a timeout TargetError with the request", async (t) => {
  const server = await startTestServer(async (req, res) => {
    if (req.url === "/stall-body") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"partial":');
    }
    await new Promise((r) => setTimeout(r, 1500));
    res.end("}");
  });
  t.teardown(() => server.close());
  const c = client({ timeoutMs: 200 });
  t.teardown(() => c.close());
  for (const path of ["/stall-headers", "/stall-body"]) {
    // Gave up at the timeout: waiting on would have met the whole answer (after 1.5 s), not an error.
    const err = await c.request({ method: "POST", url: `${server.url}${path}`, json: { input: {} }, auth: { key: "api" } }).catch((e) => e);
    t.type(err, TargetError, path);
    t.equal(err.code, "CPSIM_ERR_TARGET_TIMEOUT");
    t.match(err.message, /no complete answer within 200 ms/);
    t.equal(err.request.method, "POST");
    t.equal(err.request.headers.authorization, "Bearer ${CPSIM_API_KEY}", "the request is carried, redacted");
  }
  const quick = await c.request({ method: "GET", url: server.url, timeoutMs: 3000 });
  t.equal(quick.status, 200, "a per-request timeout overrides the client's");
});

t.test("a refused connection raises a connection TargetError", async (t) => {
  const server = await startTestServer((_req, res) => sendJson(res, 200, {}));
  const url = server.url;
  await server.close();
  const c = client();
  t.teardown(() => c.close());
  const err = await c.request({ method: "GET", url: `${url}/v2/pods` }).catch((e) => e);
  t.type(err, TargetError);
  t.equal(err.code, "CPSIM_ERR_TARGET_CONNECTION");
  t.match(err.message, /ECONNREFUSED/);
  t.equal(err.exitCode, 2);
  t.equal(c.exchanges().length, 2, "the GET and its one retry are recorded, without a response");
  t.equal(c.exchanges()[0].response, undefined);
});

t.test("keys never reach a recording, in any position", async (t) => {
  const server = await startTestServer((req, res) => sendJson(res, 200, { seen: req.headers.authorization ?? null, echo: req.body.toString() }));
  t.teardown(() => server.close());
  const c = client();
  t.teardown(() => c.close());
  const api = "sk-api-0123456789";
  await c.request({ method: "GET", url: `${server.url}/v2/pods`, auth: { key: "api" } });
  await c.request({ method: "POST", url: `${server.url}/graphql`, auth: { key: "other", via: "query" }, json: { query: "{ myself { id } }" } });
  await c.request({ method: "POST", url: `${server.url}/x`, auth: { key: "api", via: "raw" }, json: { note: `copy of ${api}` } });
  await c.request({ method: "GET", url: `${server.url}/y`, auth: { literal: `${api.slice(0, -1)}X` } });
  await c.request({ method: "GET", url: `${server.url}/z`, auth: { literal: "not-a-key" } });
  t.equal(server.received[0].headers.authorization, `Bearer ${api}`, "the target got the real key");
  t.match(server.received[1].url, /api_key=sk-other-9876543210/);
  const recorded = JSON.stringify(c.exchanges().map((e) => e.request));
  t.notOk(recorded.includes(api) || recorded.includes("sk-other-9876543210") || recorded.includes("0123456789"), "no key, nor most of one");
  const requests = c.exchanges().map((e) => e.request);
  t.equal(requests[0].headers.authorization, "Bearer ${CPSIM_API_KEY}");
  t.match(requests[1].url, /\/graphql\?api_key=\$\{CPSIM_OTHER_API_KEY\}$/);
  t.equal(requests[2].headers.authorization, "${CPSIM_API_KEY}");
  t.same(requests[2].body, { kind: "text", text: '{"note":"copy of ${CPSIM_API_KEY}"}' });
  t.equal(requests[3].headers.authorization, "<redacted>", "a key with one character changed leaks too much to keep");
  t.equal(requests[4].headers.authorization, "Bearer not-a-key", "a made-up key is kept, so the replay sends it");
});

t.test("recordings are bounded: exchanges and body sizes", async (t) => {
  const server = await startTestServer((_req, res) => sendJson(res, 200, { pad: "x".repeat(5000) }));
  t.teardown(() => server.close());
  const c = client({ recordCapacity: 3, recordBodyLimit: 100 });
  t.teardown(() => c.close());
  for (let i = 0; i < 5; i++) await c.request({ method: "GET", url: `${server.url}/${i}` });
  const kept = c.exchanges();
  t.same(kept.map((e) => new URL(e.request.url).pathname), ["/2", "/3", "/4"]);
  t.equal(kept[0].response?.body.length, 100);
  t.equal(kept[0].response?.truncated, true);
  t.equal(kept[0].response?.size, 5010);
  t.equal(c.stats.requests, 5);
  const res = await c.request({ method: "GET", url: server.url });
  t.equal((res.json as { pad: string }).pad.length, 5000, "the check itself sees the whole body");
});

t.test("an answer over the size limit is a target error", async (t) => {
  const server = await startTestServer((_req, res) => sendJson(res, 200, { pad: "x".repeat(10_000) }));
  t.teardown(() => server.close());
  const c = client({ maxResponseBytes: 1000 });
  t.teardown(() => c.close());
  const err = await c.request({ method: "GET", url: server.url }).catch((e) => e);
  t.equal(err.code, "CPSIM_ERR_TARGET_RESPONSE_TOO_LARGE");
});

t.test("scoped clients keep their own recordings and share the counts", async (t) => {
  const server = await startTestServer((_req, res) => sendJson(res, 200, {}));
  t.teardown(() => server.close());
  const root = client();
  t.teardown(() => root.close());
  const a = root.scoped();
  const b = root.scoped();
  await a.request({ method: "GET", url: server.url });
  await b.request({ method: "GET", url: server.url });
  await b.request({ method: "GET", url: server.url });
  t.equal(a.exchanges().length, 1);
  t.equal(b.exchanges().length, 2);
  t.equal(root.stats.requests, 3);
});

t.test("a reset or timeout on an idempotent request is retried once; a POST never is", async (t) => {
  // The first request of each path has its connection destroyed; the second is answered.
  const seen = new Map<string, number>();
  const server = await startTestServer(async (req, res) => {
    const n = (seen.get(req.url) ?? 0) + 1;
    seen.set(req.url, n);
    if (req.url.startsWith("/reset") && n === 1) return void res.socket?.destroy();
    if (req.url.startsWith("/reset-always")) return void res.socket?.destroy();
    if (req.url.startsWith("/slow") && n === 1) await new Promise((r) => setTimeout(r, 600));
    sendJson(res, 200, { n });
  });
  t.teardown(() => server.close());
  const c = client({ timeoutMs: 300 });
  t.teardown(() => c.close());

  const get = await c.request({ method: "GET", url: `${server.url}/reset/a` });
  t.equal(get.status, 200, "a GET whose connection was reset is sent again and answered");
  t.same(get.json, { n: 2 });
  const slow = await c.request({ method: "GET", url: `${server.url}/slow/b` });
  t.same(slow.json, { n: 2 }, "a GET that timed out is sent again");
  const marked = await c.request({ method: "POST", url: `${server.url}/reset/c`, json: {}, idempotent: true });
  t.equal(marked.status, 200, "a request marked idempotent is retried too");
  t.equal(c.stats.retriedFaults, 3);
  t.equal(c.stats.targetErrors, 0, "a fault the retry mended is no target error");

  const post = await c.request({ method: "POST", url: `${server.url}/reset/d`, json: {} }).catch((e) => e);
  t.type(post, TargetError, "a POST whose connection was reset is a target error at once");
  t.equal(seen.get("/reset/d"), 1, "and was sent once: it might have been done");
  const timedOut = await c.request({ method: "POST", url: `${server.url}/slow/e`, json: {} }).catch((e) => e);
  t.equal(timedOut.code, "CPSIM_ERR_TARGET_TIMEOUT");
  t.equal(seen.get("/slow/e"), 1, "a POST that timed out is not sent again");

  const twice = await c.request({ method: "GET", url: `${server.url}/reset-always/f` }).catch((e) => e);
  t.type(twice, TargetError, "a GET that fails twice is a target error");
  t.equal(seen.get("/reset-always/f"), 2, "after exactly one retry");
  t.equal(c.stats.targetErrors, 3);
});

t.test("requests in flight are bounded over every scoped client", async (t) => {
  let inFlight = 0;
  let most = 0;
  const server = await startTestServer(async (_req, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, 30));
    inFlight--;
    sendJson(res, 200, {});
  });
  t.teardown(() => server.close());
  const c = client({ maxInFlight: 3 });
  t.teardown(() => c.close());
  const a = c.scoped();
  const b = c.scoped();
  await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).request({ method: "GET", url: `${server.url}/x${i}` })));
  t.equal(most, 3, "never more than the bound at once");
  t.equal(a.sent + b.sent, 12, "each scoped client counts its own requests");
  t.equal(a.sent, 6);
});

t.test("a check's client counts the time its requests waited for quota, and so do the clients it was scoped from", async (t) => {
  const server = await startTestServer((_req, res, i) => sendJson(res, 200, {}, { ratelimit: i === 0 ? `"minute";r=0;t=4` : `"minute";r=50;t=30` }));
  t.teardown(() => server.close());
  const clock = fakeClock();
  const root = client(clock);
  t.teardown(() => root.close());
  const check = root.scoped();
  const beside = root.scoped();
  const inner = check.scoped();
  await beside.request({ method: "GET", url: server.url, auth: { key: "api" } });
  t.equal(beside.pacedMs, 0, "the answer that spent the window did not wait");
  await inner.request({ method: "GET", url: server.url, auth: { key: "api" } });
  t.same(clock.sleeps, [4050], "the next request with that key waited for the reset");
  t.equal(inner.pacedMs, 4050, "the client that sent it");
  t.equal(check.pacedMs, 4050, "the check's client it was scoped from");
  t.equal(beside.pacedMs, 0, "not another check's client");
  t.equal(root.longestRateLimitWaitMs, 4050, "the run's longest wait for quota");
});
