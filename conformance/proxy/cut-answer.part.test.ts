// A client that closes its connection part-way through a large answer: the cut-off body is no verdict on the target (it was whole when the target sent it).
import { get } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import t from "tap";
import type { Finding } from "../passive/passive-judge.ts";
import { startProxy } from "./proxy.ts";

t.test("a client leaving after 130 KB of a 6 MB JSON answer: no target finding", async (t) => {
  const output = "x".repeat(6 * 1024 * 1024);
  const body = Buffer.from(JSON.stringify({ id: "job-1", status: "COMPLETED", executionTime: 5, delayTime: 1, output }));
  const target = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length, ratelimit: '"minute";r=99;t=60, "hour";r=999;t=3600, "day";r=9999;t=86400', "ratelimit-policy": '"minute";q=100;w=60, "hour";q=1000;w=3600, "day";q=10000;w=86400' });
    // In pieces, so the client can leave before the end.
    let at = 0;
    const next = () => {
      while (at < body.length) {
        const piece = body.subarray(at, at + 64 * 1024);
        at += piece.length;
        if (!res.write(piece)) return void res.once("drain", next);
      }
      res.end();
    };
    res.on("close", () => (at = body.length));
    next();
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  t.teardown(() => {
    target.closeAllConnections();
    target.close();
  });
  const findings: Finding[] = [];
  const proxy = await startProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}`, reportDir: t.testdir() }, { onFinding: (f) => findings.push(f) });
  const url = new URL(`${proxy.baseUrl}/v2/ep1/status/job-1`);
  await new Promise<void>((resolve) => {
    get({ host: url.hostname, port: url.port, path: url.pathname, headers: { authorization: "Bearer k-1234567890" } }, (res) => {
      let got = 0;
      res.on("data", (c: Buffer) => {
        got += c.length;
        if (got >= 130 * 1024) res.destroy();
      });
      res.on("close", () => resolve());
    });
  });
  const { report, lateFindings } = await proxy.stop();
  t.equal(report.requests, 1, "the exchange was seen");
  t.same([...findings, ...lateFindings].filter((f) => f.side === "target").map((f) => `${f.rule.id}: ${f.expected}`), [], "no target finding");
});
