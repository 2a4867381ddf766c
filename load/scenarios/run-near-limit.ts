import { RUN_LIMIT_UNDER, type Scenario } from "../scenario.ts";

/** POST run just under the 10 MB limit, read as either 10^7 bytes or 10 MiB. */
export const runNearLimit: Scenario = {
  name: "run-near-limit",
  description: "POST /v2/{endpoint}/run with a body just under 10 MB (under both MB and MiB); every response 200 with a job id",
  requests: [{ name: "run just under 10 MB", method: "POST", host: "serverless", path: "/v2/{endpoint}/run", body: { jobInput: { op: "bytes", n: 16 }, padToBytes: RUN_LIMIT_UNDER } }],
  checks: [
    { name: "status is 200", kind: "status", in: [200] },
    { name: "has a job id", kind: "json-field", path: "id" },
  ],
  thresholds: { checks: ["rate>0.99"], http_req_failed: ["rate<0.01"] },
  // Each accepted job holds its 10 MB input in the target until the result expires (30 min).
  defaults: { durationS: 10, connections: 1, maxRequests: 12 },
};
