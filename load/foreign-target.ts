/**
 * Test support: a small stand-alone HTTP server unlike the embedded emulator, for the load tests
 * that prove `cpsim load` adapts to the target it is pointed at. It has its own GPU catalog (ids
 * the emulator never uses, and a createPod that refuses any other with 422), an optional
 * fixed-window rate limit per key with RateLimit/RateLimit-Policy and Retry-After, an optional
 * runsync that holds every request, and a mode where every route answers 404. It counts what it
 * answered, so a test can say "no 429 was sent". Written by hand: it is a fake target, a few
 * routes of JSON, and a framework would hide what it answers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ForeignTargetOptions {
  /** GPU types of the catalog (GET /v2/catalog/gpus); createPod takes only these. */
  readonly gpus?: readonly { readonly id: string; readonly displayName: string; readonly counts: readonly number[] }[];
  /** CPU flavors (GET /v2/catalog/cpus). */
  readonly cpus?: readonly { readonly id: string; readonly vcpuCounts: readonly number[] }[];
  /** A fixed window per key: `quota` requests per `windowS` seconds, then 429. */
  readonly rateLimit?: { readonly quota: number; readonly windowS: number };
  /** runsync answers after this long. */
  readonly runsyncDelayMs?: number;
  /** Every route answers 404. */
  readonly notFound?: boolean;
  readonly endpoint?: string;
  /** Pods are terminated by POST /v2/pods/{id}/terminate only (DELETE answers 405). */
  readonly terminateByAction?: boolean;
}

export interface ForeignTarget {
  readonly url: string;
  /** Answers by status; POST /v2/pods bodies received; pods deleted. */
  readonly stats: { statuses: Record<number, number>; podBodies: unknown[]; deleted: number; requests: number };
  stop(): Promise<void>;
}

