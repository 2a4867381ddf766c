import type { Scenario } from "../scenario.ts";

/** POST run with a 1 KB input: the job endpoints' everyday request. */
export const runSmall: Scenario = {
  name: "run-small",
  description: "POST /v2/{endpoint}/run with a 1 KB input; every response 200 with a job id",
  requests: [{ name: "run 1 KB", method: "POST", host: "serverless", path: "/v2/{endpoint}/run", body: { jobInput: { op: "echo" }, padToBytes: 1024 } }],
  checks: [
    { name: "status is 200", kind: "status", in: [200] },
    { name: "has a job id", kind: "json-field", path: "id" },
  ],
  thresholds: { checks: ["rate>0.99"], http_req_failed: ["rate<0.01"], http_req_duration: ["p(99)<500"] },
  defaults: { durationS: 10, connections: 10, maxRequests: 1_000_000 },
};
