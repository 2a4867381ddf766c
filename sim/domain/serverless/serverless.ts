/**
 * Serverless endpoints: per endpoint a FIFO queue served by autoscaled workers that lease GPUs from
 * the pool, and the jobs' lifecycle (IN_QUEUE → IN_PROGRESS → COMPLETED | FAILED | TIMED_OUT,
 * CANCELLED, retry, purge), retention and streaming. This class is the façade: the spec's
 * operations (access checks, lookups by id, the answers' shapes) over the parts that hold the
 * model, one responsibility each (see model-core.ts for the list).
 *
 * Built for days of virtual time: a job costs one engine event of its own (its finish); a job that
 * finds an idle worker starts inside the submission, a job that finds none is taken by the next
 * worker to finish without an event. Expiry goes through FIFO classes swept by one coalesced event
 * (see retention.ts), jobs live in typed columns with reused slots (job-table.ts), and ids are
 * computed from the slot only when an operation returns one (job-id.ts).
 *
 * Determinism: reads (status without ttl, health, inspect) change nothing; the stream cursor is
 * per-job read state that no event depends on. Each endpoint has its own random streams, and a
 * job's handler seed derives from its per-endpoint sequence and attempt.
 */
import type { Engine, Rng } from "../../core/index.ts";
import type { GpuPool } from "../gpu-pool.ts";
import { getHandler } from "../handlers/index.ts";
import { EndpointRegistry } from "./endpoint-registry.ts";
import type { ServerlessEndpointConfig } from "./endpoint-state.ts";
import { ExternalJobs } from "./external-jobs.ts";
import { parseJobId } from "./job-id.ts";
import { JobLifecycle } from "./job-lifecycle.ts";
import type { FastSubmitOptions } from "./job-lifecycle.ts";
import { JobQueues } from "./job-queues.ts";
import { FREE, IN_PROGRESS, IN_QUEUE, STATUS_NAMES, isFinalCode } from "./job-status.ts";
import type { JobStatus } from "./job-status.ts";
import { JobViews } from "./job-views.ts";
import type { ServerlessInspection, ServerlessStats, WorkerView } from "./job-views.ts";
import { ModelCore } from "./model-core.ts";
import { OutputBudget } from "./output-budget.ts";
import { Retention } from "./retention.ts";
import { ServerlessConfigError } from "./serverless-config-error.ts";
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
import { W_THROTTLED } from "./worker.ts";
import { WorkerScaling } from "./worker-scaling.ts";

export { SERVERLESS_DEFAULTS } from "./model-core.ts";
export type { FastSubmitOptions } from "./job-lifecycle.ts";
export type { InspectedJob, ServerlessInspection, ServerlessStats, WorkerView } from "./job-views.ts";

/** The catalog parts the model reads (the catalog's Catalog satisfies it). */
export interface ServerlessCatalog {
  readonly accounts: readonly { readonly id: string }[];
  readonly endpoints: readonly ServerlessEndpointConfig[];
}

export class Serverless {
  private readonly m: ModelCore;
  /** Endpoints created after construction (addEndpoint) get the same handler seam and streams. */
  private readonly registry: EndpointRegistry;

  constructor(engine: Engine, catalog: ServerlessCatalog, rng: Rng, pool: GpuPool, options: ServerlessOptions = {}) {
    const m = new ModelCore(engine, pool, rng, options);
    this.m = m;
    // Kinds in this order, before anything is scheduled: their ids are part of the event log.
    const prefix = options.kindPrefix ?? "serverless";
    m.kinds = {
      finish: engine.defineKind(`${prefix}.finish`, (slot, now) => m.lifecycle.onFinish(slot, now)),
      ready: engine.defineKind(`${prefix}.worker-ready`, (w) => m.scaling.onReady(w)),
      idle: engine.defineKind(`${prefix}.idle-check`, (w, now) => m.scaling.onIdleCheck(w, now)),
      scale: engine.defineKind(`${prefix}.scale-check`, (e, now) => m.scaling.onScaleCheck(e, now)),
      sweep: engine.defineKind(`${prefix}.sweep`, (_t, now) => m.retention.onSweep(now)),
    };
    m.budget = new OutputBudget(m);
    m.retention = new Retention(m);
    m.queues = new JobQueues(m);
    m.lifecycle = new JobLifecycle(m);
    m.scaling = new WorkerScaling(m);
    m.external = new ExternalJobs(m);
    m.views = new JobViews(m);
    catalog.accounts.forEach((a, i) => m.accountByid.set(a.id, i));
    this.registry = new EndpointRegistry(m, options.resolveHandler ?? getHandler, rng.fork("endpoints"));
    this.registry.addCatalogEndpoints(catalog.endpoints, options.executors);
    pool.onFreed(() => m.scaling.onGpusFreed());
    for (const e of m.endpoints) for (let i = 0; i < e.config.workersMin; i++) m.scaling.addWorker(e);
  }

