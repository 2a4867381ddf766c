// Per-account rate limits: minute/hour/day windows (fixed or sliding) and the RateLimit header values.
export { RateLimiter } from "./rate-limiter.ts";
export type { RateAccount, RateCheckOptions, RateDecision, RateLimiterOptions, WindowState } from "./rate-limiter.ts";
export { formatRateLimitHeaders, rateLimitDetail } from "./headers.ts";
export type { RateLimitHeaders } from "./headers.ts";
export { RATE_WINDOW_MODES, WINDOW_MICROS, WINDOW_NAMES, WINDOW_SECONDS } from "./windows.ts";
export type { Quotas, RateWindowMode, WindowName } from "./windows.ts";
export { UnknownAccountError } from "./unknown-account-error.ts";
