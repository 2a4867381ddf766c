/**
 * The serverless model's public data: options, requests, the job view operations return, health,
 * stream chunks and typed outcomes. Operations never throw for a caller's mistake; they return
 * `{ ok: false, error }` and the API layer maps the error to a status code.
 */
import type { JobHandler, TextMetrics } from "../handlers/index.ts";
import type { JobStatus, JobTransition } from "./job-status.ts";
import type { ServerlessObserver } from "./observer.ts";

export type { JobStatus, JobTransition } from "./job-status.ts";

export interface ServerlessOptions {
  /** Event-kind names are `${kindPrefix}.finish` and so on; default "serverless". */
  readonly kindPrefix?: string;
  /** Result retention after completion for `run` jobs; choices.md: 30 minutes. */
  readonly runRetentionMs?: number;
  /** Result retention after completion for `runsync` jobs; choices.md: 1 minute. */
  readonly syncRetentionMs?: number;
  /** Lifetime of a job without policy.ttl, counted from submission; choices.md: 24 hours. */
  readonly defaultTtlMs?: number;
  /** How often, at most, expired jobs are swept from memory (lookups are exact regardless). */
  readonly sweepIntervalMs?: number;
  /** Worker time added to every execution on top of the handler's own duration; default 0. */
  readonly executionOverheadMs?: number;
  /** Webhook entries kept for the HTTP layer to drain; the oldest is dropped beyond this. */
  readonly webhookOutboxLimit?: number;
  /** Completion listeners one job may have at once. */
  readonly listenerLimit?: number;
  /** Largest output (about its JSON size in bytes) kept for one job; a larger one fails the job. Default 16 MiB. */
  readonly maxOutputBytes?: number;
  /** Bytes of outputs of 4 KiB and more held at once; a job whose output does not fit fails. Default 256 MiB. */
  readonly resultsBudgetBytes?: number;
  /** Handler lookup by the endpoint's `handler` name; default the built-in handlers. */
  readonly resolveHandler?: (name: string) => JobHandler | undefined;
  /** Called on every job state change; for invariant checkers and traces (costs nothing when absent). */
  readonly onTransition?: (transition: JobTransition) => void;
  /** Metrics hooks for planners (see observer.ts); costs one check per hook point when absent. */
  readonly observer?: ServerlessObserver;
  /**
   * Endpoints (by id) whose jobs run real code instead of their handler's plan; see
   * ExternalExecutor. Their handler name in the catalog is then not used.
   */
  readonly executors?: ReadonlyMap<string, ExternalExecutor>;
}

/**
 * The seam for real handlers (`cpsim serve --handler`). For an endpoint with an executor, a worker
 * that takes a job calls `start` instead of asking for a plan; the job stays IN_PROGRESS until
 * the executor calls `Serverless.externalChunk` (stream outputs) and then `externalFinish` with the
 * same ticket, at whatever model time that happens. Everything else (queue, workers, scaling,
 * cancel, retry, execution timeout, ttl, retention, webhooks, health) is the model's as for any
 * endpoint. When the model ends a running job itself (cancel, execution timeout, lifetime), it
 * calls `stop` and ignores anything reported later with that ticket. The model stays pure: it
 * only calls these functions, and the executor must not call back into the model from inside them.
 */
export interface ExternalExecutor {
  /**
   * Pull mode: the model starts no workers for the endpoint; worker processes outside it take
   * queued jobs with `Serverless.externalTake`, and `start` is called from inside that call.
   */
  readonly pull?: boolean;
  start(ticket: number, job: ExternalJob): void;
  stop(ticket: number): void;
}

export interface ExternalJob {
  readonly id: string;
  readonly input: unknown;
  readonly endpointId: string;
  readonly workerId: string;
}

/** How an external execution ended, as the executor reports it. */
export type ExternalResult = { readonly ok: true; readonly output: unknown } | { readonly ok: false; readonly error: string };

