/**
 * Serverless endpoints: per endpoint a FIFO queue served by autoscaled workers that lease GPUs from
 * the pool, and the jobs' lifecycle (IN_QUEUE → IN_PROGRESS → COMPLETED | FAILED | TIMED_OUT,
 * CANCELLED, retry, purge), retention and streaming.
 *
 * Built for days of virtual time: a job costs one engine event of its own (its finish); a job that
 * finds an idle worker starts inside the submission, a job that finds none is taken by the next
 * worker to finish without an event. Expiry goes through FIFO classes swept by one coalesced event
 * (see expiry-fifo.ts), jobs live in typed columns with reused slots (job-table.ts), and ids are
 * computed from the slot only when an operation returns one (job-id.ts).
 *
 * Determinism: reads (status without ttl, health, inspect) change nothing; the stream cursor is
 * per-job read state that no event depends on. Each endpoint has its own random streams, and a
 * job's handler seed derives from its per-endpoint sequence and attempt.
 *
 * Retention and ttl (choices.md, and this model's reading where it is silent):
 * - an unfinished job lives until submission + ttl (policy.ttl, else 24 h); past it, it is dropped
 *   whatever its state (a running job is stopped and its worker freed);
 * - a final job is kept 30 min after completion (run) or 1 min (runsync); with policy.ttl it is
 *   kept until submission + ttl instead (ttl replaces retention);
 * - `status?ttl=N` sets the result's expiry to (time of that call + N ms); on an unfinished job
 *   the deadline is remembered and applies once it is final (if it has passed by then, the result
 *   is gone at completion);
 * - a retry starts the lifetime again from the retry; cancel makes a job final like completion.
 * Expired jobs are invisible at once (lookups compare times); memory is reclaimed by a sweep at
 * most sweepIntervalMs later.
 */
import type { Engine, EventKind, Micros, Rng } from "../../core/index.ts";
import type { GpuPool } from "../gpu-pool.ts";
import { getHandler } from "../handlers/index.ts";
import type { HandlerContext, HandlerPlan, JobHandler } from "../handlers/index.ts";
import { outputTooLarge, resultsBudgetFull } from "../handlers/output-limit.ts";
import { jsonSizeAtMost } from "./json-size.ts";
import { EndpointState } from "./endpoint-state.ts";
import type { ServerlessEndpointConfig } from "./endpoint-state.ts";
import { ExpiryFifo } from "./expiry-fifo.ts";
import { ExpiryHeap } from "./expiry-heap.ts";
import { formatJobId, formatWorkerId, mix32, parseJobId } from "./job-id.ts";
import {
  CANCELLED,
  COMPLETED,
  FAILED,
  FREE,
  IN_PROGRESS,
  IN_QUEUE,
  STATUS_NAMES,
  TIMED_OUT,
  isFinalCode,
} from "./job-status.ts";
import type { JobStatus, TransitionCause } from "./job-status.ts";
import {
  F_EXPLICIT_TIMEOUT,
  F_EXPLICIT_TTL,
  F_HAS_PLAN,
  F_LISTENERS,
  F_LOW_PRIORITY,
  F_RETRIED,
  F_PLAN_FAILS,
  F_STARTED,
  F_STATUS_TTL,
  F_STREAMED,
  F_SYNC,
  F_WEBHOOK,
  JobTable,
} from "./job-table.ts";
import { ServerlessConfigError } from "./serverless-config-error.ts";
import { splitStreamOutput } from "../handlers/index.ts";
import { flattenStream } from "./stream-chunks.ts";
import type { FlatStream } from "./stream-chunks.ts";
import type {
  ExternalResult,
  Failure,
  FinalListener,
  Health,
  JobView,
  Outcome,
  ServerlessErrorCode,
  ServerlessOptions,
  StreamChunk,
  SubmitRequest,
  WebhookEntry,
} from "./types.ts";
import { WebhookOutbox } from "./webhook-outbox.ts";
import { W_IDLE, W_INITIALIZING, W_RUNNING, W_STOPPED, W_THROTTLED, Worker } from "./worker.ts";

/** The catalog parts the model reads (the catalog's Catalog satisfies it). */
export interface ServerlessCatalog {
  readonly accounts: readonly { readonly id: string }[];
  readonly endpoints: readonly ServerlessEndpointConfig[];
}

/** Per-submission options of the fast path, in the units the model stores. */
export interface FastSubmitOptions {
  readonly sync?: boolean;
  readonly lowPriority?: boolean;
  /** policy.ttl in ms. */
  readonly ttlMs?: number;
  /** policy.executionTimeout in ms. */
  readonly executionTimeoutMs?: number;
  readonly webhook?: string;
}

const US = 1000;
const MINUTE_MS = 60_000;
/** Defaults of ServerlessOptions (choices.md's retention and ttl; the rest are model choices). */
export const SERVERLESS_DEFAULTS = {
  runRetentionMs: 30 * MINUTE_MS,
  syncRetentionMs: MINUTE_MS,
  defaultTtlMs: 24 * 60 * MINUTE_MS,
  sweepIntervalMs: 1000,
  executionOverheadMs: 0,
  webhookOutboxLimit: 10_000,
  listenerLimit: 1000,
  maxOutputBytes: 16 * 1024 * 1024,
  resultsBudgetBytes: 256 * 1024 * 1024,
} as const;
/** Outputs below this size are not tracked by the results budget: job limits bound their number. */
const BUDGET_MIN_BYTES = 4096;
const NO_OPTIONS: FastSubmitOptions = Object.freeze({});

/** The context handed to handler.plan, reused for every job: the id string is built only if read. */
class PlanContext implements HandlerContext {
  seed = 0;
  slot = 0;
  constructor(
    private readonly model: Serverless,
    readonly outputRefusal: (bytes: number) => string | undefined,
  ) {}
  get jobId(): string {
    return this.model.jobIdOf(this.slot) ?? "";
  }
}

/** Distinct outside worker names remembered for finished jobs; past it a finished job shows a model worker id. */
const MAX_EXTERNAL_NAMES = 100_000;
/** Largest progress update an external job may show (progress is a line of text, not a result). */
const MAX_PROGRESS_BYTES = 64 * 1024;

export class Serverless {
  private readonly jobs = new JobTable();
  private readonly endpoints: EndpointState[] = [];
  private readonly endpointByKey = new Map<string, number>();
  private readonly accountByid = new Map<string, number>();
  private readonly workers: Worker[] = [];
  private readonly freeWorkers: number[] = [];
  /** Workers waiting for GPUs, oldest first. */
  private throttled: number[] = [];
  private unthrottling = false;
  private unthrottleAgain = false;
  /** Lifetime deadlines of unfinished jobs without policy.ttl: now + defaultTtl, monotone. */
  private readonly lifetime = new ExpiryFifo();
  /** Retention ends of finished `run` jobs: finish + 30 min, monotone. */
  private readonly runRetention = new ExpiryFifo();
  /** Retention ends of finished `runsync` jobs: finish + 1 min, monotone. */
  private readonly syncRetention = new ExpiryFifo();
  /** Everything else: policy.ttl and status ttl deadlines. */
  private readonly irregular = new ExpiryHeap();
  private readonly listeners = new Map<number, FinalListener[]>();
  private readonly streams = new Map<number, FlatStream>();
  private readonly outbox: WebhookOutbox;
  private readonly ctx: PlanContext;
  /** The memory budget: sizes of the outputs of BUDGET_MIN_BYTES and more held now, by slot. */
  private readonly bigResults = new Map<number, number>();
  /** Sizes of the inputs of BUDGET_MIN_BYTES and more held now, by slot (same budget). */
  private readonly bigInputs = new Map<number, number>();
  private retainedBytes = 0;
  private readonly maxOutputBytes: number;
  private readonly resultsBudgetBytes: number;
  private readonly kindFinish: EventKind;
  private readonly kindReady: EventKind;
  private readonly kindIdle: EventKind;
  private readonly kindScale: EventKind;
  private readonly kindSweep: EventKind;
  private sweepHandle = -1;
  private sweepAt = Infinity;
  private lastSweep = -Infinity;
  private seqCounter = 0;
  private workerSerial = 0;
  private readonly idSalt: number;
  private readonly workerSalt: number;
  private readonly runRetentionUs: number;
  private readonly syncRetentionUs: number;
  private readonly defaultTtlUs: number;
  private readonly sweepIntervalUs: number;
  private readonly overheadUs: number;
  private readonly listenerLimit: number;
  private readonly onTransition: ServerlessOptions["onTransition"];
  /** Kept for endpoints created after construction (addEndpoint): the same handler seam and streams. */
  private readonly resolveHandler: (name: string) => JobHandler | undefined;
  private readonly endpointRng: Rng;
  private readonly observer: ServerlessOptions["observer"];
  /** Running external executions: ticket → slot, and slot → ticket. */
  private readonly externalSlots = new Map<number, number>();
  private readonly externalTickets = new Map<number, number>();
  private nextTicket = 1;
  /** Bytes a running external job streamed so far (see externalChunk). */
  private readonly externalBytes = new Map<number, number>();
  /** Names of outside workers (pull mode), so that a finished job still shows the one that ran it. */
  private readonly externalNames: string[] = [];
  private readonly externalNameIndex = new Map<string, number>();

