/**
 * The time bounds of the properties and of the set-ups' waits, and the one place they are scaled
 * by the factor the run measured on the target (target-timing.ts: 1 at the usual pace, up to 4 on
 * a slow target or a busy machine). The job, GraphQL and pod lifecycle properties all read their
 * bounds here, so one factor decides them all, and --explain-time shows them (describeTiming).
 */

/** The run's measured factor (report.json's timing.propertyScale). */
export interface Scale {
  readonly propertyScale: number;
}

/** A bound of a property or of a set-up's wait, as given, times the run's factor (as given without one). */
export function scaledBoundMs(timing: Scale | undefined, ms: number): number {
  return Math.ceil(ms * (timing?.propertyScale ?? 1));
}

/** The most one property may take against a real-time target, its shrinking included. */
export const REALTIME_PROPERTY_LIMIT_MS = 45_000;
/**
 * Against a real-time target, how long the suite waits for a pod to reach RUNNING, and how long
 * a property whose runs need one may take before its first verdict: a pod takes tens of seconds
 * to minutes to start (the image pull), beyond REALTIME_PROPERTY_LIMIT_MS. Once a run judged,
 * such a property draws no new run after REALTIME_PROPERTY_LIMIT_MS.
 */
export const REALTIME_RUNNING_WAIT_MS = 120_000;
export const REALTIME_RUNNING_PROPERTY_LIMIT_MS = REALTIME_RUNNING_WAIT_MS + 30_000;
/** The most one property may take on virtual time (the control API), in wall time. */
export const VIRTUAL_PROPERTY_LIMIT_MS = 60_000;

/** The real-time bounds above as this run uses them: each times the factor measured on the target (target-timing.ts). */
export interface RealtimeBounds {
  readonly propertyMs: number;
  readonly runningWaitMs: number;
  readonly runningPropertyMs: number;
  readonly virtualPropertyMs: number;
}

/** The run's bounds: the constants above, scaled by `scaledBoundMs` (one factor for jobs, GraphQL and pods). */
export function realtimeBounds(options?: { readonly timing?: Scale }): RealtimeBounds {
  const timing = options?.timing;
  return {
    propertyMs: scaledBoundMs(timing, REALTIME_PROPERTY_LIMIT_MS),
    runningWaitMs: scaledBoundMs(timing, REALTIME_RUNNING_WAIT_MS),
    runningPropertyMs: scaledBoundMs(timing, REALTIME_RUNNING_PROPERTY_LIMIT_MS),
    virtualPropertyMs: scaledBoundMs(timing, VIRTUAL_PROPERTY_LIMIT_MS),
  };
}
