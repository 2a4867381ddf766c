import t from "tap";
import { fieldLabel, fieldShape, pointerSegments } from "./field-label.ts";
import { describeFailure, fail, failureStatus } from "./violation.ts";

t.test("status: 413 over 400 over 422", async (t) => {
  const v = (ruleId: Parameters<typeof failureStatus>[0][number]["ruleId"]) => ({ ruleId, path: "", message: "m" });
  t.equal(failureStatus([v("pods.create.name-min-length")]), 422);
  t.equal(failureStatus([v("pods.create.name-min-length"), v("pods.create.mounts-exclusive")]), 400);
  t.equal(failureStatus([v("jobs.submit.unknown-key"), v("jobs.payload.run-limit")]), 413);
});

t.test("fail reports each rule and path once; describeFailure summarizes", async (t) => {
  const one = { ruleId: "pods.create.name-min-length" as const, path: "/name", message: "name is empty; send a name." };
  const f = fail([one, one]);
  t.equal(f.violations.length, 1);
  t.same(describeFailure(f), { detail: one.message, errors: [one.message] });
  const two = fail([one, { ...one, path: "/x" }]);
  t.match(describeFailure(two).detail, /2 problems/);
});

t.test("labels and shapes of pointers", async (t) => {
  t.equal(fieldLabel(""), "the request body");
  t.equal(fieldLabel("/mounts/network/0/path"), "mounts.network[0].path");
  t.equal(fieldLabel("/env/MY VAR"), 'env["MY VAR"]');
  t.equal(fieldLabel("/a~1b"), '["a/b"]');
  t.equal(fieldLabel("?wait"), "the query parameter wait");
  t.same(pointerSegments("/a~1b/c~0d"), ["a/b", "c~d"]);
  t.equal(fieldShape("/ports/3"), "ports[]");
  t.equal(fieldShape("/env/0"), "env.*");
  t.equal(fieldShape("/mounts/network/0/volumeId"), "mounts.network[].volumeId");
});