  constructor(
    private readonly engine: Engine,
    catalog: ServerlessCatalog,
    rng: Rng,
    private readonly pool: GpuPool,
    options: ServerlessOptions = {},
  ) {
    const d = SERVERLESS_DEFAULTS;
    const opt = (name: keyof typeof d): number => {
      const value = options[name] ?? d[name];
      if (!Number.isSafeInteger(value) || value < 0) throw new ServerlessConfigError(`option ${name} must be a non-negative integer, got ${String(value)}`);
      return value;
    };
    this.runRetentionUs = opt("runRetentionMs") * US;
    this.syncRetentionUs = opt("syncRetentionMs") * US;
    this.defaultTtlUs = opt("defaultTtlMs") * US;
    this.sweepIntervalUs = opt("sweepIntervalMs") * US;
    this.overheadUs = opt("executionOverheadMs") * US;
    this.listenerLimit = opt("listenerLimit");
    this.maxOutputBytes = opt("maxOutputBytes");
    this.resultsBudgetBytes = opt("resultsBudgetBytes");
    this.ctx = new PlanContext(this, (bytes) => this.outputRefusal(bytes));
    this.onTransition = options.onTransition;
    this.observer = options.observer;
    this.outbox = new WebhookOutbox(opt("webhookOutboxLimit"));
    const ids = rng.fork("ids");
    this.idSalt = (ids.next() * 4294967296) >>> 0;
    this.workerSalt = (ids.next() * 4294967296) >>> 0;
    const prefix = options.kindPrefix ?? "serverless";
    this.kindFinish = engine.defineKind(`${prefix}.finish`, (slot, now) => this.onFinish(slot, now));
    this.kindReady = engine.defineKind(`${prefix}.worker-ready`, (w) => this.onReady(w));
    this.kindIdle = engine.defineKind(`${prefix}.idle-check`, (w, now) => this.onIdleCheck(w, now));
    this.kindScale = engine.defineKind(`${prefix}.scale-check`, (e, now) => this.onScaleCheck(e, now));
    this.kindSweep = engine.defineKind(`${prefix}.sweep`, (_t, now) => this.onSweep(now));
    catalog.accounts.forEach((a, i) => this.accountByid.set(a.id, i));
    const resolve = options.resolveHandler ?? getHandler;
    const endpointRng = rng.fork("endpoints");
    this.resolveHandler = resolve;
    this.endpointRng = endpointRng;
    catalog.endpoints.forEach((config, index) => {
      const handler: JobHandler | undefined = resolve(config.handler);
      if (handler === undefined) throw new ServerlessConfigError(`endpoint ${config.id}: unknown handler ${JSON.stringify(config.handler)}`);
      if (config.workersMin > config.workersMax) {
        throw new ServerlessConfigError(`endpoint ${config.id}: workersMin ${config.workersMin} > workersMax ${config.workersMax}`);
      }
      const own = endpointRng.fork(config.id);
      const owner = config.accountId === null ? -1 : this.accountByid.get(config.accountId);
      if (owner === undefined) throw new ServerlessConfigError(`endpoint ${config.id}: unknown account ${config.accountId}`);
      const seedSalt = (own.fork("seeds").next() * 4294967296) >>> 0;
      const e = new EndpointState(index, config, handler, own.fork("cold-start"), seedSalt, owner);
      e.executor = options.executors?.get(config.id);
      this.endpoints.push(e);
      this.endpointByKey.set(config.id, index);
      if (config.slug !== undefined && config.slug !== null) this.endpointByKey.set(config.slug, index);
    });
    pool.onFreed(() => this.onGpusFreed());
    for (const e of this.endpoints) for (let i = 0; i < e.config.workersMin; i++) this.addWorker(e);
  }

  // ---------------------------------------------------------------- operations (the spec's)

  /** POST run / runsync. The response status is IN_QUEUE, as the spec's table says for run. */
  submit(req: SubmitRequest): Outcome<{ jobId: string; status: "IN_QUEUE" }> {
    const access = this.access(req.endpointId, req.accountId);
    if (typeof access !== "number") return access;
    const p = req.policy;
    // Inputs are held as long as their job, so they count against the same budget as outputs.
    const inputSize = jsonSizeAtMost(req.input, this.resultsBudgetBytes);
    if (inputSize >= BUDGET_MIN_BYTES && this.retainedBytes + inputSize > this.resultsBudgetBytes) {
      return {
        ok: false,
        error: "over-budget",
        message:
          `The emulator holds ${this.retainedBytes} of its ${this.resultsBudgetBytes} bytes of job inputs and results; ` +
          `this input of about ${inputSize} bytes does not fit. Retry once results expire or are purged (or raise cpsim serve --results-budget-mb)`,
      };
    }
    const slot = this.submitFast(access, this.account(req.accountId), req.input, {
      sync: req.mode === "runsync",
      lowPriority: p?.lowPriority,
      ttlMs: p?.ttl,
      executionTimeoutMs: p?.executionTimeout,
      webhook: req.webhook,
    });
    if (inputSize >= BUDGET_MIN_BYTES) {
      this.retainedBytes += inputSize;
      this.bigInputs.set(slot, inputSize);
    }
    return { ok: true, jobId: this.idOf(slot), status: "IN_QUEUE" };
  }

  /** GET status; `ttlMs` (the query's ttl) makes the job's result expire ttlMs after this call. */
  status(endpointId: string, accountId: string, jobId: string, options: { ttlMs?: number } = {}): Outcome<{ job: JobView }> {
    const slot = this.find(endpointId, accountId, jobId);
    if (typeof slot !== "number") return slot;
    if (options.ttlMs !== undefined) this.applyStatusTtl(slot, options.ttlMs);
    return { ok: true, job: this.view(slot) };
  }

  /** GET stream: the chunks visible since this job's last stream read, and the status. */
  stream(endpointId: string, accountId: string, jobId: string): Outcome<{ status: JobStatus; stream: StreamChunk[] }> {
    const slot = this.find(endpointId, accountId, jobId);
    if (typeof slot !== "number") return slot;
    const J = this.jobs;
    const e = this.endpoints[J.endpoint[slot]];
    if (!e.handler.streaming && e.executor === undefined) return fail("not-streaming", `the handler of endpoint ${e.config.id} does not stream`);
    const status = STATUS_NAMES[J.state[slot]] as JobStatus;
    if ((J.flags[slot] & F_STARTED) === 0) return { ok: true, status, stream: [] };
    const started = J.startedAt[slot];
    let flat = this.streams.get(slot);
    if (flat === undefined) {
      flat = flattenStream(J.plans[slot]);
      this.streams.set(slot, flat);
      J.flags[slot] |= F_STREAMED;
      J.streamCursor[slot] = 0;
    }
    const end = J.state[slot] === IN_PROGRESS ? this.engine.now : J.finishedAt[slot];
    const elapsed = end - started;
    const out: StreamChunk[] = [];
    let i = J.streamCursor[slot];
    while (i < flat.chunks.length && flat.atUs[i] <= elapsed) out.push(flat.chunks[i++]);
    J.streamCursor[slot] = i;
    return { ok: true, status, stream: out };
  }

  /** POST cancel: IN_QUEUE or IN_PROGRESS → CANCELLED; anything else is a conflict. */
  cancel(endpointId: string, accountId: string, jobId: string): Outcome<{ jobId: string; status: "CANCELLED" }> {
    const slot = this.find(endpointId, accountId, jobId);
    if (typeof slot !== "number") return slot;
    if (!this.cancelSlot(slot)) return this.conflict(slot, "only IN_QUEUE or IN_PROGRESS jobs can be cancelled");
    return { ok: true, jobId, status: "CANCELLED" };
  }

  /** POST retry: FAILED or TIMED_OUT → IN_QUEUE with the same id and input, output removed. */
  retry(endpointId: string, accountId: string, jobId: string): Outcome<{ jobId: string; status: "IN_QUEUE" }> {
    const slot = this.find(endpointId, accountId, jobId);
    if (typeof slot !== "number") return slot;
    if (!this.retrySlot(slot)) return this.conflict(slot, "only FAILED or TIMED_OUT jobs can be retried");
    return { ok: true, jobId, status: "IN_QUEUE" };
  }

  /** POST purge-queue: removes the caller's IN_QUEUE jobs (all of them on its own endpoint). */
  purgeQueue(endpointId: string, accountId: string): Outcome<{ removed: number; status: "completed" }> {
    const access = this.access(endpointId, accountId);
    if (typeof access !== "number") return access;
    const e = this.endpoints[access];
    const account = e.ownerIndex >= 0 ? -1 : this.account(accountId);
    const removed = this.purgeQueue1(e, e.queue, account) + this.purgeQueue1(e, e.lowQueue, account);
    if (e.workerCounts[W_THROTTLED] > 0) this.trimThrottled(e);
    this.afterRemovals();
    return { ok: true, removed, status: "completed" };
  }

  /** GET health: the endpoint's job counts by state and its workers by state (see types.ts). */
  health(endpointId: string, accountId: string): Outcome<{ health: Health }> {
    const access = this.access(endpointId, accountId);
    if (typeof access !== "number") return access;
    const health = this.healthOf(access);
    // A shared endpoint (the conformance one, public models) serves every account: each caller
    // sees its own jobs only, or one account could watch another's traffic. Workers are shared.
    if (this.endpoints[access].ownerIndex !== -1) return { ok: true, health };
    return { ok: true, health: { ...health, jobs: this.accountJobs(access, this.account(accountId)) } };
  }

  /** Health's job counts of one account on one endpoint: a walk of the job table. */
  private accountJobs(endpoint: number, account: number): Health["jobs"] {
    const J = this.jobs;
    const now = this.engine.now;
    const c = new Int32Array(7);
    let retried = 0;
    for (let slot = 0; slot < J.used; slot++) {
      if (J.endpoint[slot] !== endpoint || J.owner[slot] !== account || !this.isLive(slot, now)) continue;
      c[J.state[slot]]++;
      if ((J.flags[slot] & F_RETRIED) !== 0) retried++;
    }
    return { completed: c[COMPLETED], failed: c[FAILED] + c[TIMED_OUT], inProgress: c[IN_PROGRESS], inQueue: c[IN_QUEUE], retried };
  }

