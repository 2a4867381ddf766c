import t from "tap";
import { Harness, body, expectProblem } from "./test-harness.ts";

t.test("beta cannot see or touch alpha's jobs on a shared endpoint: 404 everywhere", async (t) => {
  const h = new Harness();
  const queued = h.run("conformance", { op: "sleep", ms: 5000 });
  const failed = h.run("conformance", { op: "fail", message: "x" });
  h.finish("conformance", failed);
  t.equal(h.statusOf("conformance", queued), "IN_PROGRESS", "alpha's job is running");

  for (const [method, path] of [
    ["GET", `/v2/conformance/status/${queued}`],
    ["GET", `/v2/conformance/status-sync/${queued}`],
    ["GET", `/v2/conformance/stream/${queued}`],
    ["POST", `/v2/conformance/cancel/${queued}`],
    ["POST", `/v2/conformance/retry/${failed}`],
  ] as const) {
    const detail = expectProblem(t, h.call(method, path, { key: "beta" }), 404, `beta ${method} ${path.split("/")[3]}: 404`);
    t.match(detail, /No job/);
  }
  t.equal(h.statusOf("conformance", queued), "IN_PROGRESS", "alpha's job untouched");
  t.equal(h.statusOf("conformance", failed), "FAILED");
});

t.test("purge and health on a shared endpoint count only the caller's jobs", async (t) => {
  const h = new Harness();
  const mine = [1, 2, 3].map(() => h.run("conformance", { op: "sleep", ms: 5000 }));
  const purge = h.call("POST", "/v2/conformance/purge-queue", { key: "beta" });
  t.equal(purge.status, 200);
  t.equal(body<{ removed: number }>(purge).removed, 0, "beta removed none of alpha's queued jobs");
  for (const id of mine) t.not(h.statusOf("conformance", id), undefined, "alpha's job still there");
});

t.test("another account's private endpoint answers 404 exactly like an unknown endpoint", async (t) => {
  const h = new Harness();
  const id = h.run("alpha-echo", {});
  const foreign = expectProblem(t, h.call("POST", "/v2/alpha-echo/run", { key: "beta", body: { input: {} } }), 404);
  const unknown = expectProblem(t, h.call("POST", "/v2/zeta-echo/run", { key: "beta", body: { input: {} } }), 404);
  t.equal(foreign.replace("alpha-echo", "?"), unknown.replace("zeta-echo", "?"), "the same sentence: existence is not revealed");
  expectProblem(t, h.status("alpha-echo", id, "beta"), 404, "status of alpha's job on alpha's endpoint");
  expectProblem(t, h.call("GET", "/v2/alpha-echo/health", { key: "beta" }), 404);
  expectProblem(t, h.call("POST", "/v2/alpha-echo/purge-queue", { key: "beta" }), 404);
  t.equal(h.statusOf("alpha-echo", id), "IN_QUEUE", "alpha still sees it");
});
