// Serverless endpoints: queues, autoscaled workers on leased GPUs, jobs, retention and streaming.
export { SERVERLESS_DEFAULTS, Serverless } from "./serverless.ts";
export { TestPool } from "./test-pool.ts";
export type { FastSubmitOptions, InspectedJob, ServerlessCatalog, ServerlessInspection, ServerlessStats, WorkerView } from "./serverless.ts";
export type { ServerlessEndpointConfig } from "./endpoint-state.ts";
export type { ServerlessObserver } from "./observer.ts";
export { ServerlessConfigError } from "./serverless-config-error.ts";
export { ALLOWED_TRANSITIONS, JOB_STATUSES, isFinalStatus } from "./job-status.ts";
export type { JobStatus, JobTransition, TransitionCause } from "./job-status.ts";
export { formatJobId, parseJobId } from "./job-id.ts";
export type {
  ExternalExecutor,
  ExternalJob,
  ExternalResult,
  Failure,
  FinalListener,
  Health,
  HealthJobs,
  HealthWorkers,
  JobPolicy,
  JobView,
  Outcome,
  ServerlessErrorCode,
  ServerlessOptions,
  StreamChunk,
  SubmitRequest,
  WebhookEntry,
} from "./types.ts";