  /**
   * Calls listener in the engine event that makes the job final (or with undefined if the job is
   * dropped unfinished: purge, lifetime). For runsync and status-sync waits.
   */
  onFinal(endpointId: string, accountId: string, jobId: string, listener: FinalListener): Outcome<object> {
    const slot = this.find(endpointId, accountId, jobId);
    if (typeof slot !== "number") return slot;
    if (isFinalCode(this.jobs.state[slot])) return fail("already-final", "the job is already final", STATUS_NAMES[this.jobs.state[slot]] as JobStatus);
    let list = this.listeners.get(slot);
    if (list === undefined) {
      list = [];
      this.listeners.set(slot, list);
      this.jobs.flags[slot] |= F_LISTENERS;
    }
    if (list.length >= this.listenerLimit) return fail("too-many-listeners", `at most ${this.listenerLimit} listeners per job`);
    list.push(listener);
    return { ok: true };
  }

  /** Removes a listener (a wait that timed out); true if it was registered. */
  offFinal(jobId: string, listener: FinalListener): boolean {
    const ref = parseJobId(jobId, this.idSalt);
    if (ref === undefined || this.jobs.seq[ref.slot] !== ref.seq) return false;
    const list = this.listeners.get(ref.slot);
    const i = list === undefined ? -1 : list.indexOf(listener);
    if (list === undefined || i < 0) return false;
    list.splice(i, 1);
    if (list.length === 0) {
      this.listeners.delete(ref.slot);
      this.jobs.flags[ref.slot] &= ~F_LISTENERS;
    }
    return true;
  }

  /** Webhook notifications recorded since the last drain, oldest first (at most max). */
  drainWebhooks(max?: number): WebhookEntry[] {
    return this.outbox.drain(max);
  }

  get webhooksDropped(): number {
    return this.outbox.dropped;
  }

  // ---------------------------------------------------------------- endpoints created, changed, deleted

  /**
   * Adds an endpoint an account created: its own queue, workers and random streams (forked by its
   * id, so no other endpoint's draws move), with the handler its config names through the same
   * seam as the catalog's endpoints. Returns its index.
   */
  addEndpoint(config: ServerlessEndpointConfig): number {
    if (this.endpointByKey.has(config.id)) throw new ServerlessConfigError(`endpoint ${config.id} exists already`);
    const handler = this.resolveHandler(config.handler);
    if (handler === undefined) throw new ServerlessConfigError(`endpoint ${config.id}: unknown handler ${JSON.stringify(config.handler)}`);
    const owner = config.accountId === null ? -1 : this.accountByid.get(config.accountId);
    if (owner === undefined) throw new ServerlessConfigError(`endpoint ${config.id}: unknown account ${config.accountId}`);
    const own = this.endpointRng.fork(config.id);
    const seedSalt = (own.fork("seeds").next() * 4294967296) >>> 0;
    const index = this.endpoints.length;
    const e = new EndpointState(index, config, handler, own.fork("cold-start"), seedSalt, owner);
    this.endpoints.push(e);
    this.endpointByKey.set(config.id, index);
    for (let i = 0; i < config.workersMin; i++) this.addWorker(e);
    return index;
  }

  /**
   * Applies a changed configuration (scaling, GPU types, timeouts) to a live endpoint. Queued and
   * running jobs stay; workers above the new maximum stop unless busy (a busy one stops when it
   * idles out), and the minimum is topped up at once. False for an unknown id.
   */
  reconfigureEndpoint(id: string, config: ServerlessEndpointConfig): boolean {
    const index = this.endpointByKey.get(id);
    if (index === undefined || config.id !== id) return false;
    const e = this.endpoints[index];
    e.reconfigure(config);
    for (let i = e.workers.length - 1; i >= 0 && e.workers.length > config.workersMax; i--) {
      const w = this.workers[e.workers[i]];
      if (w.state !== W_RUNNING) this.stopWorker(e, w);
    }
    while (e.workers.length < Math.min(config.workersMin, config.workersMax)) this.addWorker(e);
    if (e.workers.length > config.workersMin) for (const i of e.idle) this.scheduleIdleCheck(e, this.workers[i]);
    this.scale(e, this.engine.now);
    return true;
  }

  /**
   * Deletes an endpoint (choices: the documented outcome for jobs in flight). Its IN_QUEUE jobs,
   * then its IN_PROGRESS jobs, are cancelled (runsync and status-sync waiters are answered with
   * CANCELLED, webhooks are sent), its workers stop and give their GPUs back, and its id (and
   * slug) then name nothing: every job route answers as for an unknown endpoint. Returns the
   * number of jobs cancelled, or undefined for an unknown id.
   */
  removeEndpoint(id: string): number | undefined {
    const index = this.endpointByKey.get(id);
    if (index === undefined) return undefined;
    const e = this.endpoints[index];
    e.deleted = true;
    e.reconfigure({ ...e.config, workersMin: 0, workersMax: 0 });
    if (e.scaleHandle >= 0) {
      this.engine.cancel(e.scaleHandle);
      e.scaleHandle = -1;
    }
    const J = this.jobs;
    const queued: number[] = [];
    const running: number[] = [];
    for (let slot = 0; slot < J.used; slot++) {
      if (J.endpoint[slot] !== index) continue;
      if (J.state[slot] === IN_QUEUE) queued.push(slot);
      else if (J.state[slot] === IN_PROGRESS) running.push(slot);
    }
    let cancelled = 0;
    for (const slot of [...queued, ...running]) if (this.cancelSlot(slot)) cancelled++;
    for (const w of [...e.workers]) this.stopWorker(e, this.workers[w]);
    this.endpointByKey.delete(e.config.id);
    if (e.config.slug !== undefined && e.config.slug !== null) this.endpointByKey.delete(e.config.slug);
    return cancelled;
  }

  // ---------------------------------------------------------------- external executions (see ExternalExecutor)

  /**
   * One output a running external job streamed, visible to `stream` from now on (split into
   * chunks of at most 1 MB). False when the ticket is no longer running (stopped or finished).
   */
  externalChunk(ticket: number, output: unknown): boolean {
    const slot = this.externalSlots.get(ticket);
    if (slot === undefined) return false;
    const J = this.jobs;
    const flat = this.streams.get(slot) as { chunks: StreamChunk[]; atUs: number[] } | undefined;
    if (flat === undefined) return false;
    // Outside code is bounded like a plan: all of one job's stream and output within maxOutputBytes.
    const bytes = (this.externalBytes.get(ticket) ?? 0) + jsonSizeAtMost(output, this.maxOutputBytes + 1);
    if (bytes > this.maxOutputBytes) return false;
    this.externalBytes.set(ticket, bytes);
    const at = this.engine.now - J.startedAt[slot];
    for (const piece of splitStreamOutput(output)) {
      flat.chunks.push({ output: piece });
      flat.atUs.push(at);
    }
    return true;
  }

  /**
   * A progress update of a running external job (the official worker's `progress_update`): its
   * status shows it as `output` while it runs. False for a stale ticket or an update over 64 KiB.
   */
  externalProgress(ticket: number, output: unknown): boolean {
    const slot = this.externalSlots.get(ticket);
    if (slot === undefined || jsonSizeAtMost(output, MAX_PROGRESS_BYTES + 1) > MAX_PROGRESS_BYTES) return false;
    this.jobs.results[slot] = output;
    return true;
  }

  /** The external job ended at the model's now: COMPLETED with its output, or FAILED with its error. False for a stale ticket. */
  externalFinish(ticket: number, result: ExternalResult): boolean {
    const slot = this.externalSlots.get(ticket);
    if (slot === undefined) return false;
    this.externalSlots.delete(ticket);
    this.externalTickets.delete(slot);
    const streamed = this.externalBytes.get(ticket) ?? 0;
    this.externalBytes.delete(ticket);
    const J = this.jobs;
    const now = this.engine.now;
    const e = this.endpoints[J.endpoint[slot]];
    const w = this.workers[J.worker[slot]];
    this.engine.cancel(J.handle[slot]);
    // Kept like a plan's result: within maxOutputBytes (stream included) and the results budget.
    const size = streamed + (result.ok ? jsonSizeAtMost(result.output, this.maxOutputBytes + 1) : result.error.length + 2);
    const refused = this.admitOutput(slot, size);
    const ok = result.ok && refused === undefined;
    if (ok) {
      J.results[slot] = result.output;
    } else {
      J.results[slot] = refused ?? (result as { error: string }).error;
      J.flags[slot] |= F_PLAN_FAILS;
    }
    this.finalize(e, slot, ok ? COMPLETED : FAILED, now, "finish");
    this.releaseWorker(e, w, now);
    this.notify(slot, now);
    return true;
  }

  /**
   * Pull mode (an executor with `pull: true`): a worker process outside the model takes up to
   * `max` queued jobs (normal before low priority, oldest first); each moves to IN_PROGRESS now
   * on a model worker named `workerId` that exists while the job runs, and the executor's `start`
   * is called for it before this returns. Returns the tickets started, in order; none when the
   * endpoint is unknown, deleted or not in pull mode.
   */
  externalTake(endpointId: string, workerId: string, max: number): number[] {
    const index = this.endpointByKey.get(endpointId);
    if (index === undefined) return [];
    const e = this.endpoints[index];
    if (e.deleted || e.executor?.pull !== true) return [];
    const now = this.engine.now;
    const tickets: number[] = [];
    while (tickets.length < max && e.queued + e.lowQueued > 0) {
      const slot = this.dequeue(e, now);
      if (slot < 0) break;
      const w = this.externalWorker(e, workerId);
      this.start(e, w, slot, now);
      tickets.push(this.externalTickets.get(slot) as number);
    }
    return tickets;
  }

  /** Jobs waiting in an endpoint's queue (live entries), or 0 for an unknown id. */
  queuedCount(endpointId: string): number {
    const index = this.endpointByKey.get(endpointId);
    return index === undefined ? 0 : this.endpoints[index].counts[IN_QUEUE];
  }

