// Webhooks: the final job is POSTed to the URL the job gave, on loopback; a failed delivery is
// reported to the backend, which retries (bounded); an unreachable URL never hurts the server.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import t from "tap";
import { call, sleep, startTestServer } from "./test-helpers.ts";

interface Received {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly body: unknown;
}

/** A loopback receiver that answers each POST with the next status of `statuses` (then 200). */
async function receiver(statuses: number[]): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", contentType: req.headers["content-type"], body: JSON.parse(Buffer.concat(chunks).toString()) });
      res.statusCode = statuses.shift() ?? 200;
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hooks/job?token=abc`, received };
}

t.test("manual clock: delivered when due, retried after a 500", async (t) => {
  const hook = await receiver([500]);
  const s = await startTestServer({ clock: "manual" });
  t.teardown(async () => {
    await s.emulator.close();
    hook.server.close();
  });
  const run = await call(s.url, "POST", "/v2/conformance/run", { body: { input: { ms: 1000, n: 1 }, webhook: hook.url } });
  t.equal(run.status, 200);
  await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 999 } });
  t.equal(hook.received.length, 0, "not due yet");
  await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 1 } });
  t.equal(hook.received.length, 1, "first attempt made before the advance answered");
  t.same(hook.received[0], {
    path: "/hooks/job?token=abc",
    contentType: "application/json",
    body: { id: "job-1", status: "COMPLETED", output: { ms: 1000, n: 1 } },
  });
  // The receiver answered 500: the backend schedules a retry one virtual second later.
  await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 1000 } });
  t.equal(hook.received.length, 2, "retried");
  t.same(hook.received[1].body, hook.received[0].body);
  await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 10_000 } });
  t.equal(hook.received.length, 2, "a 200 ends the retries");
  t.equal(s.emulator.stats().webhooksDelivered, 1);
});

t.test("real clock: retries follow virtual time without any request", async (t) => {
  const hook = await receiver([500, 503]);
  const s = await startTestServer({ clock: "real", speed: 100 });
  t.teardown(async () => {
    await s.emulator.close();
    hook.server.close();
  });
  await call(s.url, "POST", "/v2/conformance/run", { body: { input: { ms: 100 }, webhook: hook.url } });
  for (let i = 0; i < 300 && hook.received.length < 3; i++) await sleep(10);
  t.equal(hook.received.length, 3, "two failures then a success");
  t.match(hook.received[2].body, { id: "job-1", status: "COMPLETED" });
});

t.test("unreachable, refusing and malformed webhook URLs never hurt the server", async (t) => {
  const s = await startTestServer({ clock: "manual", limits: { webhookTimeoutMs: 300 } });
  t.teardown(() => s.emulator.close());
  // A port that refuses, a listener that never answers, a bad scheme and no URL at all.
  const silent = createServer(() => undefined);
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  t.teardown(() => {
    silent.closeAllConnections();
    silent.close();
  });
  const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
  for (const webhook of ["http://127.0.0.1:1/", silentUrl, "ftp://127.0.0.1/x", "not a url"]) {
    await call(s.url, "POST", "/v2/conformance/run", { body: { input: { ms: 10 }, webhook } });
  }
  for (let i = 0; i < 4; i++) {
    const res = await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 1000 } });
    t.equal(res.status, 200);
  }
  t.equal(s.emulator.stats().webhooksDelivered, 0);
  t.equal(s.emulator.stats().webhooksPending, 0);
  t.equal((await call(s.url, "GET", "/v2/echo")).status, 200);
});
