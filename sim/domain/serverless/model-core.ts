/**
 * What every part of the serverless model shares: the job table, the endpoints, the worker table,
 * the read state of jobs (listeners, streams, webhooks), the settings in the units the model
 * stores, and the parts themselves, so that one part can hand a job to another (a queue to the
 * lifecycle, the lifecycle to a worker, a sweep to the lifecycle). Serverless (serverless.ts) is
 * the façade over them; each part owns one responsibility:
 *
 * - job-queues.ts       the per-endpoint queues (normal, low priority) and purge;
 * - job-lifecycle.ts    IN_QUEUE → IN_PROGRESS → final, cancel, retry, drop, listeners, webhooks;
 * - retention.ts        lifetimes, retention ends, status ttl, the coalesced expiry sweep;
 * - worker-scaling.ts   workers on leased GPUs, cold start, idle timeout, the autoscaler;
 * - external-jobs.ts    jobs run by executors and outside worker processes (pull mode);
 * - output-budget.ts    the output size limit and the memory budget of inputs and results;
 * - job-views.ts        what reads return: job views, worker ids, health, stats, inspection;
 * - endpoint-registry.ts endpoints created (catalog's and accounts'), reconfigured, deleted.
 */
import type { Engine, EventKind, Micros, Rng } from "../../core/index.ts";
import type { GpuPool } from "../gpu-pool.ts";
import type { EndpointState } from "./endpoint-state.ts";
import { formatJobId } from "./job-id.ts";
import { FREE, IN_PROGRESS, STATUS_NAMES } from "./job-status.ts";
import type { JobStatus, TransitionCause } from "./job-status.ts";
import { JobTable } from "./job-table.ts";
import type { ExternalJobs } from "./external-jobs.ts";
import type { JobLifecycle } from "./job-lifecycle.ts";
import type { JobQueues } from "./job-queues.ts";
import type { JobViews } from "./job-views.ts";
import type { OutputBudget } from "./output-budget.ts";
import type { Retention } from "./retention.ts";
import { ServerlessConfigError } from "./serverless-config-error.ts";
import type { FlatStream } from "./stream-chunks.ts";
import type { FinalListener, ServerlessOptions } from "./types.ts";
import { WebhookOutbox } from "./webhook-outbox.ts";
import type { Worker } from "./worker.ts";
import type { WorkerScaling } from "./worker-scaling.ts";

export const US = 1000;
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

/** The event kinds of the model, defined once by the façade in a fixed order (kind ids are part of the event log). */
export interface ModelKinds {
  readonly finish: EventKind;
  readonly ready: EventKind;
  readonly idle: EventKind;
  readonly scale: EventKind;
  readonly sweep: EventKind;
}

export class ModelCore {
  readonly jobs = new JobTable();
  readonly endpoints: EndpointState[] = [];
  readonly endpointByKey = new Map<string, number>();
  readonly accountByid = new Map<string, number>();
  readonly workers: Worker[] = [];
  readonly listeners = new Map<number, FinalListener[]>();
  readonly streams = new Map<number, FlatStream>();
  readonly outbox: WebhookOutbox;
  readonly runRetentionUs: number;
  readonly syncRetentionUs: number;
  readonly defaultTtlUs: number;
  readonly sweepIntervalUs: number;
  readonly overheadUs: number;
  readonly listenerLimit: number;
  readonly maxOutputBytes: number;
  readonly resultsBudgetBytes: number;
  readonly onTransition: ServerlessOptions["onTransition"];
  readonly observer: ServerlessOptions["observer"];
  readonly idSalt: number;
  readonly workerSalt: number;
  kinds!: ModelKinds;
  // The parts, set once by the façade right after this core is made.
  queues!: JobQueues;
  lifecycle!: JobLifecycle;
  retention!: Retention;
  scaling!: WorkerScaling;
  external!: ExternalJobs;
  budget!: OutputBudget;
  views!: JobViews;

  constructor(
    readonly engine: Engine,
    readonly pool: GpuPool,
    rng: Rng,
    options: ServerlessOptions,
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
    this.onTransition = options.onTransition;
    this.observer = options.observer;
    this.outbox = new WebhookOutbox(opt("webhookOutboxLimit"));
    const ids = rng.fork("ids");
    this.idSalt = (ids.next() * 4294967296) >>> 0;
    this.workerSalt = (ids.next() * 4294967296) >>> 0;
  }

  idOf(slot: number): string {
    return formatJobId(slot, this.jobs.seq[slot], this.idSalt);
  }

  /** Whether a held job is visible at `now` (its expiry not reached; running jobs end by event). */
  isLive(slot: number, now: Micros): boolean {
    const state = this.jobs.state[slot];
    return state !== FREE && (state === IN_PROGRESS || this.jobs.expiry[slot] > now);
  }

  trace(slot: number, from: number | "(none)", to: number, cause: TransitionCause): void {
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