  // ---------------------------------------------------------------- operations (the spec's)

  /** POST run / runsync. The response status is IN_QUEUE, as the spec's table says for run. */
  submit(req: SubmitRequest): Outcome<{ jobId: string; status: "IN_QUEUE" }> {
    const access = this.access(req.endpointId, req.accountId);
    if (typeof access !== "number") return access;
    const p = req.policy;
    const inputSize = this.m.budget.inputSize(req.input);
    if (typeof inputSize !== "number") return { ok: false, error: "over-budget", message: inputSize.refusal };
    const slot = this.submitFast(access, this.account(req.accountId), req.input, {
      sync: req.mode === "runsync",
      lowPriority: p?.lowPriority,
      ttlMs: p?.ttl,
      executionTimeoutMs: p?.executionTimeout,
      webhook: req.webhook,
    });
    this.m.budget.holdInput(slot, inputSize);
    return { ok: true, jobId: this.m.idOf(slot), status: "IN_QUEUE" };
  }

  /** GET status; `ttlMs` (the query's ttl) makes the job's result expire ttlMs after this call. */
  status(endpointId: string, accountId: string, jobId: string, options: { ttlMs?: number } = {}): Outcome<{ job: JobView }> {
    const slot = this.find(endpointId, accountId, jobId);
    if (typeof slot !== "number") return slot;
    if (options.ttlMs !== undefined) this.m.retention.applyStatusTtl(slot, options.ttlMs);
    return { ok: true, job: this.m.views.view(slot) };
  }

  /** GET stream: the chunks visible since this job's last stream read, and the status. */
  stream(endpointId: string, accountId: string, jobId: string): Outcome<{ status: JobStatus; stream: StreamChunk[] }> {
    const slot = this.find(endpointId, accountId, jobId);
    if (typeof slot !== "number") return slot;
    const J = this.m.jobs;
    const e = this.m.endpoints[J.endpoint[slot]];
    if (!e.handler.streaming && e.executor === undefined) return fail("not-streaming", `the handler of endpoint ${e.config.id} does not stream`);
    const status = STATUS_NAMES[J.state[slot]] as JobStatus;
    return { ok: true, status, stream: this.m.views.streamSince(slot) };
  }

  /** POST cancel: IN_QUEUE or IN_PROGRESS → CANCELLED; anything else is a conflict. */
  cancel(endpointId: string, accountId: string, jobId: string): Outcome<{ jobId: string; status: "CANCELLED" }> {
    const slot = this.find(endpointId, accountId, jobId);
    if (typeof slot !== "number") return slot;
    if (!this.m.lifecycle.cancel(slot)) return this.conflict(slot, "only IN_QUEUE or IN_PROGRESS jobs can be cancelled");
    return { ok: true, jobId, status: "CANCELLED" };
  }

  /** POST retry: FAILED or TIMED_OUT → IN_QUEUE with the same id and input, output removed. */
  retry(endpointId: string, accountId: string, jobId: string): Outcome<{ jobId: string; status: "IN_QUEUE" }> {
    const slot = this.find(endpointId, accountId, jobId);
    if (typeof slot !== "number") return slot;
    if (!this.m.lifecycle.retry(slot)) return this.conflict(slot, "only FAILED or TIMED_OUT jobs can be retried");
    return { ok: true, jobId, status: "IN_QUEUE" };
  }

  /** POST purge-queue: removes the caller's IN_QUEUE jobs (all of them on its own endpoint). */
  purgeQueue(endpointId: string, accountId: string): Outcome<{ removed: number; status: "completed" }> {
    const access = this.access(endpointId, accountId);
    if (typeof access !== "number") return access;
    const e = this.m.endpoints[access];
    const account = e.ownerIndex >= 0 ? -1 : this.account(accountId);
    const queues = this.m.queues;
    const removed = queues.purge(e, e.queue, account) + queues.purge(e, e.lowQueue, account);
    if (e.workerCounts[W_THROTTLED] > 0) this.m.scaling.trimThrottled(e);
    this.m.retention.afterRemovals();
    return { ok: true, removed, status: "completed" };
  }

  /** GET health: the endpoint's job counts by state and its workers by state (see types.ts). */
  health(endpointId: string, accountId: string): Outcome<{ health: Health }> {
    const access = this.access(endpointId, accountId);
    if (typeof access !== "number") return access;
    const health = this.healthOf(access);
    // A shared endpoint (the conformance one, public models) serves every account: each caller
    // sees its own jobs only, or one account could watch another's traffic. Workers are shared.
    if (this.m.endpoints[access].ownerIndex !== -1) return { ok: true, health };
    return { ok: true, health: { ...health, jobs: this.m.views.accountJobs(access, this.account(accountId)) } };
  }

