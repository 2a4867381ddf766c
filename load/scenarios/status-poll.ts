import type { Scenario } from "../scenario.ts";

/** GET status of submitted jobs, the polling loop of every asynchronous client. */
export const statusPoll: Scenario = {
  name: "status-poll",
  description: "GET /v2/{endpoint}/status/{id} over 100 submitted jobs; every response 200 with a status",
  setup: [{ name: "jobs", kind: "submit-jobs", count: 100, input: { op: "echo" } }],
  requests: [{ name: "status", method: "GET", host: "serverless", path: "/v2/{endpoint}/status/{ids:jobs}" }],
  checks: [
    { name: "status is 200", kind: "status", in: [200] },
    { name: "has a job status", kind: "json-field", path: "status" },
  ],
  thresholds: { checks: ["rate>0.99"], http_req_failed: ["rate<0.01"], http_req_duration: ["p(99)<500"] },
  defaults: { durationS: 10, connections: 10, maxRequests: 1_000_000 },
};
