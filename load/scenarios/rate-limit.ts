import type { Scenario } from "../scenario.ts";

/**
 * One rate-limited key's quota spent at a set rate (the open model): 429 with Retry-After appears
 * when the window's remaining count reaches zero and not before, and RateLimit counts down.
 */
export const rateLimit: Scenario = {
  name: "rate-limit",
  description: "GET /v2/pods with a rate-limited key at a set rate past its minute quota; 429s start exactly when RateLimit reaches 0",
  key: "limited",
  requests: [{ name: "list pods", method: "GET", host: "base", path: "/v2/pods" }],
  expectedStatuses: { min: 200, max: 299 },
  checks: [
    { name: "status is 200 or 429", kind: "status", in: [200, 429] },
    { name: "RateLimit on every answer", kind: "header", header: "ratelimit" },
    { name: "429 has Retry-After in seconds", kind: "header", header: "retry-after", integer: true, when: { status: [429] } },
  ],
  thresholds: { checks: ["rate==1"], rate_limited: ["count>0"] },
  rateLimitSequence: true,
  defaults: { durationS: 4, connections: 4, maxRequests: 400, rate: 40 },
};
