/**
 * A fast-check property over requests, run the way these checks need: a run that finds the rule
 * broken throws a LifecycleViolation with its evidence, fast-check shrinks it, and the shrunk
 * run's evidence becomes the failure (with fast-check's path). A target error or a bug of the
 * check stops the runs at once and is rethrown as it is: it is never a verdict, and shrinking
 * against a dead target would only multiply timeouts.
 */
import fc from "fast-check";
import type { CheckContext, CheckOutcome, FailureInput } from "../../check.ts";
import { EMBEDDED_RUNS } from "../../options.ts";
import { LifecycleViolation } from "./lifecycle-session.ts";
import { throwIfOnlyInterrupted } from "../support/interrupted.ts";

/**
 * Runs for a property whose runs cost several requests: `atDefault` with the embedded target's default `--runs`,
 * in proportion otherwise (so `--runs 500` searches ten times deeper, `--runs 1` runs once).
 */
export function scaledRuns(ctx: CheckContext, atDefault: number): number {
  return Math.max(1, Math.round((ctx.options.runs * atDefault) / EMBEDDED_RUNS));
}

export interface PropertyResult {
  /** The failure of the shrunk counterexample, when the rule broke. */
  readonly outcome?: CheckOutcome;
  /** Runs that judged something (a run may find nothing to judge and say so by returning false). */
  readonly judged: number;
}

/** `numRuns` is the count at the default `--runs`. `run` returns true when it judged the request, false when the case did not apply; it throws a violation via `violate`. */
export async function checkRequests<T>(
  ctx: CheckContext,
  arb: fc.Arbitrary<T>,
  numRuns: number,
  run: (value: T, violate: (failure: FailureInput) => never) => Promise<boolean>,
): Promise<PropertyResult> {
  let fatal: unknown;
  let judged = 0;
  const violate = (failure: FailureInput): never => {
    throw new LifecycleViolation(failure);
  };
  const property = fc.asyncProperty(arb, async (value) => {
    if (fatal !== undefined) return;
    try {
      if (await run(value, violate)) judged++;
    } catch (err) {
      if (err instanceof LifecycleViolation) throw err;
      fatal = err;
    }
  });
  const details = await fc.check(property, { ...ctx.fc, numRuns: scaledRuns(ctx, numRuns) });
  if (fatal !== undefined) throw fatal;
  throwIfOnlyInterrupted(details, details.errorInstance instanceof LifecycleViolation);
  if (!details.failed) return { judged };
  const err = details.errorInstance;
  if (!(err instanceof LifecycleViolation)) throw err;
  return { judged, outcome: ctx.fail({ ...err.failure, ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}) }) };
}