  /** A model worker standing for one job of an outside worker process: no GPUs, no cold start, gone when the job ends. */
  private externalWorker(e: EndpointState, workerId: string): Worker {
    const w = this.allocWorker(e);
    w.id = workerId;
    w.lease = undefined;
    if (!this.externalNameIndex.has(workerId) && this.externalNames.length < MAX_EXTERNAL_NAMES) {
      this.externalNameIndex.set(workerId, this.externalNames.length);
      this.externalNames.push(workerId);
    }
    w.state = W_IDLE;
    e.workerCounts[W_IDLE]++;
    return w;
  }

  /** Running external executions (for tests and invariants). */
  get externalRunning(): number {
    return this.externalSlots.size;
  }

  // ---------------------------------------------------------------- fast path and lookups

  /** The endpoint index for an id or slug, or -1. */
  endpointIndex(idOrSlug: string): number {
    return this.endpointByKey.get(idOrSlug) ?? -1;
  }

  /** The account index for an id, or -1. */
  accountIndex(accountId: string): number {
    return this.accountByid.get(accountId) ?? -1;
  }

  /**
   * Submits without resolving names or building an id: for workloads that drive the model in
   * process (capacity planning, benchmarks). Returns the job's slot, valid until the job is gone.
   * The caller has checked access and the policy bounds.
   */
  submitFast(endpoint: number, account: number, input: unknown, options: FastSubmitOptions = NO_OPTIONS): number {
    const J = this.jobs;
    const e = this.endpoints[endpoint];
    const now = this.engine.now;
    const slot = J.alloc();
    J.seq[slot] = this.seqCounter++;
    J.epSeq[slot] = e.nextSeq++;
    J.endpoint[slot] = endpoint;
    J.owner[slot] = account;
    J.inputs[slot] = input;
    // worker, attempt, startedAt, finishedAt, timeout and the stream cursor are written only when
    // a flag says they hold something: fewer writes into a record that is cold after reuse.
    let flags = 0;
    if (options.sync === true) flags |= F_SYNC;
    if (options.lowPriority === true) flags |= F_LOW_PRIORITY;
    if (options.executionTimeoutMs !== undefined) {
      flags |= F_EXPLICIT_TIMEOUT;
      J.timeout[slot] = options.executionTimeoutMs * US;
    }
    if (options.webhook !== undefined) {
      flags |= F_WEBHOOK;
      J.webhooks[slot] = options.webhook;
    }
    if (options.ttlMs !== undefined) {
      flags |= F_EXPLICIT_TTL;
      J.ttl[slot] = options.ttlMs * US;
    }
    J.flags[slot] = flags;
    this.setLifetime(slot, now);
    if (this.onTransition !== undefined) this.trace(slot, "(none)", IN_QUEUE, "submit");
    this.enqueue(e, slot, now);
    return slot;
  }

  /** The id of a held job's slot, or undefined. */
  jobIdOf(slot: number): string | undefined {
    return slot >= 0 && slot < this.jobs.used && this.jobs.state[slot] !== FREE ? this.idOf(slot) : undefined;
  }

  /** The status of a held, unexpired job's slot (fast path). */
  statusOfSlot(slot: number): JobStatus | undefined {
    if (!(slot >= 0 && slot < this.jobs.used) || !this.isLive(slot, this.engine.now)) return undefined;
    return STATUS_NAMES[this.jobs.state[slot]] as JobStatus;
  }

  /**
   * Calls `fn` for every unfinished (queued or running) job of the endpoint with the time it
   * entered its queue, expired-but-unswept ones left out: how planners report the backlog at the
   * end of a run. O(job table).
   */
  forEachUnfinished(endpoint: number, fn: (running: boolean, enqueuedAt: number) => void): void {
    const J = this.jobs;
    const now = this.engine.now;
    for (let slot = 0; slot < J.used; slot++) {
      const state = J.state[slot];
      if (J.endpoint[slot] !== endpoint || (state !== IN_QUEUE && state !== IN_PROGRESS)) continue;
      if (state === IN_QUEUE && J.expiry[slot] <= now) continue;
      fn(state === IN_PROGRESS, J.enqueuedAt[slot]);
    }
  }

  /** An endpoint's workers that are not stopped, by index, without access checks (the REST workers list). */
  workersOf(endpoint: number): WorkerView[] {
    const names = ["THROTTLED", "INITIALIZING", "IDLE", "RUNNING"] as const;
    const out: WorkerView[] = [];
    for (const i of this.endpoints[endpoint].workers) {
      const w = this.workers[i];
      if (w.state === W_STOPPED) continue;
      out.push({
        id: this.workerIdOfWorker(w),
        status: names[w.state]!,
        gpuTypeId: w.lease?.gpuTypeId ?? null,
        gpuCount: w.lease?.count ?? 0,
        dataCenterId: w.lease?.dataCenterId ?? null,
        jobId: w.state === W_RUNNING ? this.idOf(w.job) : null,
      });
    }
    return out;
  }

  /** Health of an endpoint by index, without access checks (for the platform and planners). */
  healthOf(endpoint: number): Health {
    const e = this.endpoints[endpoint];
    const c = e.counts;
    const gone = this.expiredUnswept(endpoint);
    const w = e.workerCounts;
    return {
      jobs: {
        completed: c[COMPLETED] - gone[COMPLETED],
        failed: c[FAILED] + c[TIMED_OUT] - gone[FAILED] - gone[TIMED_OUT],
        inProgress: c[IN_PROGRESS],
        inQueue: c[IN_QUEUE] - gone[IN_QUEUE],
        retried: e.retried - gone[0],
      },
      workers: {
        idle: w[W_IDLE],
        running: w[W_RUNNING],
        initializing: w[W_INITIALIZING],
        ready: w[W_IDLE] + w[W_RUNNING],
        throttled: w[W_THROTTLED],
        unhealthy: 0,
      },
    };
  }

  /** Sizes of every collection the model keeps, to show that memory returns after retention. */
  stats(): ServerlessStats {
    let queueEntries = 0;
    let workers = 0;
    for (const e of this.endpoints) {
      queueEntries += e.queue.length + e.lowQueue.length;
      workers += e.workers.length;
    }
    return {
      heldJobs: this.jobs.live,
      tableCapacity: this.jobs.capacity,
      tableBytes: this.jobs.bytes,
      queueEntries,
      expiryEntries: this.lifetime.length + this.runRetention.length + this.syncRetention.length + this.irregular.length,
      listeners: this.listeners.size,
      streams: this.streams.size,
      webhooks: this.outbox.length,
      workers,
      workerTable: this.workers.length,
      throttledWaiting: this.throttled.length,
    };
  }

  /** Every held job and endpoint, as plain data for invariant checkers and tests. O(jobs). */
  inspect(): ServerlessInspection {
    const J = this.jobs;
    const now = this.engine.now;
    const queuedRefs = new Map<number, number>();
    for (const e of this.endpoints) {
      for (const q of [e.queue, e.lowQueue]) {
        for (let i = 0; i < q.length; i++) {
          const slot = q.slotAt(i);
          if (J.seq[slot] === q.seqAt(i) && J.state[slot] === IN_QUEUE) queuedRefs.set(slot, (queuedRefs.get(slot) ?? 0) + 1);
        }
      }
    }
    const runningOn = new Map<number, number>();
    for (const w of this.workers) if (w.state === W_RUNNING) runningOn.set(w.job, (runningOn.get(w.job) ?? 0) + 1);
    const jobs: InspectedJob[] = [];
    for (let slot = 0; slot < J.used; slot++) {
      if (J.state[slot] === FREE) continue;
      jobs.push({
        key: J.seq[slot],
        id: this.idOf(slot),
        endpointId: this.endpoints[J.endpoint[slot]].config.id,
        status: STATUS_NAMES[J.state[slot]] as JobStatus,
        expired: !this.isLive(slot, now),
        retried: (J.flags[slot] & F_RETRIED) !== 0,
        queueEntries: queuedRefs.get(slot) ?? 0,
        workersRunningIt: runningOn.get(slot) ?? 0,
        finishPending: J.state[slot] === IN_PROGRESS && this.engine.isPending(J.handle[slot]),
      });
    }
    const endpoints = this.endpoints.map((e) => ({
      endpointId: e.config.id,
      health: this.healthOf(e.index),
      workersMin: e.config.workersMin,
      workersMax: e.config.workersMax,
      workers: e.workers.length,
    }));
    return { now, jobs, endpoints };
  }

  // ---------------------------------------------------------------- job lifecycle

  private enqueue(e: EndpointState, slot: number, now: Micros): void {
    const J = this.jobs;
    J.state[slot] = IN_QUEUE;
    J.enqueuedAt[slot] = now;
    e.counts[IN_QUEUE]++;
    if (this.observer !== undefined) this.observer.jobQueued(e.index, now);
    // An idle worker means an empty queue (workers take queued jobs as soon as they are free).
    if (e.idle.length > 0) {
      this.start(e, this.workers[e.idle.pop() as number], slot, now);
      return;
    }
    if ((J.flags[slot] & F_EXPLICIT_TTL) === 0) this.trackQueuedLifetime(slot);
    if ((J.flags[slot] & F_LOW_PRIORITY) !== 0) {
      e.lowQueue.push(slot, J.seq[slot]);
      e.lowQueued++;
      if (e.lowQueue.length > 2 * e.lowQueued + 64) e.lowQueue.compact(this.queuedLive);
    } else {
      e.queue.push(slot, J.seq[slot]);
      e.queued++;
      if (e.queue.length > 2 * e.queued + 64) e.queue.compact(this.queuedLive);
    }
    this.scale(e, now);
  }

