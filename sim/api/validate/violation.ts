/**
 * What a validator answers: the normalized value, or every violation it found with the status
 * the emulator gives the request. A violation names the rule it breaks, so a report can quote
 * the spec sentence, and a JSON pointer to the offending value (`?name` for a query parameter).
 */
import { ruleById, type RuleId } from "../rules/index.ts";

export interface Violation {
  readonly ruleId: RuleId;
  /** JSON pointer into the body ("" is the body itself), or `?name` for a query parameter. */
  readonly path: string;
  /** A sentence saying what was wrong and what to send instead. */
  readonly message: string;
}

export interface ValidationFailure {
  readonly ok: false;
  readonly status: number;
  readonly violations: readonly Violation[];
}

export type Validated<T> = { readonly ok: true; readonly value: T } | ValidationFailure;

/**
 * The status of a request with these violations: 413 when the body is too large (it is not
 * read further), else 400 when any violated rule answers 400 (a conflict with the rules
 * outranks a schema failure), else the rules' own status (422 for schema failures).
 */
export function failureStatus(violations: readonly Violation[]): number {
  const statuses = violations.map((v) => ruleById(v.ruleId).status ?? 400);
  if (statuses.includes(413)) return 413;
  if (statuses.includes(400)) return 400;
  return statuses.length > 0 ? Math.min(...statuses) : 400;
}

/** A failure from its violations, each reported once (same rule and path). */
export function fail(violations: readonly Violation[]): ValidationFailure {
  const seen = new Set<string>();
  const unique = violations.filter((v) => {
    const key = `${v.ruleId} ${v.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { ok: false, status: failureStatus(unique), violations: unique };
}

/** The detail and `errors` list of an ErrorResponse for this failure. */
export function describeFailure(failure: ValidationFailure): { detail: string; errors: string[] } {
  const n = failure.violations.length;
  const first = failure.violations[0]?.message ?? "The request is not valid.";
  const detail = n === 1 ? first : `The request has ${n} problems; each is listed in errors.`;
  return { detail, errors: failure.violations.map((v) => v.message) };
}
