// Per-account rate limits: fixed minute/hour/day windows and the RateLimit header values.
export { RateLimiter } from "./rate-limiter.ts";
export type { RateAccount, RateCheckOptions, RateDecision, WindowState } from "./rate-limiter.ts";
export { formatRateLimitHeaders, rateLimitDetail } from "./headers.ts";
export type { RateLimitHeaders } from "./headers.ts";
export { WINDOW_MICROS, WINDOW_NAMES, WINDOW_SECONDS } from "./windows.ts";
export type { Quotas, WindowName } from "./windows.ts";
export { UnknownAccountError } from "./unknown-account-error.ts";