  /**
   * Calls listener in the engine event that makes the job final (or with undefined if the job is
   * dropped unfinished: purge, lifetime). For runsync and status-sync waits.
   */
  onFinal(endpointId: string, accountId: string, jobId: string, listener: FinalListener): Outcome<object> {
    const slot = this.find(endpointId, accountId, jobId);
    if (typeof slot !== "number") return slot;
    const state = this.m.jobs.state[slot];
    if (isFinalCode(state)) return fail("already-final", "the job is already final", STATUS_NAMES[state] as JobStatus);
    if (!this.m.lifecycle.addListener(slot, listener)) return fail("too-many-listeners", `at most ${this.m.listenerLimit} listeners per job`);
    return { ok: true };
  }

  /** Removes a listener (a wait that timed out); true if it was registered. */
  offFinal(jobId: string, listener: FinalListener): boolean {
    const ref = parseJobId(jobId, this.m.idSalt);
    if (ref === undefined || this.m.jobs.seq[ref.slot] !== ref.seq) return false;
    return this.m.lifecycle.removeListener(ref.slot, listener);
  }

  /** Webhook notifications recorded since the last drain, oldest first (at most max). */
  drainWebhooks(max?: number): WebhookEntry[] {
    return this.m.outbox.drain(max);
  }

  get webhooksDropped(): number {
    return this.m.outbox.dropped;
  }

  // ---------------------------------------------------------------- endpoints created, changed, deleted

  /**
   * Adds an endpoint an account created: its own queue, workers and random streams (forked by its
   * id, so no other endpoint's draws move), with the handler its config names through the same
   * seam as the catalog's endpoints. Returns its index.
   */
  addEndpoint(config: ServerlessEndpointConfig): number {
    return this.registry.add(config);
  }


  /**
   * Applies a changed configuration (scaling, GPU types, timeouts) to a live endpoint. Queued and
   * running jobs stay; workers above the new maximum stop unless busy (a busy one stops when it
   * idles out), and the minimum is topped up at once. False for an unknown id.
   */
  reconfigureEndpoint(id: string, config: ServerlessEndpointConfig): boolean {
    return this.registry.reconfigure(id, config);
  }


  /**
   * Deletes an endpoint (choices: the documented outcome for jobs in flight). Its IN_QUEUE jobs,
   * then its IN_PROGRESS jobs, are cancelled (runsync and status-sync waiters are answered with
   * CANCELLED, webhooks are sent), its workers stop and give their GPUs back, and its id (and
   * slug) then name nothing: every job route answers as for an unknown endpoint. Returns the
   * number of jobs cancelled, or undefined for an unknown id.
   */
  removeEndpoint(id: string): number | undefined {
    return this.registry.remove(id);
  }


  // ---------------------------------------------------------------- external executions (see ExternalExecutor, external-jobs.ts)

  /**
   * One output a running external job streamed, visible to `stream` from now on (split into
   * chunks of at most 1 MB). False when the ticket is no longer running (stopped or finished).
   */
  externalChunk(ticket: number, output: unknown): boolean {
    return this.m.external.chunk(ticket, output);
  }

  /**
   * A progress update of a running external job (the official worker's `progress_update`): its
   * status shows it as `output` while it runs. False for a stale ticket or an update over 64 KiB.
   */
  externalProgress(ticket: number, output: unknown): boolean {
    return this.m.external.progress(ticket, output);
  }

  /** The external job ended at the model's now: COMPLETED with its output, or FAILED with its error. False for a stale ticket. */
  externalFinish(ticket: number, result: ExternalResult): boolean {
    return this.m.external.finish(ticket, result);
  }

  /**
   * Pull mode (an executor with `pull: true`): a worker process outside the model takes up to
   * `max` queued jobs (normal before low priority, oldest first); each moves to IN_PROGRESS now
   * on a model worker named `workerId` that exists while the job runs, and the executor's `start`
   * is called for it before this returns. Returns the tickets started, in order; none when the
   * endpoint is unknown, deleted or not in pull mode.
   */
  externalTake(endpointId: string, workerId: string, max: number): number[] {
    return this.m.external.take(endpointId, workerId, max);
  }

  /** Jobs waiting in an endpoint's queue (live entries), or 0 for an unknown id. */
  queuedCount(endpointId: string): number {
    const index = this.m.endpointByKey.get(endpointId);
    return index === undefined ? 0 : this.m.endpoints[index].counts[IN_QUEUE];
  }

  /** Running external executions (for tests and invariants). */
  get externalRunning(): number {
    return this.m.external.running;
  }

  // ---------------------------------------------------------------- fast path and lookups

  /** The endpoint index for an id or slug, or -1. */
  endpointIndex(idOrSlug: string): number {
    return this.m.endpointByKey.get(idOrSlug) ?? -1;
  }

