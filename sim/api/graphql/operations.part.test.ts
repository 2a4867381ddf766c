// The /graphql routes through PlatformApi (transport-free): the key in ?api_key= or Bearer,
// 401 in the GraphQL envelope, rate-limit headers on every answer, GET for queries only.
import t from "tap";
import { PlatformApi } from "../platform-api.ts";
import { routes } from "../routes.ts";
import type { ApiRequest, ApiResponse, HttpMethod } from "../types.ts";
import { graphqlOperations } from "./operations.ts";
import { checkEnvelope, newPlatform } from "./test-support.ts";

const FULL = "cpsim_alpha_full_7f3a9c2e41b6d805";
const READ = "cpsim_alpha_read_2c8e5b1f9a3d6047";

function setup() {
  const platform = newPlatform();
  const api = new PlatformApi(platform, graphqlOperations, routes.filter((r) => r.tag === "GraphQL"));
  const call = (method: HttpMethod, query: Record<string, string>, body?: unknown, headers: Record<string, string> = {}): ApiResponse => {
    const request: ApiRequest = { method, path: "/graphql", query, headers, body };
    const outcome = api.handle(request);
    if (outcome.kind !== "response") throw new Error("GraphQL never waits");
    checkEnvelope(outcome.response);
    return outcome.response;
  };
  return { platform, call };
}

t.test("both routes have operations", async (t) => {
  t.same(Object.keys(graphqlOperations).sort(), ["graphql", "graphqlGet"]);
});

t.test("POST with ?api_key= and with Bearer", async (t) => {
  const { call } = setup();
  const a = call("POST", { api_key: FULL }, { query: "{ myself { id } }" });
  t.equal(a.status, 200);
  t.same(a.body, { data: { myself: { id: "acct-alpha" } } });
  t.match(a.headers.ratelimit, /"minute";r=\d+;t=\d+/);
  t.ok(a.headers["ratelimit-policy"]);
  const b = call("POST", {}, { query: "{ myself { id } }" }, { authorization: `Bearer ${FULL}` });
  t.same(b.body, a.body);
});

t.test("no key or a bad key: 401 UNAUTHENTICATED in the envelope", async (t) => {
  const { call } = setup();
  for (const [q, h] of [[{}, {}], [{ api_key: "nope" }, {}], [{}, { authorization: "Bearer nope" }]] as const) {
    const r = call("POST", q, { query: "{ myself { id } }" }, h);
    t.equal(r.status, 401);
    t.equal((r.body as any).errors[0].extensions.code, "UNAUTHENTICATED");
  }
});

t.test("GET runs queries, refuses mutations with 405, needs a query parameter", async (t) => {
  const { call, platform } = setup();
  const q = call("GET", { api_key: FULL, query: "query Q($id: String) { gpuTypes(input: {id: $id}) { id } }", variables: JSON.stringify({ id: "NVIDIA L4" }), operationName: "Q" });
  t.same(q.body, { data: { gpuTypes: [{ id: "NVIDIA L4" }] } });
  const m = call("GET", { api_key: FULL, query: 'mutation { podFindAndDeployOnDemand(input: {name: "g", imageName: "u", gpuTypeId: "NVIDIA L4"}) { id } }' });
  t.equal(m.status, 405);
  t.equal(m.headers.allow, "POST");
  t.ok(m.headers.ratelimit, "rate-limit headers on errors too");
  t.equal(platform.pods.size, 0);
  const none = call("GET", { api_key: FULL });
  t.equal(none.status, 400);
  t.equal((none.body as any).errors[0].extensions.code, "BAD_REQUEST");
});

t.test("a read-only key: queries 200, mutations 403", async (t) => {
  const { call, platform } = setup();
  t.equal(call("POST", { api_key: READ }, { query: "{ myself { pods { id } } }" }).status, 200);
  const r = call("POST", { api_key: READ }, { query: 'mutation { deployCpuPod(input: {name: "c", imageName: "u", instanceId: "cpu3c-2-4"}) { id } }' });
  t.equal(r.status, 403);
  t.equal((r.body as any).errors[0].extensions.code, "FORBIDDEN");
  t.equal(platform.pods.size, 0);
});
