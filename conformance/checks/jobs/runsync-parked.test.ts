/**
 * A runsync that reaches the target late: on a busy machine a 20 MB body took longer to arrive
 * than the suite took to spend the wait's whole budget of virtual time, so the job then sat in a
 * manual clock nobody moved, and the rule ended in a 30 s target error (`npm start` exited 2).
 * Here a proxy in front of the manual-clock emulator holds every runsync until the suite next
 * reads the clock (or 200 more requests came): the suite must move time only once its request is
 * parked (`waits_parked` of `GET /_sim/clock`).
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import t from "tap";
import { conformThroughProxy, listening } from "../../test-support/jobs/manual-clock-behind-proxy.ts";
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
  const { url, close } = await listening(server);
  return {
    url,
    held: () => heldCount,
    close: () => {
      release();
      return close();
    },
  };
}

t.test("a runsync parked late still gets its wait of virtual time", async (t) => {
  // The held request is answered at once once time moves; without the fix it waited the timeout and failed.
  const { proxy, report } = await conformThroughProxy(t, lateRunsyncProxy, "jobs.runsync.complete-result", { runs: 2, timeoutMs: 10_000 });
  t.ok(proxy.held() > 0, "runsync requests were held back");
  const rule = report.rules.find((r) => r.id === "jobs.runsync.complete-result");
  t.equal(rule?.status, "pass", `the rule passes (${rule?.status}: ${rule?.reason ?? ""})`);
  t.same(report.targetErrors ?? [], [], "no target errors");
});