  /** A queued job leaves its queue other than by dequeue; its ring entry turns stale. */
  private unqueue(e: EndpointState, slot: number): void {
    if ((this.jobs.flags[slot] & F_LOW_PRIORITY) !== 0) {
      if (--e.lowQueued === 0) e.lowQueue.clear();
    } else if (--e.queued === 0) {
      e.queue.clear();
    }
    if (e.workerCounts[W_THROTTLED] > 0) this.trimThrottled(e);
  }

  private readonly queuedLive = (slot: number, seq: number): boolean =>
    this.jobs.seq[slot] === seq && this.jobs.state[slot] === IN_QUEUE;

  /** The next live queued job (normal before low priority), removed from its queue; -1 if none. */
  private dequeue(e: EndpointState, now: Micros): number {
    const J = this.jobs;
    while (e.queued > 0) {
      const slot = e.queue.headSlot();
      const seq = e.queue.headSeq();
      e.queue.shift();
      if (J.seq[slot] !== seq || J.state[slot] !== IN_QUEUE || (J.flags[slot] & F_LOW_PRIORITY) !== 0) continue;
      // The last live entry leaves: whatever remains is stale.
      if (--e.queued === 0 && e.queue.length > 0) e.queue.clear();
      if (J.expiry[slot] <= now) {
        this.drop(slot, "expire");
        continue;
      }
      return slot;
    }
    while (e.lowQueued > 0) {
      const slot = e.lowQueue.headSlot();
      const seq = e.lowQueue.headSeq();
      e.lowQueue.shift();
      if (J.seq[slot] !== seq || J.state[slot] !== IN_QUEUE) continue;
      if (--e.lowQueued === 0 && e.lowQueue.length > 0) e.lowQueue.clear();
      if (J.expiry[slot] <= now) {
        this.drop(slot, "expire");
        continue;
      }
      return slot;
    }
    return -1;
  }

  private start(e: EndpointState, w: Worker, slot: number, now: Micros): void {
    const J = this.jobs;
    const flags = J.flags[slot] | F_STARTED;
    J.state[slot] = IN_PROGRESS;
    e.counts[IN_QUEUE]--;
    e.counts[IN_PROGRESS]++;
    J.startedAt[slot] = now;
    J.worker[slot] = w.index;
    if (e.executor !== undefined) {
      this.startExternal(e, w, slot, now, flags);
      return;
    }
    const ctx = this.ctx;
    ctx.slot = slot;
    const seq = J.epSeq[slot];
    // The high word of the sequence only matters after 2^32 jobs on one endpoint.
    const hi = seq < 4294967296 ? 0 : mix32(Math.floor(seq / 4294967296));
    const attempt = (flags & F_RETRIED) === 0 ? 0 : J.attempt[slot];
    ctx.seed = mix32(e.seedSalt ^ mix32((seq ^ hi) + Math.imul(attempt, 0x9e3779b9)));
    const plan = this.withinBudget(e.handler.plan(J.inputs[slot], ctx), slot);
    // Only what a read needs is kept: the plan object itself dies young unless it streams.
    if (plan.kind === "complete") {
      J.results[slot] = plan.output;
      J.flags[slot] = flags;
    } else {
      J.results[slot] = plan.error;
      J.flags[slot] = flags | F_PLAN_FAILS;
    }
    if (plan.stream !== undefined && plan.stream.length > 0) {
      J.plans[slot] = plan;
      J.flags[slot] |= F_HAS_PLAN;
    }
    this.occupy(e, w, slot, now, flags, plan.durationMs * US + this.overheadUs);
    if (this.onTransition !== undefined) this.trace(slot, IN_QUEUE, IN_PROGRESS, "start");
    if (this.observer !== undefined) this.observer.jobStarted(e.index, J.enqueuedAt[slot], now);
  }

  /**
   * The worker runs the job for `durationUs` (Infinity: until an executor reports), cut short by
   * the execution timeout or the job's lifetime: the finish event is scheduled at the earliest.
   */
  private occupy(e: EndpointState, w: Worker, slot: number, now: Micros, flags: number, durationUs: number): void {
    const J = this.jobs;
    J.planned[slot] = durationUs;
    let end = now + durationUs;
    const timeoutEnd = now + ((flags & F_EXPLICIT_TIMEOUT) === 0 ? e.timeoutUs : J.timeout[slot]);
    if (timeoutEnd < end) end = timeoutEnd;
    const expiry = J.expiry[slot];
    if (expiry < end) end = expiry > now ? expiry : now;
    J.handle[slot] = this.engine.at(end, this.kindFinish, slot);
    if (w.state === W_IDLE) e.workerCounts[W_IDLE]--;
    e.workerCounts[W_RUNNING]++;
    w.state = W_RUNNING;
    w.job = slot;
  }

  /** A job of an executor endpoint starts: only its timeout (or lifetime end) is scheduled; the executor reports the rest. */
  private startExternal(e: EndpointState, w: Worker, slot: number, now: Micros, flags: number): void {
    const J = this.jobs;
    J.flags[slot] = flags | F_STREAMED;
    // Its stream fills as the executor reports chunks; stream() reads the same structure as for plans.
    this.streams.set(slot, { chunks: [], atUs: [] });
    J.streamCursor[slot] = 0;
    this.occupy(e, w, slot, now, flags, Infinity);
    const ticket = this.nextTicket++;
    this.externalSlots.set(ticket, slot);
    this.externalTickets.set(slot, ticket);
    if (this.onTransition !== undefined) this.trace(slot, IN_QUEUE, IN_PROGRESS, "start");
    if (this.observer !== undefined) this.observer.jobStarted(e.index, J.enqueuedAt[slot], now);
    (e.executor as NonNullable<EndpointState["executor"]>).start(ticket, {
      id: this.idOf(slot),
      input: J.inputs[slot],
      endpointId: e.config.id,
      workerId: this.workerIdOfWorker(w),
    });
  }

  /** The model ends a running external job itself: the executor stops it. */
  private stopExternal(slot: number): void {
    const ticket = this.externalTickets.get(slot);
    if (ticket === undefined) return;
    this.externalTickets.delete(slot);
    this.externalSlots.delete(ticket);
    this.externalBytes.delete(ticket);
    this.endpoints[this.jobs.endpoint[slot]].executor?.stop(ticket);
  }

  private onFinish(slot: number, now: Micros): void {
    const J = this.jobs;
    if (J.state[slot] !== IN_PROGRESS) return;
    this.stopExternal(slot);
    const e = this.endpoints[J.endpoint[slot]];
    const w = this.workers[J.worker[slot]];
    if (now - J.startedAt[slot] >= J.planned[slot]) {
      this.finalize(e, slot, (J.flags[slot] & F_PLAN_FAILS) === 0 ? COMPLETED : FAILED, now, "finish");
    } else if (J.expiry[slot] <= now) {
      // The job's lifetime (policy.ttl or the default) ended while it ran: it is dropped.
      this.drop(slot, "expire");
      return;
    } else {
      this.finalize(e, slot, TIMED_OUT, now, "timeout");
    }
    this.releaseWorker(e, w, now);
    this.notify(slot, now);
  }

  /** Moves an IN_QUEUE or IN_PROGRESS job to a final state and starts its retention. */
  private finalize(e: EndpointState, slot: number, code: number, now: Micros, cause: TransitionCause): void {
    const J = this.jobs;
    const from = J.state[slot];
    e.counts[from]--;
    e.counts[code]++;
    J.state[slot] = code;
    J.finishedAt[slot] = now;
    if (from === IN_PROGRESS) {
      const w = this.workers[J.worker[slot]];
      // An outside worker's name is kept (interned, as -2 - its index); a model worker's serial makes its id.
      J.worker[slot] = w.lease === undefined && w.id !== undefined && this.externalNameIndex.has(w.id) ? -2 - (this.externalNameIndex.get(w.id) as number) : w.serial;
    }
    const flags = J.flags[slot];
    if ((flags & F_STATUS_TTL) !== 0) {
      const at = J.statusTtlAt[slot];
      this.setExpiryIrregular(slot, at > now ? at : now);
    } else if ((flags & F_EXPLICIT_TTL) === 0) {
      if ((flags & F_SYNC) !== 0) this.setExpiry(slot, now + this.syncRetentionUs, this.syncRetention);
      else this.setExpiry(slot, now + this.runRetentionUs, this.runRetention);
    }
    // With policy.ttl the lifetime deadline set at submission stays the expiry: ttl replaces retention.
    if (this.onTransition !== undefined) this.trace(slot, from, code, cause);
    if (this.observer !== undefined) {
      this.observer.jobEnded(e.index, STATUS_NAMES[code] as JobStatus, J.enqueuedAt[slot], from === IN_PROGRESS ? J.startedAt[slot] : -1, now);
    }
  }

  /** Listeners and webhook of a job that just became final. */
  private notify(slot: number, now: Micros): void {
    const J = this.jobs;
    const flags = J.flags[slot];
    if ((flags & (F_LISTENERS | F_WEBHOOK)) === 0) return;
    const view = this.view(slot);
    if ((flags & F_WEBHOOK) !== 0) {
      const e = this.endpoints[J.endpoint[slot]];
      this.outbox.push({ url: J.webhooks[slot] as string, endpointId: e.config.id, at: now, job: view });
    }
    if ((flags & F_LISTENERS) !== 0) this.fireListeners(slot, view);
  }

  private fireListeners(slot: number, view: JobView | undefined): void {
    const list = this.listeners.get(slot);
    this.listeners.delete(slot);
    this.jobs.flags[slot] &= ~F_LISTENERS;
    if (list !== undefined) for (const listener of list) listener(view);
  }

