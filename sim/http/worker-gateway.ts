/**
 * `cpsim serve --worker-endpoint ID`: the platform's internal worker interface, so that an
 * unmodified official worker (`runpod.serverless.start({"handler": ...})`, or anything speaking
 * its protocol) serves an endpoint's queue from its own process. The endpoint runs in pull mode
 * (see ExternalExecutor.pull): the model starts no workers of its own; a job stays IN_QUEUE until
 * a worker process takes it, is IN_PROGRESS on that worker's name, and ends when the worker
 * posts it done (COMPLETED, or FAILED with its error). Everything else is the model's: cancel,
 * execution timeout, ttl, retention, webhooks, stream reads.
 *
 * The requests, as the official worker sends them (its URLs come from the environment that
 * `workerEnvironment` prints; `$ID` and `$RUNPOD_POD_ID` are the worker's own substitutions):
 *   GET  /v2/{ep}/job-take/{worker}?…&job_in_progress=0|1          → 200 {id, input} | 204
 *   GET  /v2/{ep}/job-take-batch/{worker}?…&batch_size=N&…          → 200 [{id, input}…] | 204
 *   GET  /v2/{ep}/job-stop/{worker}?…                               → 200 {jobsToStop: [id…]} | 204
 *   POST /v2/{ep}/job-done/{worker}/{job}?…&isStream=true|false     body {output} | {error} | {status: "IN_PROGRESS", output}
 *   POST /v2/{ep}/job-stream/{worker}/{job}?…&isStream=false        body {output}
 *   GET  /v2/{ep}/ping/{worker}?…&job_id=a,b&runpod_version=V       → 200 {}
 * with `Authorization: <key>` (the raw key, no scheme) and, on posts, the JSON text under
 * `Content-Type: application/x-www-form-urlencoded`. Takes and stop polls are long polls.
 */
import type { Micros } from "../core/index.ts";
import type { ExternalExecutor, ExternalJob, Serverless } from "../domain/serverless/index.ts";
import { problem } from "../api/problem.ts";
import { type ApiOutcome, type ApiRequest, type ApiResponse, respond } from "../api/types.ts";
import type { BackendApiKey, BackendRoute } from "./backend.ts";
import type { ApplyChange } from "./handler-executor.ts";

export const WORKER_ROUTES: readonly BackendRoute[] = [
  { method: "GET", pattern: "/v2/:endpointId/job-take/:workerId", anyContentType: true },
  { method: "GET", pattern: "/v2/:endpointId/job-take-batch/:workerId", anyContentType: true },
  { method: "GET", pattern: "/v2/:endpointId/job-stop/:workerId", anyContentType: true },
  { method: "GET", pattern: "/v2/:endpointId/ping/:workerId", anyContentType: true },
  // The official worker's done and stream bodies are bounded by the platform's 20 MiB runsync limit.
  { method: "POST", pattern: "/v2/:endpointId/job-done/:workerId/:jobId", bodyLimit: 20 * 1024 * 1024, anyContentType: true },
  { method: "POST", pattern: "/v2/:endpointId/job-stream/:workerId/:jobId", bodyLimit: 20 * 1024 * 1024, anyContentType: true },
];

const OPS = new Set(["job-take", "job-take-batch", "job-stop", "ping", "job-done", "job-stream"]);
/** Wait keys the transport hands back through onJobFinal; never a job id (those have no NUL). */
const WAIT_MARK = "\u0000";
/** Jobs one take may ask for (batch_size), workers remembered per endpoint, stops kept per worker. */
const MAX_BATCH = 64;
const MAX_WORKERS = 1_000;
const MAX_STOPS = 100;

export interface WorkerGatewayOptions {
  /** How long an empty take or stop poll waits for something (virtual ms); default 10 s. */
  readonly pollWaitMs?: number;
  /** A worker that sends nothing (ping, take, post) for this long (wall ms) loses its running jobs (FAILED); default 30 s, three missed pings. */
  readonly lostAfterMs?: number;
}

interface WorkerRecord {
  lastSeen: number;
  /** Jobs of this worker the model ended itself (cancel, timeout): reported by the next stop poll. */
  toStop: string[];
}

