/**
 * Running a fast-check property whose runs talk to the target. A run that finds the rule broken
 * throws a Violation carrying the failure (what was expected, the exchange that shows it and the
 * sequence before it); fast-check shrinks it, and the smallest counterexample's Violation becomes
 * the rule's failure with fast-check's path. A TargetError is never a verdict: once one happens,
 * every later run (shrinking included) fails fast with it and it is rethrown for the runner.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome, FailureInput } from "../../../check.ts";
import { TargetError } from "../../../errors.ts";
import { scaledBoundMs } from "../../../property-bounds.ts";
import { realtimeBounds } from "../../../check-context.ts";
import { describeWait } from "../../support/poll.ts";
import { FINISH_BUDGET_MS } from "./budgets.ts";
import { throwIfOnlyInterrupted } from "../../support/interrupted.ts";
import { RouteMissing } from "../../../route-evidence.ts";
import { interruptAfterWorkingTime, workingNow } from "../../../working-time.ts";

export class Violation extends Error {
  override readonly name = "Violation";
  constructor(readonly failure: FailureInput) {
    super(failure.expected);
  }
}

export interface PropertyOptions<T> {
  /** Random runs (after the examples); a check whose runs cost several requests asks for fewer than --runs. */
  readonly numRuns: number;
  /** Values tried first: the boundaries the rule names. */
  readonly examples?: readonly T[];
  /** Wall time for the runs and the shrinking; the best counterexample so far is kept. */
  readonly timeLimitMs?: number;
  /**
   * The most one run may take by the bounds of its own requests (their timeouts): the property's
   * bound never cuts its first run short of that (plus a margin), so a run that sends much (a 20 MB
   * body) or waits long is judged, or ends in the request's own timeout, which says what took long.
   */
  readonly runMs?: number;
  /**
   * Runs a precondition (fc.pre) may discard per run before the property gives up and the rule
   * is skipped as inconclusive (default 1: a discarded run costs a whole scenario).
   */
  readonly maxSkipsPerRun?: number;
}

/** Runs per property for a check whose runs each cost `cost` requests or more. */
export function runsFor(ctx: CheckContext, cap: number): number {
  return Math.max(1, Math.min(ctx.options.runs, cap));
}

/** Margin past one run's own bound: the run's other steps, and shrinking a failure found. */
const RUN_MARGIN_MS = 15_000;

/**
 * The property's time bound: the check's own or the run's (45 s per property in real time, 60 s on
 * virtual time), times the scale the run measured on the target (conformance/target-timing.ts:
 * 1 on a target of the usual pace, up to 4 on a slow one), never below what its first run may take
 * by its requests' own bounds (`runMs`), and never past --max-duration.
 */
export function propertyBoundMs(
  ctx: Pick<CheckContext, "controlApi" | "deadline"> & { readonly options?: { readonly timing?: { readonly propertyScale: number } } },
  options: Pick<PropertyOptions<unknown>, "timeLimitMs" | "runMs">,
): number {
  const bounds = realtimeBounds(ctx.options);
  const base = options.timeLimitMs !== undefined ? scaledBoundMs(ctx.options?.timing, options.timeLimitMs) : ctx.controlApi ? bounds.virtualPropertyMs : bounds.propertyMs;
  const bound = options.runMs === undefined ? base : Math.max(base, options.runMs + RUN_MARGIN_MS);
  return Math.max(1, Math.min(bound, (ctx.deadline ?? Number.POSITIVE_INFINITY) - Date.now()));
}

export async function property<T>(
  ctx: CheckContext,
  arb: fc.Arbitrary<T>,
  body: (value: T) => Promise<void>,
  options: PropertyOptions<T>,
): Promise<CheckOutcome | undefined> {
  // A TargetError, or a route the target does not serve: no verdict, and every later run would meet it too.
  let targetError: TargetError | RouteMissing | undefined;
  const prop = fc.asyncProperty(arb, async (value) => {
    if (targetError) throw targetError;
    try {
      await body(value);
    } catch (err) {
      if (err instanceof TargetError || err instanceof RouteMissing) targetError = err;
      throw err;
    }
  });
  const details = await fc.check(prop, {
    seed: ctx.fc.seed,
    // fast-check counts the examples among its runs.
    numRuns: options.numRuns + (options.examples?.length ?? 0),
    ...(ctx.fc.path !== undefined ? { path: ctx.fc.path } : {}),
    ...(options.examples ? { examples: options.examples.map((e) => [e] as [T]) } : {}),
    maxSkipsPerRun: options.maxSkipsPerRun ?? 1,
    // Bounded like every property of the run (45 s in real time, never past --max-duration), or by the check's own limit.
    // Its requests' waits for rate-limit quota do not count (working-time.ts).
    plugins: [interruptAfterWorkingTime(propertyBoundMs(ctx, options), workingNow(ctx.client), ctx.deadline)],
  });
  if (targetError) throw targetError;
  if (!details.failed) return undefined;
  throwIfOnlyInterrupted(details, details.errorInstance instanceof Violation);
  const err = details.errorInstance;
  if (err instanceof Violation) {
    return ctx.fail({ ...err.failure, ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}) });
  }
  if (err instanceof Error) throw err;
  return ctx.skip(
    `inconclusive: ${details.numSkips} of the runs could not observe what the rule needs (a job that did not finish, or was taken before it could be seen, within the wait's bound: ${describeWait(FINISH_BUDGET_MS, ctx.controlApi)} for a job to finish)`,
  );
}
