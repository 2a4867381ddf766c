import { RUNSYNC_LIMIT_OVER, type Scenario } from "../scenario.ts";

/** POST runsync just over 20 MiB: refused with a 4xx, never a 5xx or a reset. */
export const runsyncOverLimit: Scenario = {
  name: "runsync-over-limit",
  description: "POST /v2/{endpoint}/runsync with a body just over 20 MiB; every response a 4xx, none a 5xx or a reset; other requests keep being served",
  requests: [
    { name: "runsync just over 20 MiB", method: "POST", host: "serverless", path: "/v2/{endpoint}/runsync?wait=1000", body: { jobInput: { op: "bytes", n: 16 }, padToBytes: RUNSYNC_LIMIT_OVER } },
  ],
  expectedStatuses: { min: 400, max: 499 },
  checks: [{ name: "status is 4xx", kind: "status", min: 400, max: 499 }],
  thresholds: { checks: ["rate==1"], http_req_failed: ["rate==0"] },
  // The open model (undici) honours the refusal's Connection: close; autocannon would write the
  // next request on the closing connection and count the generator's own resets.
  canary: { host: "serverless", path: "/v2/{endpoint}/health" },
  defaults: { durationS: 10, connections: 2, maxRequests: 100, rate: 4 },
};