interface Running {
  readonly ticket: number;
  readonly job: ExternalJob;
}

/** One per `--worker-endpoint`: the model's executor for that endpoint, in pull mode. */
export class WorkerGatewayExecutor implements ExternalExecutor {
  readonly pull = true;
  constructor(
    readonly endpointId: string,
    private readonly gateway: WorkerGateway,
  ) {}
  start(ticket: number, job: ExternalJob): void {
    this.gateway.started(ticket, job);
  }
  stop(ticket: number): void {
    this.gateway.stopped(ticket);
  }
}

export class WorkerGateway {
  readonly executors: ReadonlyMap<string, WorkerGatewayExecutor>;
  private readonly pollWaitUs: number;
  private readonly lostAfterMs: number;
  private readonly running = new Map<number, Running>();
  private readonly byJob = new Map<string, number>();
  private readonly workers = new Map<string, WorkerRecord>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    endpointIds: readonly string[],
    private readonly keys: () => readonly BackendApiKey[],
    private readonly owner: (endpointId: string) => string | null | undefined,
    private readonly model: () => Serverless,
    private readonly apply: () => ApplyChange,
    options: WorkerGatewayOptions = {},
  ) {
    this.executors = new Map(endpointIds.map((id) => [id, new WorkerGatewayExecutor(id, this)]));
    this.pollWaitUs = (options.pollWaitMs ?? 10_000) * 1000;
    this.lostAfterMs = options.lostAfterMs ?? 30_000;
  }

  /** A key a worker of this endpoint may use: the first full-access key of its account (any account's for a shared endpoint). */
  keyFor(endpointId: string): string | undefined {
    const owner = this.owner(endpointId);
    return this.keys().find((k) => k.access === "full" && (owner === null || owner === undefined || k.account === owner))?.key;
  }

  /** True for the paths this gateway answers (the transport's route table knows them from WORKER_ROUTES). */
  owns(path: string): boolean {
    const parts = path.split("/");
    return parts.length >= 5 && parts[1] === "v2" && OPS.has(parts[3]);
  }

  handle(request: ApiRequest, now: Micros): ApiOutcome {
    const [, , endpointId, op, workerId, jobId] = request.path.split("/");
    if (!this.executors.has(endpointId)) {
      return respond(problem(404, `endpoint ${endpointId} takes no outside workers; start the emulator with --worker-endpoint ${endpointId}`));
    }
    const refused = this.authorize(request.headers["authorization"], endpointId);
    if (refused !== undefined) return respond(refused);
    const worker = this.seen(endpointId, workerId);
    if (worker === undefined) return respond(problem(429, `more than ${MAX_WORKERS} workers on endpoint ${endpointId}`, { headers: { "retry-after": "5" } }));
    switch (op) {
      case "ping":
        return respond({ status: 200, headers: {}, body: {} });
      case "job-take":
      case "job-take-batch": {
        const size = op === "job-take" ? 1 : batchSize(request.query["batch_size"]);
        if (size === undefined) return respond(problem(400, `batch_size must be an integer from 1 to ${MAX_BATCH}`));
        // The worker says it runs nothing: jobs it was given and never reported were lost (a restart under the same id).
        if (request.query["job_in_progress"] === "0") this.failHeld(endpointId, workerId, `worker ${workerId} asked for new work while this job was still its own (it restarted or dropped the job)`);
        const take = (): ApiResponse => this.take(endpointId, workerId, size, op === "job-take-batch");
        if (this.model().queuedCount(endpointId) > 0) return respond(take());
        return this.wait(endpointId, `${WAIT_MARK}take`, now, take);
      }
      case "job-stop": {
        const report = (): ApiResponse => {
          const ids = worker.toStop.splice(0);
          return ids.length === 0 ? { status: 204, headers: {} } : { status: 200, headers: {}, body: { jobsToStop: ids } };
        };
        if (worker.toStop.length > 0) return respond(report());
        return this.wait(endpointId, `${WAIT_MARK}stop${WAIT_MARK}${workerId}`, now, report);
      }
      default:
        return respond(this.post(op, endpointId, workerId, jobId, request.body));
    }
  }

  /**
   * The transport's subscription for a take or stop poll (PlatformBackend.onJobFinal passes keys
   * starting with NUL here); the listener fires when a job is queued, or a stop is due.
   */
  isWaitKey(jobId: string): boolean {
    return jobId.startsWith(WAIT_MARK);
  }

  subscribe(endpointId: string, key: string, listener: () => void): () => void {
    if (this.ready(endpointId, key)) {
      listener();
      return () => {};
    }
    const full = `${endpointId}${key}`;
    let set = this.listeners.get(full);
    if (set === undefined) this.listeners.set(full, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(full) === set) this.listeners.delete(full);
    };
  }

  /** After anything that may have queued a job or stopped one: wakes the polls that now have an answer. */
  poke(): void {
    for (const [full, set] of [...this.listeners]) {
      const cut = full.indexOf(WAIT_MARK);
      if (!this.ready(full.slice(0, cut), full.slice(cut))) continue;
      this.listeners.delete(full);
      for (const listener of set) listener();
    }
  }

  started(ticket: number, job: ExternalJob): void {
    this.running.set(ticket, { ticket, job });
    this.byJob.set(jobKey(job.endpointId, job.id, job.workerId), ticket);
  }

  stopped(ticket: number): void {
    const r = this.forget(ticket);
    if (r === undefined) return;
    const worker = this.workers.get(workerKey(r.job.endpointId, r.job.workerId));
    if (worker !== undefined && worker.toStop.length < MAX_STOPS) worker.toStop.push(r.job.id);
  }

  /** Starts the wall-clock check for workers that went silent; the transport is attached by then. */
  startWatch(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.checkLost(), Math.max(50, Math.min(1_000, this.lostAfterMs / 4)));
    this.timer.unref();
  }

  /** The model was rebuilt (reset) or the server stops: nothing running belongs to the new one. */
  reset(): void {
    this.running.clear();
    this.byJob.clear();
    this.workers.clear();
    // Open polls are answered by the transport (a reset cancels its waits).
    this.listeners.clear();
  }

  close(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.reset();
  }

  // ---- internals

  private ready(endpointId: string, key: string): boolean {
    if (key === `${WAIT_MARK}take`) return this.model().queuedCount(endpointId) > 0;
    const worker = this.workers.get(workerKey(endpointId, key.slice(`${WAIT_MARK}stop${WAIT_MARK}`.length)));
    return worker !== undefined && worker.toStop.length > 0;
  }

  private wait(endpointId: string, key: string, now: Micros, render: () => ApiResponse): ApiOutcome {
    return { kind: "wait", endpointId, jobId: key, accountId: "", deadline: now + this.pollWaitUs, render };
  }

  private take(endpointId: string, workerId: string, size: number, batch: boolean): ApiResponse {
    let tickets: number[] = [];
    // Through the transport: the model is brought to the wall clock's time first and the timer re-armed after.
    this.apply()(() => {
      tickets = this.model().externalTake(endpointId, workerId, size);
    });
    const jobs = tickets.flatMap((t) => {
      const r = this.running.get(t);
      return r === undefined ? [] : [{ id: r.job.id, input: r.job.input }];
    });
    if (jobs.length === 0) return { status: 204, headers: {} };
    return { status: 200, headers: {}, body: batch ? jobs : jobs[0] };
  }

  private post(op: string, endpointId: string, workerId: string, jobId: string, body: unknown): ApiResponse {
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      return problem(400, `the ${op} body must be a JSON object such as {"output": …} or {"error": "…"}`);
    }
    const ticket = this.byJob.get(jobKey(endpointId, jobId, workerId));
    // A job the model ended meanwhile (cancelled, timed out) or never gave this worker: nothing to record.
    if (ticket === undefined) return { status: 200, headers: {}, body: { recorded: false } };
    const b = body as { output?: unknown; error?: unknown; status?: unknown };
    const model = this.model();
    if (op === "job-stream") {
      // The gateway knows the ticket runs, so a refusal can only be the size bound.
      if (!model.externalChunk(ticket, b.output ?? null)) return problem(413, "this job's stream and output are over the emulator's --max-output-mb; send less, or raise it");
    } else if (b.status === "IN_PROGRESS") {
      // A progress update (runpod.serverless.progress_update): the job goes on, its status shows it.
      if (!model.externalProgress(ticket, b.output ?? null)) return problem(413, "a progress update may be at most 64 KiB of JSON; send results with the final job-done");
    } else {
      this.forget(ticket);
      const error = b.error;
      if (error !== undefined && error !== null && error !== "") {
        model.externalFinish(ticket, { ok: false, error: typeof error === "string" ? error : JSON.stringify(error) });
      } else {
        model.externalFinish(ticket, { ok: true, output: b.output ?? null });
      }
    }
    return { status: 200, headers: {}, body: { recorded: true } };
  }

  private forget(ticket: number): Running | undefined {
    const r = this.running.get(ticket);
    if (r === undefined) return undefined;
    this.running.delete(ticket);
    this.byJob.delete(jobKey(r.job.endpointId, r.job.id, r.job.workerId));
    return r;
  }

  private seen(endpointId: string, workerId: string): WorkerRecord | undefined {
    const key = workerKey(endpointId, workerId);
    let w = this.workers.get(key);
    if (w === undefined) {
      if (this.workers.size >= MAX_WORKERS) this.dropSilentWorkers();
      if (this.workers.size >= MAX_WORKERS) return undefined;
      this.workers.set(key, (w = { lastSeen: 0, toStop: [] }));
    }
    w.lastSeen = performance.now();
    return w;
  }

  private dropSilentWorkers(): void {
    const busy = new Set([...this.running.values()].map((r) => workerKey(r.job.endpointId, r.job.workerId)));
    const cutoff = performance.now() - this.lostAfterMs;
    for (const [key, w] of this.workers) if (w.lastSeen < cutoff && !busy.has(key)) this.workers.delete(key);
  }

  private failHeld(endpointId: string, workerId: string, error: string): void {
    for (const r of [...this.running.values()]) {
      if (r.job.endpointId !== endpointId || r.job.workerId !== workerId) continue;
      this.forget(r.ticket);
      this.model().externalFinish(r.ticket, { ok: false, error });
    }
  }

  /** Running jobs of a worker that went silent fail: the spec has no way back from IN_PROGRESS to IN_QUEUE. */
  private checkLost(): void {
    const cutoff = performance.now() - this.lostAfterMs;
    const lost = [...this.running.values()].filter((r) => (this.workers.get(workerKey(r.job.endpointId, r.job.workerId))?.lastSeen ?? 0) < cutoff);
    if (lost.length === 0) return;
    const seconds = Math.round(this.lostAfterMs / 100) / 10;
    this.apply()(() => {
      for (const r of lost) {
        if (this.forget(r.ticket) === undefined) continue;
        this.model().externalFinish(r.ticket, { ok: false, error: `worker ${r.job.workerId} stopped answering (nothing from it for ${seconds} s) while it ran this job` });
      }
    });
  }

  private authorize(header: string | undefined, endpointId: string): ApiResponse | undefined {
    if (header === undefined || header.trim() === "") {
      return problem(401, "a worker sends its key in Authorization (the RUNPOD_AI_API_KEY the emulator printed for this endpoint)");
    }
    const key = header.replace(/^Bearer\s+/i, "").trim();
    const found = this.keys().find((k) => k.key === key);
    if (found === undefined) return problem(401, "unknown key in Authorization; use the RUNPOD_AI_API_KEY the emulator printed for this endpoint");
    const owner = this.owner(endpointId);
    if (found.access !== "full" || (owner !== null && owner !== undefined && owner !== found.account)) {
      return problem(403, `this key may not serve endpoint ${endpointId}: a worker needs a full-access key of the endpoint's account`);
    }
    return undefined;
  }
}

function batchSize(text: string | undefined): number | undefined {
  if (text === undefined) return 1;
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= MAX_BATCH ? n : undefined;
}

function workerKey(endpointId: string, workerId: string): string {
  return `${endpointId}\n${workerId}`;
}

function jobKey(endpointId: string, jobId: string, workerId: string): string {
  return `${endpointId}\n${workerId}\n${jobId}`;
}
