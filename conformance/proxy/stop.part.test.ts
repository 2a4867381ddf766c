/**
 * However the proxy stops, the stop completes and the report holds the traffic: a target that
 * refuses an oversized upload while the client is still sending (the client then finishing its
 * upload, or resetting its connection), a client that leaves mid-upload. Before the fix the stop
 * never resolved: the paused client socket held the listener open with nothing left to wake it,
 * and the process ran out of work with the stop pending (exit 13, no report).
 */
import { request as httpRequest, createServer, type ClientRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import t, { type Test } from "tap";
import { startProxy } from "./proxy.ts";

/** A target that answers 413 to every POST at once, without reading its body. */
async function refusingTarget(t: Test): Promise<string> {
  const server = createServer((req, res) => {
    const body = JSON.stringify({ title: "Content Too Large", status: 413 });
    res.writeHead(req.method === "POST" ? 413 : 200, { "content-type": "application/problem+json", "content-length": Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Starts an upload of `mb` MiB, chunked; resolves with the request once the answer's status arrived. */
function upload(base: string, mb: number): Promise<{ req: ClientRequest; res: IncomingMessage; sendRest: () => Promise<void> }> {
  const url = new URL(`${base}/v2/ep1/run`);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/json" } });
    req.on("error", () => {});
    const chunk = Buffer.alloc(1 << 20, 0x61);
    let sent = 0;
    // Written without waiting for 'drain': a ClientRequest whose answer has ended no longer hears it.
    const sendRest = async () => {
      while (sent < mb && !req.destroyed) {
        sent++;
        req.write(chunk);
        await new Promise<void>((r) => setImmediate(r));
      }
      if (!req.destroyed) await new Promise<void>((r) => req.end('"}}', r));
    };
    req.write('{"input":{"x":"');
    req.write(chunk);
    sent = 1;
    req.on("response", (res) => {
      res.resume();
      resolve({ req, res, sendRest });
    });
    req.on("error", reject);
  });
}

t.test("a target refusing an upload the client is still sending: the stop completes and reports the exchange", async (t) => {
  const target = await refusingTarget(t);
  const proxy = await startProxy({ target, reportDir: t.testdir() });
  const { res, sendRest } = await upload(proxy.baseUrl, 12);
  t.equal(res.statusCode, 413, "the refusal reaches the client");
  const stopped = proxy.stop();
  await sendRest();
  const { report } = await stopped;
  t.equal(report.requests, 1, "the exchange is in the report");
});

t.test("a client that resets its connection after the refusal: the stop completes", async (t) => {
  const target = await refusingTarget(t);
  const proxy = await startProxy({ target, reportDir: t.testdir() });
  const { req, res } = await upload(proxy.baseUrl, 12);
  t.equal(res.statusCode, 413);
  const stopped = proxy.stop();
  req.destroy();
  const { report } = await stopped;
  t.equal(report.requests, 1);
});
