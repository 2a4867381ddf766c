/**
 * A job's life: submitted (IN_QUEUE), started on a worker (IN_PROGRESS, its handler's plan drawn
 * from a seed of its endpoint's sequence and attempt), then final (COMPLETED, FAILED, TIMED_OUT,
 * CANCELLED) or dropped (expired, purged). A job costs one engine event of its own, its finish,
 * scheduled at the earliest of its plan's end, its execution timeout and its lifetime. Listeners
 * (runsync and status-sync waits) and the webhook hear of it in the event that makes it final.
 */
import type { Engine, EventKind, Micros } from "../../core/index.ts";
import type { HandlerContext } from "../handlers/index.ts";
import type { EndpointState } from "./endpoint-state.ts";
import { mix32 } from "./job-id.ts";
import { CANCELLED, COMPLETED, FAILED, FREE, IN_PROGRESS, IN_QUEUE, STATUS_NAMES, TIMED_OUT } from "./job-status.ts";
import type { JobStatus, TransitionCause } from "./job-status.ts";
import {
  F_EXPLICIT_TIMEOUT,
  F_EXPLICIT_TTL,
  F_HAS_PLAN,
  F_LISTENERS,
  F_LOW_PRIORITY,
  F_PLAN_FAILS,
  F_RETRIED,
  F_STARTED,
  F_STATUS_TTL,
  F_STREAMED,
  F_SYNC,
  F_WEBHOOK,
} from "./job-table.ts";
import type { JobTable } from "./job-table.ts";
import { US } from "./model-core.ts";
import type { ModelCore } from "./model-core.ts";
import type { FinalListener, JobView } from "./types.ts";
import { W_IDLE, W_RUNNING } from "./worker.ts";
import type { Worker } from "./worker.ts";

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

const NO_OPTIONS: FastSubmitOptions = Object.freeze({});

/** The context handed to handler.plan, reused for every job: the id string is built only if read. */
class PlanContext implements HandlerContext {
  seed = 0;
  slot = 0;
  constructor(
    private readonly m: ModelCore,
    readonly outputRefusal: (bytes: number) => string | undefined,
  ) {}
  get jobId(): string {
    const slot = this.slot;
    const J = this.m.jobs;
    return slot >= 0 && slot < J.used && J.state[slot] !== FREE ? this.m.idOf(slot) : "";
  }
}

export class JobLifecycle {
  private readonly jobs: JobTable;
  private readonly endpoints: EndpointState[];
  private readonly workers: Worker[];
  private readonly engine: Engine;
  private readonly onTransition: ModelCore["onTransition"];
  private readonly observer: ModelCore["observer"];
  private readonly ctx: PlanContext;
  private readonly kindFinish: EventKind;
  private seqCounter = 0;

  constructor(private readonly m: ModelCore) {
    this.jobs = m.jobs;
    this.endpoints = m.endpoints;
    this.workers = m.workers;
    this.engine = m.engine;
    this.onTransition = m.onTransition;
    this.observer = m.observer;
    this.ctx = new PlanContext(m, (bytes) => m.budget.outputRefusal(bytes));
    this.kindFinish = m.kinds.finish;
  }

  /** A new job on the endpoint, queued (or started on an idle worker) now. Returns its slot. */
  submit(endpoint: number, account: number, input: unknown, options: FastSubmitOptions = NO_OPTIONS): number {
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
    this.m.retention.setLifetime(slot, now);
    if (this.onTransition !== undefined) this.m.trace(slot, "(none)", IN_QUEUE, "submit");
    this.m.queues.enqueue(e, slot, now);
    return slot;
  }