  private cancelSlot(slot: number): boolean {
    const J = this.jobs;
    const state = J.state[slot];
    if (state !== IN_QUEUE && state !== IN_PROGRESS) return false;
    const e = this.endpoints[J.endpoint[slot]];
    const now = this.engine.now;
    if (state === IN_QUEUE) {
      // The queue entry turns stale by the state change.
      this.unqueue(e, slot);
      this.finalize(e, slot, CANCELLED, now, "cancel");
    } else {
      this.engine.cancel(J.handle[slot]);
      this.stopExternal(slot);
      const w = this.workers[J.worker[slot]];
      this.finalize(e, slot, CANCELLED, now, "cancel");
      this.releaseWorker(e, w, now);
    }
    this.notify(slot, now);
    return true;
  }

  private retrySlot(slot: number): boolean {
    const J = this.jobs;
    const state = J.state[slot];
    if (state !== FAILED && state !== TIMED_OUT) return false;
    const e = this.endpoints[J.endpoint[slot]];
    const now = this.engine.now;
    e.counts[state]--;
    const flags = J.flags[slot];
    if ((flags & F_RETRIED) === 0) {
      e.retried++;
      J.attempt[slot] = 0;
    }
    J.flags[slot] = (flags | F_RETRIED) & ~(F_STATUS_TTL | F_PLAN_FAILS | F_HAS_PLAN | F_STARTED);
    J.attempt[slot]++;
    J.plans[slot] = undefined;
    J.results[slot] = undefined;
    if (this.bigResults.size > 0) this.releaseResult(slot);
    if ((J.flags[slot] & F_STREAMED) !== 0) {
      this.streams.delete(slot);
      J.flags[slot] &= ~F_STREAMED;
    }
    // A retry is a new submission of the same job: its lifetime starts again.
    this.setLifetime(slot, now);
    if (this.onTransition !== undefined) this.trace(slot, state, IN_QUEUE, "retry");
    this.enqueue(e, slot, now);
    return true;
  }

  private purgeQueue1(e: EndpointState, q: EndpointState["queue"], account: number): number {
    const J = this.jobs;
    let removed = 0;
    let kept = 0;
    for (let i = 0; i < q.length; i++) {
      const slot = q.slotAt(i);
      if (J.seq[slot] !== q.seqAt(i) || J.state[slot] !== IN_QUEUE) continue;
      if (account >= 0 && J.owner[slot] !== account) {
        kept++;
        continue;
      }
      if ((J.flags[slot] & F_LOW_PRIORITY) !== 0) e.lowQueued--;
      else e.queued--;
      // An expired job is removed too, but it was not the caller's to count.
      if (J.expiry[slot] > this.engine.now) removed++;
      this.drop(slot, "purge");
    }
    if (kept === 0) q.clear();
    else q.compact(this.queuedLive);
    return removed;
  }

  /**
   * The job is gone: expired, purged, or dropped at its lifetime. A queued job's queue entry
   * turns stale (callers that popped it adjusted the queue counts); a running job stops and frees
   * its worker.
   */
  private drop(slot: number, cause: TransitionCause): void {
    const J = this.jobs;
    const e = this.endpoints[J.endpoint[slot]];
    const state = J.state[slot];
    const now = this.engine.now;
    e.counts[state]--;
    if ((J.flags[slot] & F_RETRIED) !== 0) e.retried--;
    if (this.onTransition !== undefined) this.trace(slot, state, -1, cause);
    if (this.observer !== undefined && (state === IN_QUEUE || state === IN_PROGRESS)) {
      this.observer.jobDropped(e.index, state === IN_PROGRESS, J.enqueuedAt[slot], cause, now);
    }
    if (state === IN_PROGRESS) {
      this.engine.cancel(J.handle[slot]);
      this.stopExternal(slot);
      const w = this.workers[J.worker[slot]];
      J.state[slot] = FREE;
      this.releaseWorker(e, w, now);
    }
    if ((J.flags[slot] & F_LISTENERS) !== 0) this.fireListeners(slot, undefined);
    if ((J.flags[slot] & F_STREAMED) !== 0) this.streams.delete(slot);
    if (this.bigResults.size > 0) this.releaseResult(slot);
    if (this.bigInputs.size > 0) this.releaseInput(slot);
    J.release(slot);
  }

  /** drop() for the common case of a final job reaching its retention end, kept lean for the sweep. */
  private expireFinal(slot: number, state: number): void {
    const J = this.jobs;
    const e = this.endpoints[J.endpoint[slot]];
    e.counts[state]--;
    const flags = J.flags[slot];
    if ((flags & F_RETRIED) !== 0) e.retried--;
    if (this.onTransition !== undefined) this.trace(slot, state, -1, "expire");
    if ((flags & F_STREAMED) !== 0) this.streams.delete(slot);
    if (this.bigResults.size > 0) this.releaseResult(slot);
    if (this.bigInputs.size > 0) this.releaseInput(slot);
    J.release(slot);
  }

  /**
   * The memory budget: an output above maxOutputBytes, or one that would take the retained
   * outputs past resultsBudgetBytes, turns the plan into a failure saying so (same duration), so
   * no key can hold more memory than the budget however many jobs it submits.
   */
  private withinBudget(plan: HandlerPlan, slot: number): HandlerPlan {
    if (plan.kind !== "complete") return plan;
    const max = this.maxOutputBytes;
    let size = jsonSizeAtMost(plan.output, max);
    if (plan.stream !== undefined) for (const s of plan.stream) if (size <= max) size += jsonSizeAtMost(s.output, max);
    const refused = this.admitOutput(slot, size);
    return refused === undefined ? plan : { kind: "fail", durationMs: plan.durationMs, error: refused };
  }

  /** Counts an output of `size` against the budget, or says why it cannot be kept. */
  private admitOutput(slot: number, size: number): string | undefined {
    const refused = this.outputRefusal(size);
    if (refused !== undefined) return refused;
    if (size < BUDGET_MIN_BYTES) return undefined;
    this.retainedBytes += size;
    this.bigResults.set(slot, size);
    return undefined;
  }

  /** Why an output of `bytes` would not be kept now, or undefined when it would. */
  private outputRefusal(bytes: number): string | undefined {
    if (bytes > this.maxOutputBytes) return outputTooLarge(bytes, this.maxOutputBytes);
    if (bytes >= BUDGET_MIN_BYTES && this.retainedBytes + bytes > this.resultsBudgetBytes) {
      return resultsBudgetFull(bytes, this.retainedBytes, this.resultsBudgetBytes);
    }
    return undefined;
  }

  private releaseResult(slot: number): void {
    const size = this.bigResults.get(slot);
    if (size === undefined) return;
    this.retainedBytes -= size;
    this.bigResults.delete(slot);
  }

  private releaseInput(slot: number): void {
    const size = this.bigInputs.get(slot);
    if (size === undefined) return;
    this.retainedBytes -= size;
    this.bigInputs.delete(slot);
  }

  /** Bytes of job inputs and outputs the budget counts now, the budget, and the jobs holding them. */
  retainedResults(): { bytes: number; budget: number; jobs: number } {
    return { bytes: this.retainedBytes, budget: this.resultsBudgetBytes, jobs: new Set([...this.bigResults.keys(), ...this.bigInputs.keys()]).size };
  }

  private applyStatusTtl(slot: number, ttlMs: number): void {
    const J = this.jobs;
    const at = this.engine.now + ttlMs * US;
    if (isFinalCode(J.state[slot])) {
      this.setExpiryIrregular(slot, at);
    } else {
      // Recorded now, applied when the job becomes final (see finalize): retention is about results.
      J.statusTtlAt[slot] = at;
      J.flags[slot] |= F_STATUS_TTL;
    }
  }

  // ---------------------------------------------------------------- expiry

  /**
   * Starts the job's lifetime. A default lifetime gets its FIFO entry only if the job has to wait
   * in a queue (enqueue): a running job's lifetime is enforced by its finish event, which is
   * scheduled no later than the deadline, so most jobs never touch the lifetime FIFO.
   */
  private setLifetime(slot: number, now: Micros): void {
    const J = this.jobs;
    if ((J.flags[slot] & F_EXPLICIT_TTL) !== 0) {
      this.setExpiryIrregular(slot, now + J.ttl[slot]);
    } else {
      J.expiry[slot] = now + this.defaultTtlUs;
      J.expiryVersion[slot] = (J.expiryVersion[slot] + 1) | 0;
    }
  }

  /** The lifetime FIFO entry of a queued job with the default lifetime (see setLifetime). */
  private trackQueuedLifetime(slot: number): void {
    const J = this.jobs;
    const f = this.lifetime;
    const v = J.expiryVersion;
    while (f.length > 0 && v[f.headSlot()] !== f.headVersion()) f.shift();
    if (f.length > 2 * J.live + 1024) f.compact(this.expiryValid);
    const at = J.expiry[slot];
    f.push(at, slot, v[slot]);
    if (at < this.sweepAt) this.scheduleSweep(at);
  }

  /** Sets the job's expiry, governed from now on by an entry in a monotone FIFO class. */
  private setExpiry(slot: number, at: Micros, into: ExpiryFifo): void {
    const J = this.jobs;
    J.expiry[slot] = at;
    const version = (J.expiryVersion[slot] + 1) | 0;
    J.expiryVersion[slot] = version;
    // Stale heads (jobs that finished or were retried) go now, so the FIFO tracks live jobs.
    const v = J.expiryVersion;
    while (into.length > 0 && v[into.headSlot()] !== into.headVersion()) into.shift();
    if (into.length > 2 * J.live + 1024) into.compact(this.expiryValid);
    into.push(at, slot, version);
    if (at < this.sweepAt) this.scheduleSweep(at);
  }

  /** The same for an expiry that is not "now + a class constant". */
  private setExpiryIrregular(slot: number, at: Micros): void {
    const J = this.jobs;
    J.expiry[slot] = at;
    const version = (J.expiryVersion[slot] + 1) | 0;
    J.expiryVersion[slot] = version;
    if (this.irregular.length > 2 * J.live + 1024) this.irregular.compact(this.expiryValid);
    this.irregular.push(at, slot, version);
    if (at < this.sweepAt) this.scheduleSweep(at);
  }

