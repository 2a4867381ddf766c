/** Rules of the per-user rate limits and their headers. */
import type { Rule } from "./rule.ts";

const WINDOWS = "Rate limiting: applied per user over three windows, `minute`, `hour` and `day`.";
const HEADERS =
  "`RateLimit` carries one member per window with remaining count `r` and seconds until reset `t`; `RateLimit-Policy` carries one member per window with quota `q` and window length `w` in seconds (60, 3600, 86400).";
const TOO_MANY =
  "The per-user rate limit is exceeded; the detail names the exceeded window; headers `Retry-After` (integer seconds), `RateLimit`, `RateLimit-Policy` accompany it";

export const ratelimitRules = [
  {
    id: "ratelimit.headers-present", title: "RateLimit and RateLimit-Policy accompany successful answers too",
    spec: "Both headers also accompany successful responses.", section: "Limits", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "ratelimit.headers-well-formed", title: "RateLimit has r and t, RateLimit-Policy q and w, one member per window",
    spec: HEADERS, section: "Limits", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "ratelimit.structured-fields", title: "The rate-limit headers are IETF structured-field lists",
    spec: "Headers on every authenticated response, as IETF structured-field lists:", section: "Rate limits", source: "choices", severity: "error", kind: "response",
  },
  {
    id: "ratelimit.policy-windows", title: "The windows are minute, hour and day, of 60, 3600 and 86400 seconds",
    spec: WINDOWS, section: "Limits", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "ratelimit.remaining-decreases", title: "Each counted request lowers every window's remaining count by one until it resets",
    spec: WINDOWS, section: "Limits", source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "ratelimit.per-user", title: "One user's requests do not spend another user's limit",
    spec: WINDOWS, section: "Limits", source: "spec", severity: "error", kind: "invariant",
  },
  {
    id: "ratelimit.429-when-spent", title: "A request over a spent window answers 429",
    spec: TOO_MANY, section: "REST v2 (createPod)", source: "spec", severity: "error", kind: "request", status: 429, specStatuses: [429],
  },
  {
    id: "ratelimit.retry-after", title: "A 429 carries Retry-After in integer seconds, with RateLimit and RateLimit-Policy",
    spec: TOO_MANY, section: "REST v2 (createPod)", source: "spec", severity: "error", kind: "response",
  },
  {
    id: "ratelimit.429-detail-names-window", title: "A 429's detail names the exceeded window",
    spec: TOO_MANY, section: "REST v2 (createPod)", source: "spec", severity: "error", kind: "response",
  },
] as const satisfies readonly Rule[];
