import { RUNSYNC_LIMIT_UNDER, type Scenario } from "../scenario.ts";

/** POST runsync just under the 20 MB limit; `wait=1000` so a cold worker answers with the job id. */
export const runsyncNearLimit: Scenario = {
  name: "runsync-near-limit",
  description: "POST /v2/{endpoint}/runsync with a body just under 20 MB (under both MB and MiB); every response 200 with a job id",
  requests: [
    { name: "runsync just under 20 MB", method: "POST", host: "serverless", path: "/v2/{endpoint}/runsync?wait=1000", body: { jobInput: { op: "bytes", n: 16 }, padToBytes: RUNSYNC_LIMIT_UNDER } },
  ],
  checks: [
    { name: "status is 200", kind: "status", in: [200] },
    { name: "has a job id", kind: "json-field", path: "id" },
  ],
  thresholds: { checks: ["rate>0.99"], http_req_failed: ["rate<0.01"] },
  // Each accepted job holds its 20 MB input in the target until the result expires.
  defaults: { durationS: 10, connections: 1, maxRequests: 6 },
};
