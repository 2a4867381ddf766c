import t from "tap";
import { MEGABYTE, validateJobSubmit } from "./validate-job-submit.ts";

t.test("defaults of the policy are applied; optional keys kept", async (t) => {
  t.same(validateJobSubmit({ input: { prompt: "hi" } }, { kind: "run" }), {
    ok: true,
    value: { input: { prompt: "hi" }, policy: { executionTimeout: 600000, ttl: 86400000, lowPriority: false } },
  });
  const full = { input: {}, webhook: "https://example.com/h", policy: { executionTimeout: 5000, ttl: 10000, lowPriority: true }, s3Config: { bucketName: "b" } };
  t.same(validateJobSubmit(full, { kind: "runsync" }), { ok: true, value: full });
});

t.test("input must be an object; unknown keys and bad policy values are 400", async (t) => {
  t.match(validateJobSubmit({}, { kind: "run" }), { status: 400, violations: [{ ruleId: "jobs.submit.input-object", path: "/input" }] });
  t.match(validateJobSubmit({ input: [1] }, { kind: "run" }), { status: 400, violations: [{ ruleId: "jobs.submit.input-object" }] });
  t.match(validateJobSubmit("x", { kind: "run" }), { status: 400, violations: [{ ruleId: "jobs.submit.input-object", path: "" }] });
  t.match(validateJobSubmit({ input: {}, inputs: {} }, { kind: "run" }), { status: 400, violations: [{ ruleId: "jobs.submit.unknown-key", path: "/inputs" }] });
  t.match(validateJobSubmit({ input: {}, policy: { priority: 1 } }, { kind: "run" }), { status: 400, violations: [{ ruleId: "jobs.submit.unknown-key", path: "/policy/priority" }] });
  t.match(validateJobSubmit({ input: {}, policy: { executionTimeout: 4999 } }, { kind: "run" }), {
    status: 400,
    violations: [{ ruleId: "jobs.submit.policy-execution-timeout", message: /5000 \(5 s\) to 604800000 \(7 days\)/ }],
  });
  t.match(validateJobSubmit({ input: {}, policy: { ttl: 604800001 } }, { kind: "run" }), { status: 400, violations: [{ ruleId: "jobs.submit.policy-ttl" }] });
  t.match(validateJobSubmit({ input: {}, webhook: "example.com" }, { kind: "run" }), { status: 400, violations: [{ ruleId: "jobs.submit.webhook-url" }] });
  const r = validateJobSubmit({ input: {}, webhook: "x" }, { kind: "run" });
  t.equal(r.ok ? 0 : r.violations.length, 1, "one violation for a value that fails two keywords of one rule");
});

t.test("payload limits: 10 MB for run, 20 MB for runsync, 413, body not read further", async (t) => {
  t.match(validateJobSubmit({ nonsense: true }, { kind: "run", bodyBytes: 10 * MEGABYTE + 1 }), {
    status: 413,
    violations: [{ ruleId: "jobs.payload.run-limit", path: "" }],
  });
  t.equal(validateJobSubmit({ nonsense: true }, { kind: "run", bodyBytes: 10 * MEGABYTE + 1 }).ok, false);
  t.ok(validateJobSubmit({ input: {} }, { kind: "runsync", bodyBytes: 10 * MEGABYTE + 1 }).ok, "runsync allows 20 MB");
  t.match(validateJobSubmit({ input: {} }, { kind: "runsync", bodyBytes: 20 * MEGABYTE + 1 }), { status: 413, violations: [{ ruleId: "jobs.payload.runsync-limit" }] });
  t.match(validateJobSubmit({ input: { s: "é".repeat(60) } }, { kind: "run", maxBytes: 100 }), { status: 413 }, "bytes, not characters");
});