  private readonly expiryValid = (slot: number, version: number): boolean => this.jobs.expiryVersion[slot] === version;

  private scheduleSweep(at: Micros): void {
    const now = this.engine.now;
    let t = Math.max(at, this.lastSweep + this.sweepIntervalUs, now);
    t = Math.ceil(t);
    if (this.sweepHandle >= 0) this.engine.cancel(this.sweepHandle);
    this.sweepAt = t;
    this.sweepHandle = this.engine.at(t, this.kindSweep, 0);
  }

  private onSweep(now: Micros): void {
    this.sweepHandle = -1;
    this.sweepAt = Infinity;
    this.lastSweep = now;
    this.sweepOne(this.runRetention, now);
    this.sweepOne(this.syncRetention, now);
    this.sweepOne(this.lifetime, now);
    this.sweepOne(this.irregular, now);
    this.afterRemovals();
    let next = Infinity;
    for (const s of [this.runRetention, this.syncRetention, this.lifetime, this.irregular]) {
      if (s.length > 0 && s.headTime() < next) next = s.headTime();
    }
    if (next < Infinity) this.scheduleSweep(next);
  }

  private sweepOne(s: ExpiryFifo | ExpiryHeap, now: Micros): void {
    const v = this.jobs.expiryVersion;
    while (s.length > 0 && s.headTime() <= now) {
      const slot = s.headSlot();
      const version = s.headVersion();
      s.shift();
      if (v[slot] !== version) continue;
      const state = this.jobs.state[slot];
      if (state >= COMPLETED) {
        this.expireFinal(slot, state);
        continue;
      }
      if (state === IN_QUEUE) this.unqueue(this.endpoints[this.jobs.endpoint[slot]], slot);
      this.drop(slot, "expire");
    }
  }

  /** When nothing is held any more, every structure that refers to slots is reset and shrunk. */
  private afterRemovals(): void {
    if (this.jobs.live !== 0 || !this.jobs.shrinkIfEmpty()) return;
    for (const s of [this.runRetention, this.syncRetention, this.lifetime, this.irregular]) s.compact(() => false);
    for (const e of this.endpoints) {
      e.queue.clear();
      e.lowQueue.clear();
    }
  }

  /** Whether a held job is visible at `now` (its expiry not reached; running jobs end by event). */
  private isLive(slot: number, now: Micros): boolean {
    const state = this.jobs.state[slot];
    return state !== FREE && (state === IN_PROGRESS || this.jobs.expiry[slot] > now);
  }

  /**
   * Jobs of an endpoint whose expiry passed but that the next sweep has not removed yet, by state
   * (index 0: retried ones). Reads subtract them so that health is exact without mutating.
   */
  private expiredUnswept(endpoint: number): Int32Array {
    const out = new Int32Array(7);
    const J = this.jobs;
    const now = this.engine.now;
    const count = (slot: number, version: number): void => {
      if (J.expiryVersion[slot] !== version || J.endpoint[slot] !== endpoint) return;
      const state = J.state[slot];
      if (state === FREE || state === IN_PROGRESS) return;
      out[state]++;
      if ((J.flags[slot] & F_RETRIED) !== 0) out[0]++;
    };
    for (const f of [this.runRetention, this.syncRetention, this.lifetime]) {
      for (let i = 0; i < f.length && f.timeAt(i) <= now; i++) count(f.slotAt(i), f.versionAt(i));
    }
    // Heap order: a subtree whose root is later than now holds nothing earlier.
    const h = this.irregular;
    const stack = h.length > 0 ? [0] : [];
    while (stack.length > 0) {
      const i = stack.pop() as number;
      if (i >= h.length || h.timeAt(i) > now) continue;
      count(h.slotAt(i), h.versionAt(i));
      stack.push(2 * i + 1, 2 * i + 2);
    }
    return out;
  }

  // ---------------------------------------------------------------- workers and scaling

  /** A fresh or recycled worker record, listed among the endpoint's workers; the caller sets its state. */
  private allocWorker(e: EndpointState): Worker {
    let index = this.freeWorkers.pop();
    let w: Worker;
    if (index === undefined) {
      index = this.workers.length;
      w = new Worker(index, e.index, this.workerSerial++);
      this.workers.push(w);
    } else {
      w = this.workers[index];
      w.endpoint = e.index;
      w.serial = this.workerSerial++;
      w.id = undefined;
      w.job = -1;
      w.readyHandle = -1;
      w.idleHandle = -1;
    }
    e.workers.push(index);
    return w;
  }

  private addWorker(e: EndpointState): void {
    // A pull-mode endpoint's workers are outside processes (see externalTake).
    if (e.executor?.pull === true) return;
    const w = this.allocWorker(e);
    const index = w.index;
    w.state = W_THROTTLED;
    e.workerCounts[W_THROTTLED]++;
    const lease = this.pool.acquire(e.gpuRequest);
    if (lease === undefined) {
      this.throttled.push(index);
      if (this.observer !== undefined) this.observer.placementFailed(e.index, this.engine.now);
      this.workersChanged(e);
    } else {
      this.coldStart(e, w, lease);
    }
    // Idle workers above the minimum now need their idle timeout.
    if (e.workers.length > e.config.workersMin) for (const i of e.idle) this.scheduleIdleCheck(e, this.workers[i]);
  }

  private coldStart(e: EndpointState, w: Worker, lease: NonNullable<Worker["lease"]>): void {
    e.workerCounts[W_THROTTLED]--;
    e.workerCounts[W_INITIALIZING]++;
    w.state = W_INITIALIZING;
    w.lease = lease;
    const { mean, cv } = e.config.coldStartMs;
    const delay = mean > 0 ? Math.round(e.coldStartRng.lognormalMeanCv(mean, cv) * US) : 0;
    w.readyHandle = this.engine.after(delay, this.kindReady, w.index);
    if (this.observer !== undefined) {
      this.observer.coldStart(e.index, lease, delay, this.engine.now);
      this.workersChanged(e);
    }
  }

  private workersChanged(e: EndpointState): void {
    const c = e.workerCounts;
    if (this.observer !== undefined) this.observer.workersChanged(e.index, e.workers.length, c[W_INITIALIZING], c[W_THROTTLED], this.engine.now);
  }

  private onReady(index: number): void {
    const w = this.workers[index];
    if (w.state !== W_INITIALIZING) return;
    w.readyHandle = -1;
    const e = this.endpoints[w.endpoint];
    e.workerCounts[W_INITIALIZING]--;
    e.workerCounts[W_IDLE]++;
    w.state = W_IDLE;
    if (this.observer !== undefined) this.workersChanged(e);
    this.releaseWorker(e, w, this.engine.now);
  }

  /** A worker without a job (just booted, finished, or its job was cancelled) takes the next one or idles. */
  private releaseWorker(e: EndpointState, w: Worker, now: Micros): void {
    if (e.executor?.pull === true) {
      // An outside worker's job ended: its stand-in goes (the process asks for the next job itself).
      w.job = -1;
      this.stopWorker(e, w);
      return;
    }
    if (w.state === W_RUNNING) {
      e.workerCounts[W_RUNNING]--;
      e.workerCounts[W_IDLE]++;
      w.state = W_IDLE;
    }
    w.job = -1;
    const next = e.queued + e.lowQueued > 0 ? this.dequeue(e, now) : -1;
    if (next >= 0) {
      this.start(e, w, next, now);
      return;
    }
    w.idleSince = now;
    e.idle.push(w.index);
    if (e.workers.length > e.config.workersMin) this.scheduleIdleCheck(e, w);
    if (e.workerCounts[W_THROTTLED] > 0) this.trimThrottled(e);
  }

  private scheduleIdleCheck(e: EndpointState, w: Worker): void {
    if (w.idleHandle >= 0 && this.engine.isPending(w.idleHandle)) return;
    w.idleHandle = this.engine.at(Math.max(this.engine.now, w.idleSince + e.idleTimeoutUs), this.kindIdle, w.index);
  }

  private onIdleCheck(index: number, now: Micros): void {
    const w = this.workers[index];
    w.idleHandle = -1;
    if (w.state !== W_IDLE) return;
    const e = this.endpoints[w.endpoint];
    if (e.workers.length <= e.config.workersMin) return;
    if (now >= w.idleSince + e.idleTimeoutUs) this.stopWorker(e, w);
    else this.scheduleIdleCheck(e, w);
  }

  private stopWorker(e: EndpointState, w: Worker): void {
    e.workerCounts[w.state]--;
    if (w.state === W_IDLE) e.idle.splice(e.idle.indexOf(w.index), 1);
    if (w.state === W_THROTTLED) this.throttled.splice(this.throttled.indexOf(w.index), 1);
    e.workers.splice(e.workers.indexOf(w.index), 1);
    if (w.idleHandle >= 0) this.engine.cancel(w.idleHandle);
    if (w.readyHandle >= 0) this.engine.cancel(w.readyHandle);
    w.state = W_STOPPED;
    w.idleHandle = -1;
    w.readyHandle = -1;
    this.freeWorkers.push(w.index);
    const lease = w.lease;
    w.lease = undefined;
    if (this.observer !== undefined) {
      this.workersChanged(e);
      if (lease !== undefined) this.observer.leaseReleased(e.index, lease, this.engine.now);
    }
    // Last, because releasing may synchronously hand the GPUs to a throttled worker.
    if (lease !== undefined) this.pool.release(lease);
  }

  /** Throttled workers nobody needs any more (the queue drained) are given up. */
  private trimThrottled(e: EndpointState): void {
    const target = Math.max(e.config.workersMin, this.desired(e));
    for (let i = e.workers.length - 1; i >= 0 && e.workers.length > target; i--) {
      const w = this.workers[e.workers[i]];
      if (w.state === W_THROTTLED) this.stopWorker(e, w);
    }
  }

