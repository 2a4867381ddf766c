/**
 * Runs a fast-check property whose judge sends requests and answers with the failure it saw (or
 * nothing). fast-check explores and shrinks; the failure returned is the one of the final,
 * shrunk counterexample (each shrink step that fails replaces the last failure, and the final
 * counterexample is the last run that failed), with fast-check's path for replay.
 *
 * An exception (a TargetError, a bug of the check) is not a counterexample: the property stops
 * sending requests at once and the exception is rethrown after fast-check returns, so the
 * runner reports a target error instead of a shrunk "failure".
 */
import * as fc from "fast-check";
import type { CheckContext, FailureInput } from "../../check.ts";

export interface PropertyRun<T> {
  /** Random runs after the examples (fast-check counts the examples among its runs; this does not). */
  readonly numRuns: number;
  /** Values tried first, so every case of a small list is covered whatever the seed. */
  readonly examples?: readonly T[];
}

export async function findFailure<T>(
  ctx: CheckContext,
  arb: fc.Arbitrary<T>,
  judge: (value: T) => Promise<FailureInput | undefined>,
  run: PropertyRun<T>,
): Promise<FailureInput | undefined> {
  let last: FailureInput | undefined;
  let thrown: { error: unknown } | undefined;
  const property = fc.asyncProperty(arb, async (value) => {
    if (thrown) return true;
    try {
      const failure = await judge(value);
      if (failure) last = failure;
      return failure === undefined;
    } catch (error) {
      thrown = { error };
      return true;
    }
  });
  const details = await fc.check(property, {
    seed: ctx.fc.seed,
    numRuns: Math.max(1, run.numRuns) + (run.examples?.length ?? 0),
    examples: (run.examples ?? []).map((e) => [e] as [T]),
  });
  if (thrown) throw thrown.error;
  if (!details.failed || last === undefined) return undefined;
  return details.counterexamplePath ? { ...last, path: details.counterexamplePath } : last;
}

/** A small run count for properties whose every run costs requests. */
export function fewRuns(ctx: CheckContext, most: number): number {
  return Math.max(1, Math.min(ctx.options.runs, most));
}
