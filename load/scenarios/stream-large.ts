import { CHUNK_LIMIT_BYTES, type Scenario } from "../scenario.ts";

const input = { op: "stream", chunks: 2, bytes: 900_000 };

/**
 * Stream reads of jobs whose output exceeds 1 MB: every chunk at most 1 MB. A read returns the
 * chunks not yet read, so the run reads prepared jobs and a separate sample is read to the end
 * afterwards and reassembled against the handler's output.
 */
export const streamLarge: Scenario = {
  name: "stream-large",
  description: "GET /v2/{endpoint}/stream/{id} of jobs with 1.8 MB of output; every chunk at most 1 MB; a sample reassembles to the handler's output",
  setup: [{ name: "streams", kind: "submit-jobs", count: 20, input, waitForCompletion: true }],
  requests: [{ name: "stream read", method: "GET", host: "serverless", path: "/v2/{endpoint}/stream/{ids:streams}" }],
  checks: [
    { name: "status is 200", kind: "status", in: [200] },
    { name: "every chunk at most 1 MB", kind: "stream-chunks", maxBytes: CHUNK_LIMIT_BYTES },
  ],
  thresholds: { checks: ["rate>0.99"], http_req_failed: ["rate<0.01"] },
  streamReassembly: { sample: 3, input },
  defaults: { durationS: 10, connections: 4, maxRequests: 100_000 },
};
