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
