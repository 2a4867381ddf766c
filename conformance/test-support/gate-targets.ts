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

interface Job {
  readonly id: string;
  readonly input: unknown;
  status: "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | "CANCELLED";
  readonly submittedAt: number;
  /** Never taken by the worker: it waits until purged or cancelled. */
  readonly held?: boolean;
  startedAt?: number;
  endsAt?: number;
}

type JobCounts = { completed: number; failed: number; inProgress: number; inQueue: number; retried: number };

export interface OneWorkerOptions {
  readonly jobMs: number;
  readonly endpoint?: string;
  /** Jobs another user submitted before the suite came: the first runs, the others wait behind it. */
  readonly foreignJobs?: number;
  /** The foreign jobs wait and no worker takes them (a low-priority job, a cold start for its kind). */
  readonly holdForeign?: boolean;
  /** What health answers for the job counts it computed (default: as they are). */
  readonly healthJobs?: (counts: JobCounts) => JobCounts;
}

/**
 * A job endpoint run by one worker, in real time: every job takes `jobMs` however it asks to
 * sleep, one at a time, in order. Cancel of a finished job is refused with 409 naming its status
 * (as a correct target may). A suite that judges a cancel against a state it saw long before
 * blames this target for a job that simply finished meanwhile. purge-queue removes the jobs
 * waiting (they are then unknown: 404). `foreignJobs` and `healthJobs` make the endpoint shared,
 * or its health wrong.
 */
export function oneWorkerEndpoint(options: OneWorkerOptions): Promise<GateTarget> {
  const endpoint = options.endpoint ?? "conformance";
  const jobs = new Map<string, Job>();
  const order: Job[] = [];
  let next = 0;
  let freeAt = 0;
  for (let i = 0; i < (options.foreignJobs ?? 0); i++) {
    const job: Job = { id: `foreign-${i}`, input: {}, status: "IN_QUEUE", submittedAt: Date.now(), ...(options.holdForeign ? { held: true } : {}) };
    jobs.set(job.id, job);
    order.push(job);
  }
  // Moves the worker along to now, as if it had run all along: a finished job frees it at its
  // end, and the next queued job starts then (or when it was submitted, if later).
  const advance = () => {
    const now = Date.now();
    for (;;) {
      const running = order.find((j) => j.status === "IN_PROGRESS");
      if (running && running.endsAt! <= now) {
        running.status = "COMPLETED";
        freeAt = running.endsAt!;
        continue;
      }
      if (running) return;
      const queued = order.find((j) => j.status === "IN_QUEUE" && !j.held);
      if (!queued) return;
      queued.status = "IN_PROGRESS";
      queued.startedAt = Math.max(freeAt, queued.submittedAt);
      queued.endsAt = queued.startedAt + options.jobMs;
    }
  };
  const view = (j: Job) => ({ id: j.id, status: j.status, ...(j.status === "COMPLETED" ? { output: { echo: j.input }, delayTime: 0, executionTime: options.jobMs } : {}) });
  return startGateTarget((req, body, res) => {
    advance();
    const url = new URL(req.url ?? "/", "http://x");
    const [, v2, ep, op, id] = url.pathname.split("/");
    if (v2 !== "v2" || ep !== endpoint) return notFound(res);
    if (req.method === "GET" && op === "health" && !id) {
      const count = (s: Job["status"]) => order.filter((j) => j.status === s).length;
      const counts = { completed: count("COMPLETED"), failed: 0, inProgress: count("IN_PROGRESS"), inQueue: count("IN_QUEUE"), retried: 0 };
      return sendJson(res, 200, { jobs: options.healthJobs ? options.healthJobs(counts) : counts, workers: { idle: count("IN_PROGRESS") ? 0 : 1, running: count("IN_PROGRESS") } });
    }
    if (req.method === "POST" && op === "purge-queue" && !id) {
      const waiting = order.filter((j) => j.status === "IN_QUEUE");
      for (const j of waiting) {
        jobs.delete(j.id);
        order.splice(order.indexOf(j), 1);
      }
      return sendJson(res, 200, { removed: waiting.length, status: "completed" });
    }
    if (req.method === "POST" && op === "run" && !id) {
      let input: unknown;
      try {
        input = (JSON.parse(body) as { input?: unknown }).input;
      } catch {
        input = undefined;
      }
      if (typeof input !== "object" || input === null || Array.isArray(input)) return sendJson(res, 400, { title: "input must be an object", status: 400 }, "application/problem+json");
      const job: Job = { id: `job-${String(++next).padStart(6, "0")}`, input, status: "IN_QUEUE", submittedAt: Date.now() };
      jobs.set(job.id, job);
      order.push(job);
      advance();
      return sendJson(res, 200, { id: job.id, status: "IN_QUEUE" });
    }
    const job = id ? jobs.get(id) : undefined;
    if (!job) return sendJson(res, 404, { title: "no such job", status: 404 }, "application/problem+json");
    if (req.method === "GET" && op === "status") return sendJson(res, 200, view(job));
    if (req.method === "POST" && op === "cancel") {
      if (job.status === "COMPLETED" || job.status === "CANCELLED") return sendJson(res, 409, { title: `job is ${job.status}`, status: 409 }, "application/problem+json");
      if (job.status === "IN_PROGRESS") freeAt = Date.now();
      job.status = "CANCELLED";
      advance();
      return sendJson(res, 200, { id: job.id, status: "CANCELLED" });
    }
    notFound(res);
  });
}
