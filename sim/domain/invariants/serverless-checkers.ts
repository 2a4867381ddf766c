/** A fresh set of every serverless and rate-limit checker (the stateful ones start empty). */
import { createCancelledNeverCompletesChecker } from "./cancelled-never-completes.ts";
import { healthMatchesJobs } from "./health-matches-jobs.ts";
import { jobSingleState } from "./job-single-state.ts";
import { createJobTransitionsChecker } from "./job-transitions.ts";
import type { ServerlessChecker, ServerlessCheckState } from "./serverless-check-state.ts";
import { purgeSparesInProgress } from "./purge-spares-in-progress.ts";
import { quotaNonNegative } from "./quota-non-negative.ts";

export function createServerlessCheckers(): ServerlessChecker[] {
  return [
    jobSingleState,
    createJobTransitionsChecker(),
    createCancelledNeverCompletesChecker(),
    purgeSparesInProgress,
    healthMatchesJobs,
    quotaNonNegative,
  ];
}

/** Runs every checker; messages are prefixed with the checker id. */
export function runCheckers(checkers: readonly ServerlessChecker[], state: ServerlessCheckState): string[] {
  const out: string[] = [];
  for (const c of checkers) for (const m of c.check(state)) out.push(`${c.id}: ${m}`);
  return out;
}
