import t from "tap";
import { matchRoute, RESERVED_SEGMENTS, routes } from "./routes.ts";

t.test("pod and job routes match with their params", async (t) => {
  const m = matchRoute("GET", "/v2/pods/abc123");
  t.equal(m.kind, "match");
  if (m.kind === "match") {
    t.equal(m.route.op, "getPod");
    t.same({ ...m.params }, { podId: "abc123" });
  }
  const j = matchRoute("POST", "/v2/conformance/cancel/job-1");
  t.equal(j.kind === "match" && j.route.op, "jobCancel");
  t.equal(j.kind === "match" && j.params.jobId, "job-1");
});

t.test("reserved words are never endpoint ids", async (t) => {
  for (const word of RESERVED_SEGMENTS) {
    const m = matchRoute("GET", `/v2/${word}/health`);
    t.not(m.kind === "match" && m.route.op, "jobHealth", word);
  }
});

t.test("wrong method gives the allowed methods; unknown path is not found", async (t) => {
  const m = matchRoute("PUT", "/v2/pods/abc");
  t.same(m, { kind: "method-not-allowed", allow: ["DELETE", "GET", "HEAD", "PATCH"] });
  t.same(matchRoute("GET", "/v3/nothing"), { kind: "not-found" });
  t.equal(matchRoute("HEAD", "/v2/pods").kind, "match");
});

t.test("the table has unique (method, pattern) pairs and op names", async (t) => {
  const keys = routes.map((r) => `${r.method} ${r.pattern}`);
  t.equal(new Set(keys).size, keys.length);
  t.equal(new Set(routes.map((r) => r.op)).size, routes.length);
});

t.test("a remembered answer is the same answer, frozen, and the memory is bounded", async (t) => {
  const first = matchRoute("POST", "/v2/ep-memo/run");
  const again = matchRoute("POST", "/v2/ep-memo/run");
  t.same(again, first);
  t.ok(Object.isFrozen(again) && again.kind === "match" && Object.isFrozen(again.params), "shared answers cannot be changed by a caller");
  // Past the bound the memory is emptied, not grown; answers stay right.
  for (let i = 0; i < 5000; i++) matchRoute("GET", `/v2/ep-${i}/status/job-${i}`);
  const late = matchRoute("GET", "/v2/ep-4999/status/job-4999");
  t.ok(late.kind === "match" && late.params.endpointId === "ep-4999" && late.params.jobId === "job-4999");
  t.same(matchRoute("DELETE", "/v2/ep-memo/run"), { kind: "method-not-allowed", allow: ["POST"] });
  const long = `/v2/${"e".repeat(300)}/run`;
  const fresh = matchRoute("POST", long);
  t.ok(fresh.kind === "match" && fresh.params.endpointId.length === 300 && !Object.isFrozen(fresh), "a long path is matched afresh, not remembered");
});