const MAX_BODY = 64 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startForeignTarget(o: ForeignTargetOptions = {}): Promise<ForeignTarget> {
  const endpoint = o.endpoint ?? "conformance";
  const gpus = o.gpus ?? [{ id: "acme-h200", displayName: "ACME H200 141GB", counts: [1, 2, 4] }];
  const cpus = o.cpus ?? [];
  const stats: ForeignTarget["stats"] = { statuses: {}, podBodies: [], deleted: 0, requests: 0 };
  const windows = new Map<string, { start: number; used: number }>();
  const jobs = new Map<string, { status: string; output: unknown }>();
  const pods = new Set<string>();
  let seq = 0;
  const holds = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
    const text = body === undefined ? "" : JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(text);
  };

  /** The rate-limit headers of this answer, and whether the request is over the quota. */
  const limit = (req: IncomingMessage): { headers: Record<string, string>; over: boolean } => {
    if (!o.rateLimit) return { headers: {}, over: false };
    const { quota, windowS } = o.rateLimit;
    const key = String(req.headers.authorization ?? new URL(req.url ?? "/", "http://x").searchParams.get("api_key") ?? "anonymous");
    const now = Date.now();
    let w = windows.get(key);
    if (!w || now - w.start >= windowS * 1000) windows.set(key, (w = { start: now, used: 0 }));
    const over = w.used >= quota;
    if (!over) w.used++;
    const reset = Math.max(1, Math.ceil((w.start + windowS * 1000 - now) / 1000));
    const headers: Record<string, string> = { ratelimit: `"window";r=${quota - w.used};t=${reset}`, "ratelimit-policy": `"window";q=${quota};w=${windowS}` };
    if (over) headers["retry-after"] = String(reset);
    return { headers, over };
  };

  const server = createServer(async (req, res) => {
    stats.requests++;
    let body: string;
    try {
      body = await readBody(req);
    } catch {
      // The client went away mid-upload (a load run ending while a 20 MB runsync is sent): an
      // "aborted" ECONNRESET that, left to the async handler, was an unhandled rejection.
      res.destroy();
      return;
    }
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname;
    const method = req.method ?? "GET";
    if (o.notFound) return send(res, 404, { error: `no route ${method} ${path}` });
    const rl = limit(req);
    if (rl.over) return send(res, 429, { error: "rate limit exceeded: window" }, rl.headers);
    const ok = (status: number, b: unknown) => send(res, status, b, rl.headers);
    if (method === "GET" && path === "/v2/catalog/gpus") return ok(200, { gpus: gpus.map((g) => ({ id: g.id, displayName: g.displayName, manufacturer: "Nvidia", availableGpuCounts: g.counts, stockStatus: g.counts.length ? "High" : "None" })) });
    if (method === "GET" && path === "/v2/catalog/cpus") return ok(200, { cpus: cpus.map((c) => ({ id: c.id, vcpu: { allowed: c.vcpuCounts }, ramGbPerVcpu: 2 })) });
    if (method === "GET" && path === "/v2/catalog/datacenters") return ok(200, { dataCenters: [{ id: "xx-1", globalNetwork: false }] });
    if (method === "GET" && path === "/v2/pods") return ok(200, { pods: [...pods].map((id) => ({ id })) });
    if (method === "POST" && path === "/v2/pods") {
      let pod: { gpu?: { id?: string; count?: number }; cpu?: { id?: string } } = {};
      try {
        pod = JSON.parse(body) as typeof pod;
      } catch {
        return ok(400, { error: "not JSON" });
      }
      stats.podBodies.push(pod);
      const gpu = pod.gpu && gpus.find((g) => g.id === pod.gpu?.id);
      const cpu = pod.cpu && cpus.find((c) => c.id === pod.cpu?.id);
      if (!gpu && !cpu) return ok(422, { error: `unknown GPU type or CPU flavor in ${body.slice(0, 200)}` });
      if (gpu && !gpu.counts.includes(pod.gpu?.count ?? 1)) return ok(422, { error: `gpu.count: ${gpu.id} comes in ${gpu.counts.join(", ")}` });
      const id = `pod-${++seq}`;
      pods.add(id);
      return ok(201, { id, desiredStatus: "RUNNING" });
    }
    const podMatch = /^\/v2\/pods\/([^/]+)$/.exec(path);
    const actionMatch = /^\/v2\/pods\/([^/]+)\/terminate$/.exec(path);
    if (actionMatch && method === "POST" && o.terminateByAction) {
      if (!pods.delete(actionMatch[1])) return ok(404, { error: "pod not found" });
      stats.deleted++;
      return ok(200, { id: actionMatch[1], desiredStatus: "TERMINATED" });
    }
    if (podMatch && method === "DELETE" && o.terminateByAction) return ok(405, { error: "terminate with POST /v2/pods/{id}/terminate" });
    if (podMatch && method === "DELETE") {
      if (!pods.delete(podMatch[1])) return ok(404, { error: "pod not found" });
      stats.deleted++;
      return ok(204, undefined);
    }
    if (method === "POST" && path === "/graphql") return ok(200, { data: { gpuTypes: gpus.map((g) => ({ id: g.id, displayName: g.displayName })) } });
    const job = new RegExp(`^/v2/${endpoint}/(run|runsync|status|stream|cancel|health)(?:/([^/]+))?$`).exec(path);
    if (job) {
      const [, op, id] = job;
      if (op === "health") return ok(200, { jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 }, workers: { idle: 1, running: 0 } });
      if (op === "run") {
        const jobId = `job-${++seq}`;
        jobs.set(jobId, { status: "COMPLETED", output: { ok: true } });
        return ok(200, { id: jobId, status: "IN_QUEUE" });
      }
      if (op === "runsync") {
        const jobId = `job-${++seq}`;
        const timer = setTimeout(() => {
          holds.delete(timer);
          ok(200, { id: jobId, status: "COMPLETED", output: { ok: true } });
        }, o.runsyncDelayMs ?? 0);
        holds.add(timer);
        return;
      }
      const j = id ? jobs.get(id) : undefined;
      if (!j) return ok(404, { error: "job not found" });
      if (op === "status") return ok(200, { id, status: j.status, output: j.output });
      if (op === "stream") return ok(200, { status: j.status, stream: [] });
      return ok(200, { id, status: "CANCELLED" });
    }
    return ok(404, { error: `no route ${method} ${path}` });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    async stop() {
      for (const t of holds) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
