/**
 * Job states as small integers (the job table stores one byte per job) and the spec's transition
 * table, which both the model and the invariant checkers read.
 */
export const FREE = 0;
export const IN_QUEUE = 1;
export const IN_PROGRESS = 2;
export const COMPLETED = 3;
export const FAILED = 4;
export const CANCELLED = 5;
export const TIMED_OUT = 6;
export const STATE_COUNT = 7;

export const JOB_STATUSES = ["IN_QUEUE", "IN_PROGRESS", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Index = state code; FREE has no name. */
export const STATUS_NAMES: readonly (JobStatus | "")[] = ["", ...JOB_STATUSES];

export function isFinalCode(code: number): boolean {
  return code >= COMPLETED;
}

export function isFinalStatus(status: JobStatus): boolean {
  return status !== "IN_QUEUE" && status !== "IN_PROGRESS";
}

/**
 * Moves the model makes, from the spec's job status table plus the causes it leaves open
 * ("not shown"): a handler that raises ends FAILED (choices.md) and one that exceeds its execution
 * timeout ends TIMED_OUT. "(none)" is before submission; "(gone)" is after expiry or purge.
 */
export const ALLOWED_TRANSITIONS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  "(none)": ["IN_QUEUE"],
  IN_QUEUE: ["IN_PROGRESS", "CANCELLED", "(gone)"],
  IN_PROGRESS: ["COMPLETED", "FAILED", "TIMED_OUT", "CANCELLED", "(gone)"],
  COMPLETED: ["(gone)"],
  FAILED: ["IN_QUEUE", "(gone)"],
  TIMED_OUT: ["IN_QUEUE", "(gone)"],
  CANCELLED: ["(gone)"],
});

export type TransitionCause = "submit" | "start" | "finish" | "timeout" | "cancel" | "retry" | "purge" | "expire";

/** One state change, as reported to ServerlessOptions.onTransition. */
export interface JobTransition {
  /** Unique per job for the model's lifetime (the job's sequence number). */
  readonly key: number;
  readonly endpointId: string;
  readonly from: JobStatus | "(none)";
  readonly to: JobStatus | "(gone)";
  readonly cause: TransitionCause;
  readonly at: number;
}
