// 404 vs 405 and per-route body limits, with the reserved words that are never an endpoint id.
import t from "tap";
import { routes as apiRoutes } from "../api/routes.ts";
import { RouteTable } from "./route-table.ts";

const MiB = 1024 * 1024;
const table = new RouteTable(
  apiRoutes.map((r) => ({ method: r.method, pattern: r.pattern, bodyLimit: r.bodyLimit })),
  MiB,
);

t.test("matches with each route's body limit", async (t) => {
  t.same(table.lookup("POST", "/v2/my-endpoint/run"), { kind: "match", bodyLimit: 10 * MiB, anyContentType: false, rawBody: false });
  t.same(table.lookup("POST", "/v2/my-endpoint/runsync"), { kind: "match", bodyLimit: 20 * MiB, anyContentType: false, rawBody: false });
  t.same(table.lookup("POST", "/v2/pods"), { kind: "match", bodyLimit: MiB, anyContentType: false, rawBody: false });
  t.same(table.lookup("GET", "/v2/pods/"), { kind: "match", bodyLimit: MiB, anyContentType: false, rawBody: false }, "a trailing slash is tolerated");
  t.same(table.lookup("HEAD", "/v2/catalog/gpus"), { kind: "match", bodyLimit: MiB, anyContentType: false, rawBody: false }, "HEAD is served as GET");
  t.equal(table.maxBodyLimit, 20 * MiB);
});

t.test("reserved words are never endpoint ids", async (t) => {
  for (const word of ["pods", "catalog", "templates", "network-volumes", "registries", "billing", "endpoints", "graphql", "PODS", "%70ods"]) {
    t.not(table.lookup("POST", `/v2/${word}/run`).kind, "match", word);
    t.same(table.lookup("GET", `/v2/${word}/status/job-1`), { kind: "not-found" }, word);
  }
  t.same(table.lookup("POST", "/v2/pods/run"), { kind: "method-not-allowed", allow: "DELETE, GET, HEAD, OPTIONS, PATCH" });
  t.same(table.lookup("POST", "/v2/graphql/run"), { kind: "not-found" });
});

t.test("404 and 405", async (t) => {
  t.same(table.lookup("GET", "/nope"), { kind: "not-found" });
  t.same(table.lookup("GET", "/v2/x/status/"), { kind: "not-found" }, "an empty parameter matches nothing");
  t.same(table.lookup("DELETE", "/v2/pods"), { kind: "method-not-allowed", allow: "GET, HEAD, OPTIONS, POST" });
  t.same(table.lookup("PUT", "/graphql"), { kind: "method-not-allowed", allow: "GET, HEAD, OPTIONS, POST" });
});

t.test("a route that reads JSON whatever its Content-Type says is marked so", async (t) => {
  const own = new RouteTable([{ method: "POST", pattern: "/v2/:endpointId/job-done/:workerId/:jobId", bodyLimit: MiB, anyContentType: true, rawBody: false }, { method: "POST", pattern: "/v2/:endpointId/run", bodyLimit: MiB }], MiB);
  t.same(own.lookup("POST", "/v2/ep/job-done/w/j"), { kind: "match", bodyLimit: MiB, anyContentType: true, rawBody: false });
  t.same(own.lookup("POST", "/v2/ep/run"), { kind: "match", bodyLimit: MiB, anyContentType: false, rawBody: false }, "same limit, its own answer");
});
