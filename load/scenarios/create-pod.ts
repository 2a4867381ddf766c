import type { Scenario } from "../scenario.ts";

/** POST /v2/pods with a body built from the target's catalog; the pods made are terminated after the run. */
export const createPod: Scenario = {
  name: "create-pod",
  description: "POST /v2/pods (one GPU of a type the target has in stock, else its smallest CPU pod); every response 2xx with a pod id; the pods are terminated after the run",
  requests: [
    {
      name: "create pod",
      method: "POST",
      host: "base",
      path: "/v2/pods",
      body: { pod: { name: "cpsim-load", image: "runpod/base:0.6.2" } },
    },
  ],
  checks: [
    { name: "status is 2xx", kind: "status", min: 200, max: 299 },
    { name: "has a pod id", kind: "json-field", path: "id" },
  ],
  thresholds: { checks: ["rate>0.99"], http_req_failed: ["rate<0.01"] },
  terminatePods: true,
  // A cluster has only so many GPUs: a bounded number of pods.
  defaults: { durationS: 10, connections: 2, maxRequests: 40 },
};
