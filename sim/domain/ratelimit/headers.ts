/**
 * The exact header values of choices.md, as IETF structured-field lists:
 *   RateLimit: "minute";r=59;t=12, "hour";r=2999;t=1812, "day";r=49999;t=45012
 *   RateLimit-Policy: "minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400
 * Pure: the HTTP layer decides whether to send them (they are absent for unlimited callers).
 */
import type { RateDecision } from "./rate-limiter.ts";

export interface RateLimitHeaders {
  readonly RateLimit: string;
  readonly "RateLimit-Policy": string;
  /** Only on a denied request. */
  readonly "Retry-After"?: string;
}

/** undefined for an unlimited caller: there is no quota to describe. */
export function formatRateLimitHeaders(decision: RateDecision): RateLimitHeaders | undefined {
  if (decision.unlimited) return undefined;
  const rateLimit = decision.windows.map((w) => `"${w.window}";r=${w.remaining};t=${w.resetSeconds}`).join(", ");
  const policy = decision.windows.map((w) => `"${w.window}";q=${w.quota};w=${w.windowSeconds}`).join(", ");
  if (decision.allowed) return { RateLimit: rateLimit, "RateLimit-Policy": policy };
  return { RateLimit: rateLimit, "RateLimit-Policy": policy, "Retry-After": String(decision.retryAfterSeconds) };
}

/** The 429 detail choices.md gives as an example. */
export function rateLimitDetail(decision: RateDecision): string | undefined {
  return decision.deniedWindow === undefined ? undefined : `rate limit exceeded for the ${decision.deniedWindow} window`;
}
