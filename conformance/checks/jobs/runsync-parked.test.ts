/**
 * A runsync that reaches the target late: on a busy machine a 20 MB body took longer to arrive
 * than the suite took to spend the wait's whole budget of virtual time, so the job then sat in a
 * manual clock nobody moved, and the rule ended in a 30 s target error (`npm start` exited 2).
 * Here a proxy in front of the manual-clock emulator holds every runsync until the suite next
 * reads the clock (or 200 more requests came): the suite must move time only once its request is
 * parked (`waits_parked` of `GET /_sim/clock`).
 */
import { mkdtempSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { startEmulator } from "../../../sim/http/index.ts";
import { PlatformBackend } from "../../../sim/http/platform-backend.ts";
import { conform } from "../../conform.ts";
import { embeddedCatalog, embeddedKeys } from "../../embedded.ts";
import "./index.ts";

/** Forwards to `upstream`, holding each runsync until a clock read (or 200 requests) follows it. */
async function lateRunsyncProxy(upstream: string) {
  const held: (() => void)[] = [];
  let since = 0;
  let heldCount = 0;
  const release = () => {
    for (const go of held.splice(0)) go();
  };
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const out = httpRequest(new URL(req.url ?? "/", upstream), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on("error", () => res.destroy());
    out.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.method === "POST" && /\/runsync(\?|$)/.test(req.url ?? "")) {
        heldCount++;
        since = 0;
        held.push(() => forward(req, res, body));
        return;
      }
      since++;
      if (held.length > 0 && ((req.method === "GET" && req.url === "/_sim/clock") || since >= 200)) release();
      forward(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    held: () => heldCount,
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

t.test("a runsync parked late still gets its wait of virtual time", async (t) => {
  const catalog = embeddedCatalog();
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, seed: 1, clock: "manual", createBackend: (o) => new PlatformBackend({ ...o, catalog }) });
  t.teardown(() => emulator.close());
  const proxy = await lateRunsyncProxy(emulator.baseUrl);
  t.teardown(() => proxy.close());
  const keys = embeddedKeys(catalog);
  const { report } = await conform({
    target: proxy.url,
    serverlessUrl: proxy.url,
    apiKey: keys.api,
    seed: 1,
    runs: 2,
    only: ["jobs.runsync.complete-result"],
    minCoverage: 0,
    // The held request is answered at once once time moves; without the fix it waited this long and failed.
    timeoutMs: 10_000,
    quiet: true,
    reportDir: mkdtempSync(join(tmpdir(), "cpsim-runsync-parked-")),
  }, { controlApi: true });
  t.ok(proxy.held() > 0, "runsync requests were held back");
  const rule = report.rules.find((r) => r.id === "jobs.runsync.complete-result");
  t.equal(rule?.status, "pass", `the rule passes (${rule?.status}: ${rule?.reason ?? ""})`);
  t.same(report.targetErrors ?? [], [], "no target errors");
});
