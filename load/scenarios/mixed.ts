import { CHUNK_LIMIT_BYTES, type Scenario } from "../scenario.ts";

/** A client's day: mostly polling, some submits, stream reads and cancels, in seeded order. */
export const mixed: Scenario = {
  name: "mixed",
  description: "weighted mix of job operations: submit 2, poll 6, stream 1, cancel 1",
  setup: [
    { name: "polled", kind: "submit-jobs", count: 50, input: { op: "echo" } },
    { name: "streamed", kind: "submit-jobs", count: 20, input: { op: "stream", chunks: 3, bytes: 1000 } },
    { name: "cancelled", kind: "submit-jobs", count: 50, input: { op: "sleep", ms: 60_000 } },
  ],
  requests: [
    { name: "submit", method: "POST", host: "serverless", path: "/v2/{endpoint}/run", body: { jobInput: { op: "echo", n: 1 } }, weight: 2 },
    { name: "poll", method: "GET", host: "serverless", path: "/v2/{endpoint}/status/{ids:polled}", weight: 6 },
    { name: "stream", method: "GET", host: "serverless", path: "/v2/{endpoint}/stream/{ids:streamed}", weight: 1 },
    { name: "cancel", method: "POST", host: "serverless", path: "/v2/{endpoint}/cancel/{ids:cancelled}", weight: 1 },
  ],
  // A second cancel of a job already cancelled may be refused (4xx); never a 5xx.
  expectedStatuses: { min: 200, max: 499 },
  checks: [
    { name: "no 5xx", kind: "status", min: 200, max: 499 },
    { name: "answers of 200 have a job status", kind: "json-field", path: "status", when: { status: [200] } },
    { name: "stream chunks at most 1 MB", kind: "stream-chunks", maxBytes: CHUNK_LIMIT_BYTES, request: "stream" },
  ],
  thresholds: { checks: ["rate>0.99"], http_req_failed: ["rate<0.01"], http_req_duration: ["p(99)<500"] },
  defaults: { durationS: 10, connections: 8, maxRequests: 1_000_000 },
};
