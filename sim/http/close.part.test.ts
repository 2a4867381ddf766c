// Graceful stop: close() stops accepting, lets a request in flight finish, answers parked waits
// with 503 problem+json, and is bounded when a client never finishes.
import t from "tap";
import { request } from "undici";
import { call, rawExchange, sleep, startTestServer, statusOf } from "./test-helpers.ts";

t.test("an in-flight request finishes; a parked wait gets 503; new connections are refused", async (t) => {
  const s = await startTestServer({ clock: "manual" });
  // A request whose body is still arriving when close() is called.
  let sendRest: (() => void) | undefined;
  const inFlight = rawExchange(s.port, async (send) => {
    const body = '{"in":"flight"}';
    send(`POST /v2/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    await new Promise<void>((r) => (sendRest = r));
    send(body.slice(5));
  });
  const parked = call(s.url, "POST", "/v2/conformance/runsync", { body: { input: { ms: 60_000 } } });
  while (s.emulator.stats().waits < 1 || sendRest === undefined) await sleep(2);

  const closed = s.emulator.close();
  const waited = await parked;
  t.equal(waited.status, 503, "the parked wait is answered");
  t.equal(waited.headers["content-type"], "application/problem+json");
  t.equal(waited.body.detail, "the emulator is shutting down");

  await sleep(20);
  sendRest?.();
  const { response } = await inFlight;
  t.equal(statusOf(response), 200, "the in-flight request completed");
  t.match(response, /"in":"flight"/);
  t.match(response, /connection: close/i);
  await closed;
  await t.rejects(request(s.url + "/v2/echo"), "no longer accepting");
  t.equal(await s.emulator.close(), undefined, "close() is idempotent");
});

t.test("close() is bounded when a client never finishes its request", async (t) => {
  const s = await startTestServer({ clock: "manual", limits: { closeGraceMs: 200, requestTimeoutMs: 60_000, headersTimeoutMs: 60_000 } });
  const stuck = rawExchange(s.port, (send) => {
    send("POST /v2/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
  });
  await sleep(50);
  const started = performance.now();
  await s.emulator.close();
  t.comment(`closed in ${(performance.now() - started).toFixed(0)} ms`);
  // close() resolved with the stuck request unfinished: the grace ended it (no wall-clock bound asserted).
  t.equal((await stuck).closed, true);
});

t.test("idle keep-alive connections do not hold close() up", async (t) => {
  // Keep-alive and grace of ten minutes: were close() to wait for the idle connection, it would
  // not resolve in the test's time at all (no wall-clock bound asserted).
  const s = await startTestServer({ clock: "manual", limits: { keepAliveTimeoutMs: 600_000, closeGraceMs: 600_000 } });
  await call(s.url, "GET", "/v2/echo"); // leaves a keep-alive connection in undici's pool
  const started = performance.now();
  await s.emulator.close();
  t.comment(`closed in ${(performance.now() - started).toFixed(0)} ms`);
  t.pass("close() resolved with an idle keep-alive connection open");
});
