// Only accepted changes reach the journal: requests without a key or with a wrong one, reads,
// refusals, rate-limited requests and GraphQL queries cost no disk (issue 23: 1,500
// unauthenticated posts of 1 MB each had made a 1.5 GB journal).
import t from "tap";
import { statSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { JOURNAL_FILE } from "./state-journal.ts";
import { changedModel, isGraphqlMutation, mayChange } from "./journal-policy.ts";
import { ALPHA, LOAD, journalLines, pod, send, stateDir } from "./state-test-helpers.ts";

const READ_ONLY = "Bearer cpsim_alpha_read_2c8e5b1f9a3d6047";

t.test("refusals, reads and queries are not journaled; changes are", async (t) => {
  const dir = stateDir(t);
  const e = await startEmulator({ clock: "manual", seed: 1, state: dir });
  t.teardown(() => e.close());
  const start = statSync(join(dir, JOURNAL_FILE)).size;
  const big = pod("x".repeat(200_000));
  t.equal((await send(e.baseUrl, "POST", "/v2/pods", undefined, big)).status, 401);
  t.equal((await send(e.baseUrl, "POST", "/v2/pods", "Bearer wrong", big)).status, 401);
  t.equal((await send(e.baseUrl, "POST", "/graphql", undefined, { query: `mutation { podStop(input: {podId: "${"y".repeat(1000)}"}) { id } }` })).status, 401);
  const ro = await send(e.baseUrl, "POST", "/v2/pods", READ_ONLY, pod("ro"));
  t.ok(ro.status === 403 || ro.status === 401, `read-only key refused (${ro.status})`);
  t.equal((await send(e.baseUrl, "POST", "/v2/pods", ALPHA, { name: 5 })).status, 400);
  for (let i = 0; i < 5; i++) t.equal((await send(e.baseUrl, "GET", "/v2/pods", ALPHA)).status, 200);
  t.equal((await send(e.baseUrl, "POST", "/graphql", ALPHA, { query: "query { myself { id } }" })).status, 200);
  t.equal((await send(e.baseUrl, "GET", "/v2/nothing-here", ALPHA)).status, 404);
  t.equal(statSync(join(dir, JOURNAL_FILE)).size, start, "the journal did not grow");
  t.equal(e.stats().journal?.written, 0);

  t.equal((await send(e.baseUrl, "POST", "/v2/pods", ALPHA, pod("kept"))).status, 201);
  t.equal((await send(e.baseUrl, "POST", "/v2/conformance/run", LOAD, { input: { op: "sleep", ms: 10 } })).status, 200);
  await e.close();
  t.same(journalLines(dir).map((r) => r.k), ["start", "req", "req"]);
});

t.test("the policy, request by request", async (t) => {
  const q = (query: Record<string, string> = {}) => query;
  t.notOk(mayChange({ method: "GET", path: "/v2/pods", query: q(), body: undefined }));
  t.notOk(mayChange({ method: "GET", path: "/v2/ep/status/j1", query: q(), body: undefined }));
  t.ok(mayChange({ method: "GET", path: "/v2/ep/status/j1", query: q({ ttl: "5000" }), body: undefined }));
  t.ok(mayChange({ method: "GET", path: "/v2/ep/status-sync/j1", query: q({ ttl: "5000" }), body: undefined }));
  t.ok(mayChange({ method: "GET", path: "/v2/ep/stream/j1", query: q(), body: undefined }));
  t.ok(mayChange({ method: "GET", path: "/v2/ep/job-take/w1", query: q(), body: undefined }));
  t.ok(mayChange({ method: "DELETE", path: "/v2/pods/p", query: q(), body: undefined }));
  t.notOk(mayChange({ method: "POST", path: "/graphql", query: q(), body: { query: "{ myself { id } }" } }));
  t.ok(mayChange({ method: "POST", path: "/graphql", query: q(), body: [{ query: "{ a }" }, { query: "mutation { b }" }] }));
  t.ok(isGraphqlMutation({ query: "mutation M { x }" }));
  t.notOk(isGraphqlMutation("mutation"));
  const post = { method: "POST" as const, path: "/v2/pods", query: q(), body: {} };
  t.ok(changedModel(post, 201));
  t.ok(changedModel(post, "wait"));
  t.ok(changedModel(post, "threw"));
  for (const status of [400, 401, 403, 404, 409, 413, 429, 503]) t.notOk(changedModel(post, status), `${status} is not journaled`);
});
