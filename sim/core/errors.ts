/**
 * Typed errors of the engine. Each has a stable `name` and `code` so that callers and reports can
 * match on them without parsing messages, and each carries the evidence it concerns.
 */

/** Base class of every error the simulator raises on purpose. */
export class SimError extends Error {
  override readonly name: string = "SimError";
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** The run loop reached its step cap: a model that never quiesces is a bug, not a hang. */
export class StepCapExceededError extends SimError {
  override readonly name = "StepCapExceededError";
  constructor(
    readonly steps: number,
    readonly cap: number,
    readonly now: number,
  ) {
    super(`step cap exceeded: ${steps} events run, cap ${cap}, at t=${now}us`, "CPSIM_ERR_STEP_CAP");
  }
}

/** A time that is not a non-negative safe integer number of microseconds. */
export class TimeOverflowError extends SimError {
  override readonly name = "TimeOverflowError";
  constructor(readonly value: number) {
    super(
      `time ${String(value)} is not a non-negative safe integer of microseconds`,
      "CPSIM_ERR_TIME_OVERFLOW",
    );
  }
}

/** A parameter outside its domain (a distribution's mean, a label, a priority ...). */
export class InvalidParameterError extends SimError {
  override readonly name = "InvalidParameterError";
  constructor(
    readonly parameter: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`${parameter} must be ${expected}, got ${describe(value)}`, "CPSIM_ERR_BAD_PARAM");
  }
}

/** Why a scheduling request was refused. */
export type SchedulingReason =
  | "past"
  | "unknown-kind"
  | "duplicate-kind"
  | "too-many-kinds"
  | "queue-full"
  | "reentrant";

/** A refused scheduling request: in the past, of an unknown kind, a duplicate kind name, ... */
export class SchedulingError extends SimError {
  override readonly name = "SchedulingError";
  constructor(
    readonly reason: SchedulingReason,
    message: string,
    readonly evidence: Readonly<Record<string, number | string>>,
  ) {
    super(message, "CPSIM_ERR_SCHEDULE");
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  return String(value);
}
