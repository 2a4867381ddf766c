/**
 * Typed errors of the conformance suite, each with a stable `name` and `code` and the evidence
 * it concerns. `exitCode` tells the CLI dispatcher how to end: configuration problems and an
 * unreachable target are 2, as `cpsim conform` promises.
 */
import type { RecordedRequest } from "../reports/conformance-report.ts";

export type TargetErrorCode =
  | "CPSIM_ERR_TARGET_TIMEOUT"
  | "CPSIM_ERR_TARGET_CONNECTION"
  | "CPSIM_ERR_TARGET_RATE_LIMITED"
  | "CPSIM_ERR_TARGET_RESPONSE_TOO_LARGE";

/**
 * The target could not be talked to: a timeout, a refused or reset connection, a rate limit
 * that would not lift within the time allowed, an answer too large to read. It is reported
 * with its request and never turned into a verdict on the rule that was running.
 */
export class TargetError extends Error {
  override readonly name = "TargetError";
  readonly exitCode = 2;
  constructor(
    readonly code: TargetErrorCode,
    message: string,
    readonly request: RecordedRequest,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A bad option value, an unreadable baseline, an unreachable target: exit 2, saying which. */
export class ConformConfigError extends Error {
  override readonly name = "ConformConfigError";
  readonly exitCode = 2;
  constructor(
    readonly code:     | "CPSIM_ERR_CONFIG"
      | "CPSIM_ERR_BASELINE"
      | "CPSIM_ERR_TARGET_UNREACHABLE"
      | "CPSIM_ERR_NO_TARGET"
      | "CPSIM_ERR_KEY_REFUSED"
      | "CPSIM_ERR_NO_ENDPOINT"
      | "CPSIM_ERR_NOTHING_SELECTED"
      | "CPSIM_ERR_NOTHING_JUDGED",
    message: string,
  ) {
    super(message);
  }
}

/** Registering a check wrongly is a programming error, raised when the module loads. */
export class CheckRegistryError extends Error {
  override readonly name = "CheckRegistryError";
  constructor(
    readonly code: "CPSIM_ERR_DUPLICATE_CHECK" | "CPSIM_ERR_UNKNOWN_RULE",
    message: string,
    readonly ruleId: string,
  ) {
    super(message);
  }
}