  /** Workers the scaler wants now, before clamping to [min, max]. */
  private desired(e: EndpointState): number {
    const c = e.config;
    const waiting = e.counts[IN_QUEUE];
    if (c.scalerType === "RequestCount") return Math.ceil((waiting + e.counts[IN_PROGRESS]) / c.scalerValue);
    // QueueDelay grows one worker at a time from the scale check; it needs the ones it has while jobs wait.
    return waiting > 0 ? e.workers.length : 0;
  }

  private scale(e: EndpointState, now: Micros): void {
    if (e.executor?.pull === true) return;
    const c = e.config;
    if (e.workers.length >= c.workersMax) return;
    if (c.scalerType === "RequestCount") {
      const want = Math.min(c.workersMax, Math.max(c.workersMin, this.desired(e)));
      while (e.workers.length < want) this.addWorker(e);
      return;
    }
    if (e.queued + e.lowQueued === 0) return;
    // The platform's documented QueueDelay rule: with zero workers the first request adds one at once.
    if (e.workers.length === 0) this.addWorker(e);
    if (e.scaleHandle >= 0 || e.workers.length >= c.workersMax) return;
    const oldest = this.oldestQueued(e);
    if (oldest < 0) return;
    const at = this.jobs.enqueuedAt[oldest] + c.scalerValue * 1_000_000;
    e.scaleHandle = this.engine.at(Math.max(now, at), this.kindScale, e.index);
  }

  /** QueueDelay: add a worker when the oldest queued job has waited longer than scalerValue seconds. */
  private onScaleCheck(endpoint: number, now: Micros): void {
    const e = this.endpoints[endpoint];
    e.scaleHandle = -1;
    const oldest = this.oldestQueued(e);
    if (oldest < 0 || e.workers.length >= e.config.workersMax) return;
    const delayUs = e.config.scalerValue * 1_000_000;
    if (now - this.jobs.enqueuedAt[oldest] >= delayUs) {
      this.addWorker(e);
      // The next worker only if jobs still wait a full delay after this one was added.
      if (e.workers.length < e.config.workersMax) e.scaleHandle = this.engine.at(now + delayUs, this.kindScale, e.index);
    } else {
      this.scale(e, now);
    }
  }

  /** The longest-waiting live queued job (stale heads are dropped on the way), or -1. */
  private oldestQueued(e: EndpointState): number {
    const J = this.jobs;
    for (const q of [e.queue, e.lowQueue]) {
      while (q.length > 0) {
        const slot = q.headSlot();
        if (J.seq[slot] === q.headSeq() && J.state[slot] === IN_QUEUE && (q === e.lowQueue || (J.flags[slot] & F_LOW_PRIORITY) === 0)) return slot;
        q.shift();
      }
    }
    return -1;
  }

  private onGpusFreed(): void {
    if (this.unthrottling) {
      this.unthrottleAgain = true;
      return;
    }
    this.unthrottling = true;
    try {
      do {
        this.unthrottleAgain = false;
        const waiting = this.throttled;
        this.throttled = [];
        for (const index of waiting) {
          const w = this.workers[index];
          if (w.state !== W_THROTTLED) continue;
          const e = this.endpoints[w.endpoint];
          const lease = this.pool.acquire(e.gpuRequest);
          if (lease === undefined) this.throttled.push(index);
          else this.coldStart(e, w, lease);
        }
      } while (this.unthrottleAgain && this.throttled.length > 0);
    } finally {
      this.unthrottling = false;
    }
  }

  // ---------------------------------------------------------------- views and access

  private view(slot: number): JobView {
    const J = this.jobs;
    const state = J.state[slot];
    const status = STATUS_NAMES[state] as JobStatus;
    const view: {
      id: string;
      status: JobStatus;
      delayTime?: number;
      executionTime?: number;
      input?: unknown;
      output?: unknown;
      error?: string;
      workerId?: string;
      retries: number;
    } = { id: this.idOf(slot), status, retries: (J.flags[slot] & F_RETRIED) === 0 ? 0 : J.attempt[slot] };
    const started = (J.flags[slot] & F_STARTED) === 0 ? -1 : J.startedAt[slot];
    if (started >= 0) {
      view.delayTime = Math.round((started - J.enqueuedAt[slot]) / US);
      view.workerId = this.workerIdOf(slot);
    }
    if (state === IN_QUEUE || state === IN_PROGRESS) view.input = J.inputs[slot];
    if (isFinalCode(state) && started >= 0) view.executionTime = Math.round((J.finishedAt[slot] - started) / US);
    if (state === COMPLETED) view.output = J.results[slot];
    // An external job's latest progress update (see externalProgress).
    if (state === IN_PROGRESS && J.results[slot] !== undefined && this.externalTickets.has(slot)) view.output = J.results[slot];
    if (state === FAILED) view.error = J.results[slot] as string;
    if (state === TIMED_OUT) {
      const timeout = (J.flags[slot] & F_EXPLICIT_TIMEOUT) === 0 ? this.endpoints[J.endpoint[slot]].timeoutUs : J.timeout[slot];
      view.error = `execution timeout exceeded (${Math.round(timeout / US)} ms)`;
    }
    return view;
  }

  private workerIdOfWorker(w: Worker): string {
    w.id ??= formatWorkerId(w.serial, this.workerSalt);
    return w.id;
  }

  private workerIdOf(slot: number): string {
    const J = this.jobs;
    if (J.state[slot] === IN_PROGRESS) return this.workerIdOfWorker(this.workers[J.worker[slot]]);
    const worker = J.worker[slot];
    return worker <= -2 ? this.externalNames[-2 - worker] : formatWorkerId(worker, this.workerSalt);
  }

  private idOf(slot: number): string {
    return formatJobId(slot, this.jobs.seq[slot], this.idSalt);
  }

  private account(accountId: string): number {
    const a = this.accountByid.get(accountId);
    if (a === undefined) throw new ServerlessConfigError(`unknown account ${JSON.stringify(accountId)}: authenticate first`);
    return a;
  }

  /** The endpoint index if the account may use it, else the failure. */
  private access(endpointId: string, accountId: string): number | Failure {
    const index = this.endpointByKey.get(endpointId);
    if (index === undefined) return fail("unknown-endpoint", `no endpoint ${JSON.stringify(endpointId)}`);
    const owner = this.endpoints[index].ownerIndex;
    if (owner >= 0 && owner !== this.account(accountId)) return fail("forbidden", `endpoint ${endpointId} belongs to another account`);
    return index;
  }

  /** The slot of a job this caller may see on this endpoint, else the failure (never throws). */
  private find(endpointId: string, accountId: string, jobId: string): number | Failure {
    const access = this.access(endpointId, accountId);
    if (typeof access !== "number") return access;
    const ref = parseJobId(jobId, this.idSalt);
    const J = this.jobs;
    if (
      ref === undefined ||
      ref.slot >= J.used ||
      J.seq[ref.slot] !== ref.seq ||
      J.endpoint[ref.slot] !== access ||
      J.owner[ref.slot] !== this.account(accountId) ||
      !this.isLive(ref.slot, this.engine.now)
    ) {
      return fail("not-found", `no job ${JSON.stringify(jobId)} on endpoint ${endpointId}`);
    }
    return ref.slot;
  }

  private conflict(slot: number, message: string): Failure {
    return fail("conflict", message, STATUS_NAMES[this.jobs.state[slot]] as JobStatus);
  }

  private trace(slot: number, from: number | "(none)", to: number, cause: TransitionCause): void {
    const hook = this.onTransition;
    if (hook === undefined) return;
    const J = this.jobs;
    hook({
      key: J.seq[slot],
      endpointId: this.endpoints[J.endpoint[slot]].config.id,
      from: from === "(none)" ? from : (STATUS_NAMES[from] as JobStatus),
      to: to < 0 ? "(gone)" : (STATUS_NAMES[to] as JobStatus),
      cause,
      at: this.engine.now,
    });
  }
}

function fail(error: ServerlessErrorCode, message: string, status?: JobStatus): Failure {
  return status === undefined ? { ok: false, error, message } : { ok: false, error, message, status };
}

export interface ServerlessStats {
  /** Jobs in the table, expired-but-unswept included. */
  readonly heldJobs: number;
  readonly tableCapacity: number;
  readonly tableBytes: number;
  readonly queueEntries: number;
  readonly expiryEntries: number;
  readonly listeners: number;
  readonly streams: number;
  readonly webhooks: number;
  readonly workers: number;
  readonly workerTable: number;
  readonly throttledWaiting: number;
}

export interface InspectedJob {
  readonly key: number;
  readonly id: string;
  readonly endpointId: string;
  readonly status: JobStatus;
  /** Past its expiry, waiting for the sweep: invisible to every operation. */
  readonly expired: boolean;
  readonly retried: boolean;
  /** Live entries for this job across its endpoint's queues (1 exactly when IN_QUEUE). */
  readonly queueEntries: number;
  /** Workers whose current job this is (1 exactly when IN_PROGRESS). */
  readonly workersRunningIt: number;
  readonly finishPending: boolean;
}

/** One worker as the REST workers list shows it. */
export interface WorkerView {
  readonly id: string;
  readonly status: "THROTTLED" | "INITIALIZING" | "IDLE" | "RUNNING";
  /** The GPUs it holds (none while throttled). */
  readonly gpuTypeId: string | null;
  readonly gpuCount: number;
  readonly dataCenterId: string | null;
  /** The job it runs, while RUNNING. */
  readonly jobId: string | null;
}

export interface ServerlessInspection {
  readonly now: number;
  readonly jobs: readonly InspectedJob[];
  readonly endpoints: readonly {
    readonly endpointId: string;
    readonly health: Health;
    readonly workersMin: number;
    readonly workersMax: number;
    readonly workers: number;
  }[];
}
