import type { Scenario } from "../scenario.ts";

/** The GraphQL gpuTypes query with prices and stock, as dashboards poll it. */
export const graphqlGpuTypes: Scenario = {
  name: "graphql-gpu-types",
  description: "POST /graphql { gpuTypes { ... lowestPrice } }; every response 200 with a non-empty data.gpuTypes",
  requests: [
    {
      name: "gpuTypes",
      method: "POST",
      host: "base",
      path: "/graphql",
      body: { graphql: "query { gpuTypes { id displayName memoryInGb secureCloud communityCloud lowestPrice(input: {gpuCount: 1}) { uninterruptablePrice stockStatus } } }" },
    },
  ],
  checks: [
    { name: "status is 200", kind: "status", in: [200] },
    { name: "has gpu types", kind: "json-array", path: "data.gpuTypes", minItems: 1 },
  ],
  thresholds: { checks: ["rate>0.99"], http_req_failed: ["rate<0.01"], http_req_duration: ["p(99)<1000"] },
  defaults: { durationS: 10, connections: 4, maxRequests: 1_000_000 },
};
