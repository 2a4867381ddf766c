/**
 * How long the job checks let things take. Nothing in the spec bounds cold starts or queueing,
 * so these are generous ceilings, never expectations: a check that runs out of one says it could
 * not observe what it needed (a skip), except where the rule itself is about time.
 */

/** Time a short job may take to finish, cold start included. */
export const FINISH_BUDGET_MS = 180_000;

/** Time a job may wait before a worker takes it. */
export const START_BUDGET_MS = 120_000;

/** Virtual time advanced between two polls on the emulator (fine enough to see IN_PROGRESS). */
export const STEP_MS = 1_000;
