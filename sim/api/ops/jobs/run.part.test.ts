import t from "tap";
import { Harness, body, expectProblem, matchesSchema } from "./test-harness.ts";

t.test("run answers 200 {id, status: IN_QUEUE} at once and the job exists", async (t) => {
  const h = new Harness();
  const r = h.call("POST", "/v2/conformance/run", { body: { input: { op: "echo", x: 1 } } });
  t.equal(r.status, 200);
  t.equal(r.headers["content-type"], "application/json");
  matchesSchema(t, "JobSubmitResponse", r.body);
  const { id, status } = body<{ id: string; status: string }>(r);
  t.equal(status, "IN_QUEUE");
  t.match(id, /^[0-9a-f-]{36}$/);
  t.same(Object.keys(r.body as object), ["id", "status"], "nothing but id and status");
  t.ok(r.headers["ratelimit"], "rate-limit headers ride along");
  t.equal(h.statusOf("conformance", id), "IN_QUEUE");
});

t.test("run accepts webhook, policy and s3Config", async (t) => {
  const h = new Harness();
  const r = h.call("POST", "/v2/conformance/run", {
    body: {
      input: {},
      webhook: "https://example.test/hook",
      policy: { executionTimeout: 5000, ttl: 60_000, lowPriority: true },
      s3Config: { accessId: "a", accessSecret: "b", bucketName: "c", endpointUrl: "https://s3.test" },
    },
  });
  t.equal(r.status, 200);
  matchesSchema(t, "JobSubmitResponse", r.body);
});

t.test("run refuses bad bodies with 400 problem+json naming what to send", async (t) => {
  const h = new Harness();
  const cases: [string, unknown, RegExp][] = [
    ["no body", undefined, /input/],
    ["empty object", {}, /input/],
    ["input not an object", { input: "hello" }, /input/],
    ["input an array", { input: [1, 2] }, /input/],
    ["unknown key", { input: {}, priority: 1 }, /priority/],
    ["policy.ttl below 10 s", { input: {}, policy: { ttl: 5 } }, /ttl/],
    ["policy.executionTimeout above 7 days", { input: {}, policy: { executionTimeout: 8 * 86_400_000 } }, /executionTimeout/],
    ["unknown policy key", { input: {}, policy: { retries: 3 } }, /retries/],
    ["webhook not a URL", { input: {}, webhook: "not a url" }, /webhook/],
    ["body an array", [{ input: {} }], /object/],
  ];
  for (const [what, b, mentions] of cases) {
    const r = h.call("POST", "/v2/conformance/run", { body: b });
    const detail = expectProblem(t, r, 400, `${what}: 400`);
    const errors = (r.body as { errors?: string[] }).errors ?? [];
    t.ok(errors.length >= 1, `${what}: errors listed`);
    t.match(`${detail} ${errors.join(" ")}`, mentions, `${what}: the message names the field`);
  }
  const health = body<{ jobs: { inQueue: number } }>(h.call("GET", "/v2/conformance/health"));
  t.equal(health.jobs.inQueue, 0, "no refused request left a job behind");
});

t.test("a body over the run limit answers 413 (size from content-length)", async (t) => {
  const h = new Harness();
  const r = h.call("POST", "/v2/conformance/run", {
    body: { input: {} },
    headers: { "content-length": String(10 * 1024 * 1024 + 1) },
  });
  expectProblem(t, r, 413);
  const sync = h.request("POST", "/v2/conformance/runsync", {
    body: { input: {} },
    headers: { "content-length": String(10 * 1024 * 1024 + 1) },
  });
  t.equal(sync.kind, "wait", "runsync allows 20 MB: the job was taken");
  const over = h.call("POST", "/v2/conformance/runsync", {
    body: { input: {} },
    headers: { "content-length": String(20 * 1024 * 1024 + 1) },
  });
  expectProblem(t, over, 413, "runsync over 20 MB: 413");
});

t.test("unknown endpoints answer 404; a model slug is an endpoint id", async (t) => {
  const h = new Harness();
  const detail = expectProblem(t, h.call("POST", "/v2/no-such-endpoint/run", { body: { input: {} } }), 404);
  t.match(detail, /no-such-endpoint/);
  const bySlug = h.call("POST", "/v2/flux-1-schnell/run", { body: { input: { prompt: "a cat" } } });
  t.equal(bySlug.status, 200);
  const id = body<{ id: string }>(bySlug).id;
  t.equal(h.statusOf("flux-1-schnell", id), "IN_QUEUE", "status by slug");
  t.equal(h.statusOf("public-flux-1-schnell", id), "IN_QUEUE", "and by endpoint id");
});

t.test("a read-only key cannot submit (403) but can read", async (t) => {
  const h = new Harness();
  expectProblem(t, h.call("POST", "/v2/conformance/run", { key: "alphaRead", body: { input: {} } }), 403);
  const id = h.run("conformance", {});
  t.equal(h.statusOf("conformance", id, "alphaRead"), "IN_QUEUE");
});
