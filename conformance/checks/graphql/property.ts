/**
 * Running a fast-check property whose runs send requests (deploys among them), and turning its
 * outcome into the rule's result. A probe returns a failure, a reason the run could not judge
 * (no capacity, a pod that never started), or nothing. The last failing run is the shrunk
 * counterexample and its exchanges the evidence. Shrinking is capped (`shrinkBudget` further
 * runs, which then pass without a request) so a failing rule stays cheap against a real,
 * rate-limited platform that bills each pod. A target error ends the property at once and is
 * rethrown: the runner reports it as such, never as the rule's verdict. When no run could
 * judge, the rule is skipped with the last reason.
 */
import fc from "fast-check";
import type { CheckContext, CheckOutcome, FailureInput } from "../../check.ts";
import { withGraphqlCaptures } from "./captures.ts";
import { throwIfOnlyInterrupted } from "../support/interrupted.ts";
import { realtimeBounds } from "../../check-context.ts";
import { interruptAfterWorkingTime, workingNow } from "../../working-time.ts";

export interface PropertyOptions {
  readonly numRuns: number;
  /** Runs allowed after the first failure, for shrinking (default 10). */
  readonly shrinkBudget?: number;
  /**
   * The runs wait for a deployed pod to run: against a real-time target the property may take
   * REALTIME_RUNNING_PROPERTY_LIMIT_MS until its first verdict (a pod's start alone may outlast
   * the usual bound), and starts no new run after REALTIME_PROPERTY_LIMIT_MS once one judged;
   * it then makes one run unless `--runs` was given (a run is a pod's whole start).
   */
  readonly waitsForRunning?: boolean;
}

/** A run that could not judge the rule, and why. */
export class Inconclusive {
  constructor(readonly reason: string) {}
}

export type ProbeResult = FailureInput | Inconclusive | undefined;

/** Runs for properties whose runs deploy pods: few, and never more than --runs. */
export const fewRuns = (ctx: CheckContext, max: number): number => Math.max(1, Math.min(ctx.options.runs, max));

export async function checkProperty<T>(
  ctx: CheckContext,
  arb: fc.Arbitrary<T>,
  probe: (value: T) => Promise<ProbeResult>,
  opts: PropertyOptions,
): Promise<CheckOutcome> {
  let last: FailureInput | undefined;
  let afterFailure = 0;
  let thrown: { error: unknown } | undefined;
  let judged = 0;
  let inconclusive: string | undefined;
  const budget = opts.shrinkBudget ?? 10;
  const longer = opts.waitsForRunning === true && !ctx.controlApi;
  // Working time: the requests' waits for rate-limit quota do not count (working-time.ts).
  const now = workingNow(ctx.client);
  const started = now();
  // The run's bounds, times the factor measured on the target (check-context.ts, target-timing.ts).
  const bounds = realtimeBounds(ctx.options);
  const property = fc.asyncProperty(arb, async (value) => {
    if (thrown || (last && afterFailure++ >= budget)) return true;
    if (longer && !last && judged > 0 && now() - started >= bounds.propertyMs) return true;
    try {
      const result = await probe(value);
      if (result instanceof Inconclusive) {
        inconclusive = result.reason;
        return true;
      }
      judged++;
      if (result === undefined) return true;
      last = result;
      return false;
    } catch (error) {
      thrown = { error };
      return true;
    }
  });
  const numRuns = longer && !ctx.options.runsGiven ? 1 : opts.numRuns;
  const details = await fc.check(property, { ...ctx.fc, numRuns, ...(longer ? { plugins: [interruptAfterWorkingTime(bounds.runningPropertyMs, now, ctx.deadline)] } : {}) });
  if (thrown) throw thrown.error;
  if (details.failed) {
    throwIfOnlyInterrupted(details, last !== undefined);
    if (!last) throw details.errorInstance ?? new Error("the property failed without a recorded failure");
    return ctx.fail(withGraphqlCaptures(ctx.failure({ ...last, ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}) })));
  }
  if (judged === 0) return ctx.skip(inconclusive ?? "no run could judge the rule");
  return ctx.pass();
}

/** A one-shot check's failure, with the same reproduction fix-up as the properties'. */
export function failWith(ctx: CheckContext, ...failures: readonly FailureInput[]): CheckOutcome {
  return ctx.fail(...failures.map((f) => withGraphqlCaptures(ctx.failure(f))));
}