  start(e: EndpointState, w: Worker, slot: number, now: Micros): void {
    const J = this.jobs;
    const flags = J.flags[slot] | F_STARTED;
    J.state[slot] = IN_PROGRESS;
    e.counts[IN_QUEUE]--;
    e.counts[IN_PROGRESS]++;
    J.startedAt[slot] = now;
    J.worker[slot] = w.index;
    if (e.executor !== undefined) {
      this.m.external.start(e, w, slot, now, flags);
      return;
    }
    const ctx = this.ctx;
    ctx.slot = slot;
    const seq = J.epSeq[slot];
    // The high word of the sequence only matters after 2^32 jobs on one endpoint.
    const hi = seq < 4294967296 ? 0 : mix32(Math.floor(seq / 4294967296));
    const attempt = (flags & F_RETRIED) === 0 ? 0 : J.attempt[slot];
    ctx.seed = mix32(e.seedSalt ^ mix32((seq ^ hi) + Math.imul(attempt, 0x9e3779b9)));
    const plan = this.m.budget.withinBudget(e.handler.plan(J.inputs[slot], ctx), slot);
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
    this.occupy(e, w, slot, now, flags, plan.durationMs * US + this.m.overheadUs);
    if (this.onTransition !== undefined) this.m.trace(slot, IN_QUEUE, IN_PROGRESS, "start");
    if (this.observer !== undefined) this.observer.jobStarted(e.index, J.enqueuedAt[slot], now);
  }