export interface JobPolicy {
  /** Execution timeout in ms (choices.md: 5 s..7 days, default the endpoint's). */
  readonly executionTimeout?: number;
  /** Job lifetime in ms counted from submission (choices.md: 10 s..7 days). Replaces retention. */
  readonly ttl?: number;
  /** Served after every normal job of the endpoint. */
  readonly lowPriority?: boolean;
}

export interface SubmitRequest {
  /** Endpoint id or public model slug. */
  readonly endpointId: string;
  readonly accountId: string;
  readonly input: unknown;
  /** "runsync" keeps the result 1 minute instead of 30; default "run". */
  readonly mode?: "run" | "runsync";
  readonly webhook?: string;
  readonly policy?: JobPolicy;
}

/** A job as the status operation shows it; fields follow the spec's Job record. */
export interface JobView {
  readonly id: string;
  readonly status: JobStatus;
  /** ms waited in the queue before the (latest) start; present once the job started. */
  readonly delayTime?: number;
  /** ms of execution; present once the job ended after starting. */
  readonly executionTime?: number;
  /** Echoed while the job is IN_QUEUE or IN_PROGRESS. */
  readonly input?: unknown;
  /** The handler's output of a COMPLETED job. */
  readonly output?: unknown;
  /** Why a FAILED or TIMED_OUT job failed. */
  readonly error?: string;
  /** Present once the job started. */
  readonly workerId?: string;
  /** Times the job was retried (not in the spec's record; the API layer may omit it). */
  readonly retries: number;
}

export interface StreamChunk {
  readonly output: unknown;
  readonly metrics?: TextMetrics;
}

export interface HealthJobs {
  /** Retained jobs in COMPLETED. */
  readonly completed: number;
  /** Retained jobs in FAILED or TIMED_OUT. */
  readonly failed: number;
  readonly inProgress: number;
  readonly inQueue: number;
  /** Retained jobs that were retried at least once. */
  readonly retried: number;
}

export interface HealthWorkers {
  /** Booted, holding GPUs, without a job. */
  readonly idle: number;
  /** Executing a job. */
  readonly running: number;
  /** Cold starting: GPUs taken, not yet ready. */
  readonly initializing: number;
  /** Booted workers: idle + running. */
  readonly ready: number;
  /** Wanted by the scaler but waiting for GPUs of the endpoint's types. */
  readonly throttled: number;
  /** Failed workers; the model has no worker failures yet, so always 0. */
  readonly unhealthy: number;
}

export interface Health {
  readonly jobs: HealthJobs;
  readonly workers: HealthWorkers;
}

export type ServerlessErrorCode =
  /** No endpoint with that id or slug. */
  | "unknown-endpoint"
  /** The endpoint belongs to another account. */
  | "forbidden"
  /** No such job for this caller: unknown, another account's, expired or purged. */
  | "not-found"
  /** The job's state does not allow the operation (retry of a job not FAILED/TIMED_OUT, cancel of a final job). */
  | "conflict"
  /** stream on an endpoint whose handler cannot stream. */
  | "not-streaming"
  /** onFinal on a job that is already final. */
  | "already-final"
  /** onFinal beyond listenerLimit. */
  | "too-many-listeners"
  /** The submission's input does not fit the budget for retained job data (resultsBudgetBytes). */
  | "over-budget";

export interface Failure {
  readonly ok: false;
  readonly error: ServerlessErrorCode;
  readonly message: string;
  /** For "conflict": the job's current status. */
  readonly status?: JobStatus;
}

export type Outcome<T> = ({ readonly ok: true } & T) | Failure;

/** Called in the engine event that makes the job final, or with undefined if it is dropped unfinished. */
export type FinalListener = (job: JobView | undefined) => void;

export interface WebhookEntry {
  readonly url: string;
  readonly endpointId: string;
  /** Virtual time of the final state. */
  readonly at: number;
  readonly job: JobView;
}
