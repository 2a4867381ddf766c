/**
 * Stand-alone targets that would fool a suite whose verdicts are not earned: plain node:http
 * servers on 127.0.0.1 port 0 that the suite reaches over HTTP only, like any target. Each is a
 * few lines on purpose: what they do wrong (or leave out) must be obvious from reading them.
 * Imported by tests only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface GateTarget {
  readonly url: string;
  /** Every request it received, as "METHOD /path?query". */
  readonly seen: string[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

export async function startGateTarget(handler: Handler): Promise<GateTarget> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push(`${req.method} ${req.url}`);
      handler(req, Buffer.concat(chunks).toString("utf8"), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, type = "application/json"): void {
  res.writeHead(status, { "content-type": type });
  res.end(JSON.stringify(body));
}

const notFound = (res: ServerResponse) => {
  res.writeHead(404, { "content-type": "text/plain" });
  res.end("Not Found");
};

/** Answers 404 to every request: it serves no route at all. */
export function notFoundEverywhere(): Promise<GateTarget> {
  return startGateTarget((_req, _body, res) => notFound(res));
}

const HEALTH = { jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 }, workers: { idle: 1, running: 0 } };

/** Serves the health of one job endpoint, and 404 to everything else (no run, runsync, retry ...). */
export function healthOnly(endpoint = "conformance"): Promise<GateTarget> {
  return startGateTarget((req, _body, res) => {
    if (req.method === "GET" && req.url === `/v2/${endpoint}/health`) return sendJson(res, 200, HEALTH);
    notFound(res);
  });
}

/**
 * Serves an endpoint's health to the keys it knows (Bearer), 401 to any other key: a rotated or
 * wrong key meets this target. `known` maps a key to the answer it gets (default 200).
 */
export function keyedHealth(known: readonly string[], endpoint = "conformance"): Promise<GateTarget> {
  return startGateTarget((req, _body, res) => {
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!key || !known.includes(key)) return sendJson(res, 401, { type: "about:blank", title: "Unauthorized", status: 401, detail: "invalid API key" }, "application/problem+json");
    if (req.method === "GET" && req.url === `/v2/${endpoint}/health`) return sendJson(res, 200, HEALTH);
    notFound(res);
  });
}
