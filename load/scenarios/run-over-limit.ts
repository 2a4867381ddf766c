import { RUN_LIMIT_OVER, type Scenario } from "../scenario.ts";

/** POST run just over 10 MiB: refused with a 4xx, never a 5xx or a reset, while the server keeps serving. */
export const runOverLimit: Scenario = {
  name: "run-over-limit",
  description: "POST /v2/{endpoint}/run with a body just over 10 MiB; every response a 4xx, none a 5xx or a reset; other requests keep being served",
  requests: [{ name: "run just over 10 MiB", method: "POST", host: "serverless", path: "/v2/{endpoint}/run", body: { jobInput: { op: "bytes", n: 16 }, padToBytes: RUN_LIMIT_OVER } }],
  expectedStatuses: { min: 400, max: 499 },
  checks: [{ name: "status is 4xx", kind: "status", min: 400, max: 499 }],
  thresholds: { checks: ["rate==1"], http_req_failed: ["rate==0"] },
  // The open model (undici) honours the refusal's Connection: close; autocannon would write the
  // next request on the closing connection and count the generator's own resets.
  canary: { host: "serverless", path: "/v2/{endpoint}/health" },
  defaults: { durationS: 10, connections: 2, maxRequests: 200, rate: 8 },
};
