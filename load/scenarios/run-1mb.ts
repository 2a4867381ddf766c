import type { Scenario } from "../scenario.ts";

/** POST run with a 1 MB input: payload parsing cost on the submit path. */
export const run1mb: Scenario = {
  name: "run-1mb",
  description: "POST /v2/{endpoint}/run with a 1 MB input; every response 200 with a job id",
  requests: [{ name: "run 1 MB", method: "POST", host: "serverless", path: "/v2/{endpoint}/run", body: { jobInput: { op: "bytes", n: 16 }, padToBytes: 1_000_000 } }],
  checks: [
    { name: "status is 200", kind: "status", in: [200] },
    { name: "has a job id", kind: "json-field", path: "id" },
  ],
  thresholds: { checks: ["rate>0.99"], http_req_failed: ["rate<0.01"], http_req_duration: ["p(99)<2000"] },
  // The emulator keeps each job's input until its result expires: bounded so memory stays bounded.
  defaults: { durationS: 10, connections: 4, maxRequests: 200 },
};
