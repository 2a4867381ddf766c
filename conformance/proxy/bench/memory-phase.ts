/**
 * The memory figure of `npm run bench:proxy`: a proxy (its own child, default options: 4 MiB per
 * body, --max-capture-mb 64) in front of a stub job target whose COMPLETED answers carry a 300 KB
 * output; 2,000 jobs (run, then status) over 8 connections. The proxy's RSS idle, and after the
 * jobs (after a full GC, so the figure is what it holds, not garbage not yet collected).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";

const OUTPUT = "o".repeat(300 * 1024);
const RL = { ratelimit: '"minute";r=999999;t=60, "hour";r=999999;t=3600, "day";r=999999;t=86400', "ratelimit-policy": '"minute";q=1000000;w=60, "hour";q=1000000;w=3600, "day";q=1000000;w=86400' };

/** A job target: run answers IN_QUEUE, status COMPLETED with a 300 KB output. */
export async function stubJobTarget(): Promise<{ url: string; server: Server }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const status = /^\/v2\/ep\/status\/(.+)$/.exec(req.url ?? "");
      const body = status
        ? JSON.stringify({ id: status[1], status: "COMPLETED", delayTime: 1, executionTime: 2, output: OUTPUT })
        : JSON.stringify({ id: `job-${++n}`, status: "IN_QUEUE" });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...RL }).end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Runs `jobs` jobs through the proxy at `base`, `connections` at a time: run, then one status read. */
export async function runJobs(base: string, jobs: number, connections: number, key: string): Promise<void> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  let next = 0;
  const worker = async () => {
    while (next < jobs) {
      next++;
      const run = await request(`${base}/v2/ep/run`, { method: "POST", headers, body: '{"input":{"op":"echo"}}' });
      const { id } = (await run.body.json()) as { id: string };
      const status = await request(`${base}/v2/ep/status/${id}`, { headers });
      await status.body.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
}
