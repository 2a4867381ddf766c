/**
 * A run sized to the full-access key's rate limit, against a real-time target. The suite keeps
 * within the quotas `RateLimit` reports (rate-limit-pacer.ts), so a small quota makes it wait:
 * a full lenient run sends about FULL_RUN_REQUESTS requests, and the choices.md example quota of
 * 60 a minute spreads them over half an hour. Fixed bounds then cut the run short: the 300 s
 * budget of rate-limit waits ran out (exit 2), or the properties' 45 s ran out waiting (exit 1 on
 * coverage, a correct target failed). From the key's `RateLimit-Policy`, read by the key check,
 * this estimates the waits and sizes the two bounds to them, within caps; --rate-limit-budget and
 * --max-duration still win.
 */
import { readPolicy } from "./checks/auth/ratelimit/read-rate-limit.ts";
import { DEFAULT_RATE_LIMIT_BUDGET_S } from "./options.ts";
import { PROPERTY_SCALE_CAP } from "./target-timing.ts";

/** Requests of a full lenient run (the embedded emulator: 1,274 with --runs 1, 1,724 with --runs 8). */
export const FULL_RUN_REQUESTS = 1_700;
/** The waits at which the property bounds start to grow: below it the bounds hold as they are. */
export const UNSCALED_WAIT_S = 300;
/** The most the sized budget of rate-limit waits grows to. */
export const SIZED_BUDGET_CAP_S = 3_600;

export interface QuotaSizing {
  /** The window that binds most, as `"minute" q=60 w=60`. */
  readonly window: string;
  /** Requests the run is expected to send. */
  readonly requests: number;
  /** The least the run waits on that window to send them, in seconds. */
  readonly waitS: number;
  /** The factor on the property bounds (1 to PROPERTY_SCALE_CAP). */
  readonly propertyScale: number;
  /** The budget of rate-limit waits when neither --rate-limit-budget nor --max-duration is given. */
  readonly budgetS: number;
}

/**
 * The sizing for `requests` requests under the windows `policy` states, or undefined when the
 * header is absent or unreadable or the waits fit the unscaled bounds (UNSCALED_WAIT_S at most).
 */
export function quotaSizing(policy: string | undefined, requests: number): QuotaSizing | undefined {
  const read = readPolicy(policy);
  if (!read.ok) return undefined;
  let worst: { window: string; waitS: number } | undefined;
  for (const m of read.members) {
    if (m.quota === undefined || m.window === undefined || m.quota <= 0 || m.window <= 0) continue;
    // Every full window's worth of requests past the first waits one window length.
    const waitS = Math.max(0, Math.ceil(requests / m.quota) - 1) * m.window;
    if (!worst || waitS > worst.waitS) worst = { window: `"${m.name}" q=${m.quota} w=${m.window}`, waitS };
  }
  if (!worst || worst.waitS <= UNSCALED_WAIT_S) return undefined;
  const propertyScale = Math.round(Math.min(PROPERTY_SCALE_CAP, Math.max(1, worst.waitS / UNSCALED_WAIT_S)) * 100) / 100;
  const budgetS = Math.min(SIZED_BUDGET_CAP_S, Math.max(DEFAULT_RATE_LIMIT_BUDGET_S, Math.ceil(1.5 * worst.waitS)));
  return { window: worst.window, requests, waitS: worst.waitS, propertyScale, budgetS };
}

/** The requests a run of `selected` of the catalog's `total` checkable rules is expected to send. */
export function expectedRequests(selected: number, total: number): number {
  return Math.max(1, Math.ceil((FULL_RUN_REQUESTS * selected) / Math.max(1, total)));
}

export function describeQuotaSizing(q: QuotaSizing, budgetS: number, budgetGiven: boolean): string {
  return (
    `rate limit: the full-access key's ${q.window} makes about ${q.requests} requests wait at least ${q.waitS} s; ` +
    `property bounds ×${q.propertyScale}, rate-limit waits bounded at ${budgetS} s${budgetGiven ? " (as given)" : " (sized; --rate-limit-budget sets it)"}`
  );
}