  /**
   * The worker runs the job for `durationUs` (Infinity: until an executor reports), cut short by
   * the execution timeout or the job's lifetime: the finish event is scheduled at the earliest.
   */
  occupy(e: EndpointState, w: Worker, slot: number, now: Micros, flags: number, durationUs: number): void {
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

  onFinish(slot: number, now: Micros): void {
    const J = this.jobs;
    if (J.state[slot] !== IN_PROGRESS) return;
    this.m.external.stop(slot);
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
    this.m.scaling.releaseWorker(e, w, now);
    this.notify(slot, now);
  }

  /** Moves an IN_QUEUE or IN_PROGRESS job to a final state and starts its retention. */
  finalize(e: EndpointState, slot: number, code: number, now: Micros, cause: TransitionCause): void {
    const J = this.jobs;
    const from = J.state[slot];
    e.counts[from]--;
    e.counts[code]++;
    J.state[slot] = code;
    J.finishedAt[slot] = now;
    if (from === IN_PROGRESS) J.worker[slot] = this.m.external.finishedWorkerRef(this.workers[J.worker[slot]]);
    const flags = J.flags[slot];
    const retention = this.m.retention;
    if ((flags & F_STATUS_TTL) !== 0) {
      const at = J.statusTtlAt[slot];
      retention.setExpiryIrregular(slot, at > now ? at : now);
    } else if ((flags & F_EXPLICIT_TTL) === 0) {
      if ((flags & F_SYNC) !== 0) retention.setExpiry(slot, now + this.m.syncRetentionUs, retention.syncRetention);
      else retention.setExpiry(slot, now + this.m.runRetentionUs, retention.runRetention);
    }
    // With policy.ttl the lifetime deadline set at submission stays the expiry: ttl replaces retention.
    if (this.onTransition !== undefined) this.m.trace(slot, from, code, cause);
    if (this.observer !== undefined) {
      this.observer.jobEnded(e.index, STATUS_NAMES[code] as JobStatus, J.enqueuedAt[slot], from === IN_PROGRESS ? J.startedAt[slot] : -1, now);
    }
  }

  /** Listeners and webhook of a job that just became final. */
  notify(slot: number, now: Micros): void {
    const J = this.jobs;
    const flags = J.flags[slot];
    if ((flags & (F_LISTENERS | F_WEBHOOK)) === 0) return;
    const view = this.m.views.view(slot);
    if ((flags & F_WEBHOOK) !== 0) {
      const e = this.endpoints[J.endpoint[slot]];
      this.m.outbox.push({ url: J.webhooks[slot] as string, endpointId: e.config.id, at: now, job: view });
    }
    if ((flags & F_LISTENERS) !== 0) this.fireListeners(slot, view);
  }

  /** Registers a wait for the job's final state; false when the job holds listenerLimit already. */
  addListener(slot: number, listener: FinalListener): boolean {
    let list = this.m.listeners.get(slot);
    if (list === undefined) {
      list = [];
      this.m.listeners.set(slot, list);
      this.jobs.flags[slot] |= F_LISTENERS;
    }
    if (list.length >= this.m.listenerLimit) return false;
    list.push(listener);
    return true;
  }

  /** Removes a registered wait; true if it was registered. */
  removeListener(slot: number, listener: FinalListener): boolean {
    const list = this.m.listeners.get(slot);
    const i = list === undefined ? -1 : list.indexOf(listener);
    if (list === undefined || i < 0) return false;
    list.splice(i, 1);
    if (list.length === 0) {
      this.m.listeners.delete(slot);
      this.jobs.flags[slot] &= ~F_LISTENERS;
    }
    return true;
  }

  private fireListeners(slot: number, view: JobView | undefined): void {
    const list = this.m.listeners.get(slot);
    this.m.listeners.delete(slot);
    this.jobs.flags[slot] &= ~F_LISTENERS;
    if (list !== undefined) for (const listener of list) listener(view);
  }

  cancel(slot: number): boolean {
    const J = this.jobs;
    const state = J.state[slot];
    if (state !== IN_QUEUE && state !== IN_PROGRESS) return false;
    const e = this.endpoints[J.endpoint[slot]];
    const now = this.engine.now;
    if (state === IN_QUEUE) {
      // The queue entry turns stale by the state change.
      this.m.queues.unqueue(e, slot);
      this.finalize(e, slot, CANCELLED, now, "cancel");
    } else {
      this.engine.cancel(J.handle[slot]);
      this.m.external.stop(slot);
      const w = this.workers[J.worker[slot]];
      this.finalize(e, slot, CANCELLED, now, "cancel");
      this.m.scaling.releaseWorker(e, w, now);
    }
    this.notify(slot, now);
    return true;
  }

  retry(slot: number): boolean {
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
    if (this.m.budget.bigResults.size > 0) this.m.budget.releaseResult(slot);
    if ((J.flags[slot] & F_STREAMED) !== 0) {
      this.m.streams.delete(slot);
      J.flags[slot] &= ~F_STREAMED;
    }
    // A retry is a new submission of the same job: its lifetime starts again.
    this.m.retention.setLifetime(slot, now);
    if (this.onTransition !== undefined) this.m.trace(slot, state, IN_QUEUE, "retry");
    this.m.queues.enqueue(e, slot, now);
    return true;
  }

  /**
   * The job is gone: expired, purged, or dropped at its lifetime. A queued job's queue entry
   * turns stale (callers that popped it adjusted the queue counts); a running job stops and frees
   * its worker.
   */
  drop(slot: number, cause: TransitionCause): void {
    const J = this.jobs;
    const e = this.endpoints[J.endpoint[slot]];
    const state = J.state[slot];
    const now = this.engine.now;
    e.counts[state]--;
    if ((J.flags[slot] & F_RETRIED) !== 0) e.retried--;
    if (this.onTransition !== undefined) this.m.trace(slot, state, -1, cause);
    if (this.observer !== undefined && (state === IN_QUEUE || state === IN_PROGRESS)) {
      this.observer.jobDropped(e.index, state === IN_PROGRESS, J.enqueuedAt[slot], cause, now);
    }
    if (state === IN_PROGRESS) {
      this.engine.cancel(J.handle[slot]);
      this.m.external.stop(slot);
      const w = this.workers[J.worker[slot]];
      J.state[slot] = FREE;
      this.m.scaling.releaseWorker(e, w, now);
    }
    if ((J.flags[slot] & F_LISTENERS) !== 0) this.fireListeners(slot, undefined);
    if ((J.flags[slot] & F_STREAMED) !== 0) this.m.streams.delete(slot);
    const budget = this.m.budget;
    if (budget.bigResults.size > 0) budget.releaseResult(slot);
    if (budget.bigInputs.size > 0) budget.releaseInput(slot);
    J.release(slot);
  }

  /** drop() for the common case of a final job reaching its retention end, kept lean for the sweep. */
  expireFinal(slot: number, state: number): void {
    const J = this.jobs;
    const e = this.endpoints[J.endpoint[slot]];
    e.counts[state]--;
    const flags = J.flags[slot];
    if ((flags & F_RETRIED) !== 0) e.retried--;
    if (this.onTransition !== undefined) this.m.trace(slot, state, -1, "expire");
    if ((flags & F_STREAMED) !== 0) this.m.streams.delete(slot);
    const budget = this.m.budget;
    if (budget.bigResults.size > 0) budget.releaseResult(slot);
    if (budget.bigInputs.size > 0) budget.releaseInput(slot);
    J.release(slot);
  }
}
