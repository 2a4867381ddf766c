/**
 * Running a fast-check property whose runs send requests, and turning its counterexample into
 * a failure. The probe returns the failure of one run (or nothing); the last failing run is the
 * shrunk counterexample, and its exchange the evidence. Two limits keep a failing rule cheap
 * against a rate-limited target: shrinking stops after `shrinkBudget` further runs (each later
 * run passes without a request), and an exception (a target error) ends the property at once
 * and is rethrown, so the runner reports it as a target error, never as the rule's verdict.
 */
import fc from "fast-check";
import type { CheckContext, CheckOutcome, FailureInput } from "../../check.ts";
import { throwIfOnlyInterrupted } from "../support/interrupted.ts";

export interface PropertyOptions {
  readonly numRuns: number;
  /** Runs allowed after the first failure, for shrinking (default 40). */
  readonly shrinkBudget?: number;
  /** Values tried before the generated ones (one of each kind a rule must see). */
  readonly examples?: readonly unknown[];
}

export type Probe<T> = (value: T) => Promise<FailureInput | undefined>;

/**
 * A share of --runs, for properties of one request per run that are many (a check per rule):
 * the default 50 runs give 20, and a larger --runs still buys more.
 */
export const scaledRuns = (ctx: CheckContext, share: number): number => Math.max(1, Math.round(ctx.options.runs * share));

/** Runs counts for properties whose runs cost several requests (a pod made and terminated). */
export const fewRuns = (ctx: CheckContext, max: number): number => Math.max(1, Math.min(ctx.options.runs, max));

export async function checkProperty<T>(ctx: CheckContext, arb: fc.Arbitrary<T>, probe: Probe<T>, opts: PropertyOptions): Promise<CheckOutcome | undefined> {
  let last: FailureInput | undefined;
  let afterFailure = 0;
  let thrown: { error: unknown } | undefined;
  const budget = opts.shrinkBudget ?? 40;
  const property = fc.asyncProperty(arb, async (value) => {
    if (thrown || (last && afterFailure++ >= budget)) return true;
    try {
      const failure = await probe(value);
      if (failure === undefined) return true;
      last = failure;
      return false;
    } catch (error) {
      // fc.pre() in a probe skips the run; it is not an error.
      if (fc.PreconditionFailure.isFailure(error)) throw error;
      thrown = { error };
      return true;
    }
  });
  const examples = (opts.examples ?? []).map((e) => [e] as [T]);
  const details = await fc.check(property, { ...ctx.fc, numRuns: opts.numRuns, ...(examples.length > 0 ? { examples } : {}) });
  if (thrown) throw thrown.error;
  if (!details.failed) return undefined;
  throwIfOnlyInterrupted(details, last !== undefined);
  if (!last) throw details.errorInstance ?? new Error("the property failed without a recorded failure");
  return ctx.fail({ ...last, ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}) });
}
