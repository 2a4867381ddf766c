/**
 * Test-only: an HTTP proxy on 127.0.0.1 (port 0) in front of a target that makes it slow by
 * construction. Every request is held `delayMs` before it is forwarded, and a request's body is
 * held a further `bytes / bytesPerS` seconds once read, so an answer never comes sooner than
 * `delayMs + bodyBytes / bytesPerS` after the request ended, whatever the machine's load: a slow
 * target without a wall-clock assumption.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface DelayingProxy {
  readonly url: string;
  /** Requests forwarded so far. */
  readonly forwarded: () => number;
  close(): Promise<void>;
}

const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "host", "content-length"]);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function forwardHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
  return out;
}

export async function startDelayingProxy(upstream: string, o: { readonly delayMs: number; readonly bytesPerS: number }): Promise<DelayingProxy> {
  const target = new URL(upstream);
  let count = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      void (async () => {
        await sleep(o.delayMs + (body.length * 1000) / o.bytesPerS);
        count++;
        const out = httpRequest(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...forwardHeaders(req.headers), "content-length": String(body.length) } },
          (up) => {
            const headers = forwardHeaders(up.headers);
            res.writeHead(up.statusCode ?? 502, headers);
            up.pipe(res);
          },
        );
        out.on("error", (err) => {
          if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
          res.end(`proxy: ${err.message}`);
        });
        out.end(body);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded: () => count,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