  /** The account index for an id, or -1. */
  accountIndex(accountId: string): number {
    return this.m.accountByid.get(accountId) ?? -1;
  }

  /**
   * Submits without resolving names or building an id: for workloads that drive the model in
   * process (capacity planning, benchmarks). Returns the job's slot, valid until the job is gone.
   * The caller has checked access and the policy bounds.
   */
  submitFast(endpoint: number, account: number, input: unknown, options?: FastSubmitOptions): number {
    return this.m.lifecycle.submit(endpoint, account, input, options);
  }

  /** The id of a held job's slot, or undefined. */
  jobIdOf(slot: number): string | undefined {
    const J = this.m.jobs;
    return slot >= 0 && slot < J.used && J.state[slot] !== FREE ? this.m.idOf(slot) : undefined;
  }

  /** The status of a held, unexpired job's slot (fast path). */
  statusOfSlot(slot: number): JobStatus | undefined {
    if (!(slot >= 0 && slot < this.m.jobs.used) || !this.m.isLive(slot, this.m.engine.now)) return undefined;
    return STATUS_NAMES[this.m.jobs.state[slot]] as JobStatus;
  }

  /**
   * Calls `fn` for every unfinished (queued or running) job of the endpoint with the time it
   * entered its queue, expired-but-unswept ones left out: how planners report the backlog at the
   * end of a run. O(job table).
   */
  forEachUnfinished(endpoint: number, fn: (running: boolean, enqueuedAt: number) => void): void {
    const J = this.m.jobs;
    const now = this.m.engine.now;
    for (let slot = 0; slot < J.used; slot++) {
      const state = J.state[slot];
      if (J.endpoint[slot] !== endpoint || (state !== IN_QUEUE && state !== IN_PROGRESS)) continue;
      if (state === IN_QUEUE && J.expiry[slot] <= now) continue;
      fn(state === IN_PROGRESS, J.enqueuedAt[slot]);
    }
  }

  /** An endpoint's workers that are not stopped, by index, without access checks (the REST workers list). */
  workersOf(endpoint: number): WorkerView[] {
    return this.m.views.workersOf(endpoint);
  }

  /** Health of an endpoint by index, without access checks (for the platform and planners). */
  healthOf(endpoint: number): Health {
    return this.m.views.healthOf(endpoint);
  }

  /** Sizes of every collection the model keeps, to show that memory returns after retention. */
  stats(): ServerlessStats {
    return this.m.views.stats();
  }

  /** Every held job and endpoint, as plain data for invariant checkers and tests. O(jobs). */
  inspect(): ServerlessInspection {
    return this.m.views.inspect();
  }

  /** Bytes of job inputs and outputs the budget counts now, the budget, and the jobs holding them. */
  retainedResults(): { bytes: number; budget: number; jobs: number } {
    return this.m.budget.retained();
  }

  // ---------------------------------------------------------------- access

  private account(accountId: string): number {
    const a = this.m.accountByid.get(accountId);
    if (a === undefined) throw new ServerlessConfigError(`unknown account ${JSON.stringify(accountId)}: authenticate first`);
    return a;
  }

  /** The endpoint index if the account may use it, else the failure. */
  private access(endpointId: string, accountId: string): number | Failure {
    const index = this.m.endpointByKey.get(endpointId);
    if (index === undefined) return fail("unknown-endpoint", `no endpoint ${JSON.stringify(endpointId)}`);
    const owner = this.m.endpoints[index].ownerIndex;
    if (owner >= 0 && owner !== this.account(accountId)) return fail("forbidden", `endpoint ${endpointId} belongs to another account`);
    return index;
  }

  /** The slot of a job this caller may see on this endpoint, else the failure (never throws). */
  private find(endpointId: string, accountId: string, jobId: string): number | Failure {
    const access = this.access(endpointId, accountId);
    if (typeof access !== "number") return access;
    const ref = parseJobId(jobId, this.m.idSalt);
    const J = this.m.jobs;
    if (
      ref === undefined ||
      ref.slot >= J.used ||
      J.seq[ref.slot] !== ref.seq ||
      J.endpoint[ref.slot] !== access ||
      J.owner[ref.slot] !== this.account(accountId) ||
      !this.m.isLive(ref.slot, this.m.engine.now)
    ) {
      return fail("not-found", `no job ${JSON.stringify(jobId)} on endpoint ${endpointId}`);
    }
    return ref.slot;
  }

  private conflict(slot: number, message: string): Failure {
    return fail("conflict", message, STATUS_NAMES[this.m.jobs.state[slot]] as JobStatus);
  }
}

function fail(error: ServerlessErrorCode, message: string, status?: JobStatus): Failure {
  return status === undefined ? { ok: false, error, message } : { ok: false, error, message, status };
}
