import t from "tap";
import fc from "fast-check";
import { conformanceHandler, CONFORMANCE_LIMITS } from "./conformance.ts";
import { planViolations } from "./plan-invariants.ts";
import { splitStreamOutput } from "./split-stream-output.ts";
import type { HandlerPlan } from "./types.ts";

const ctx = { jobId: "job-1", seed: 42 };
const plan = (input: unknown): HandlerPlan => {
  const p = conformanceHandler.plan(input, ctx);
  const problems = planViolations(p);
  if (problems.length > 0) throw new Error(`bad plan: ${problems.join("; ")}`);
  return p;
};
/** The error of a plan that must fail at once. */
const failure = (input: unknown): string => {
  const p = plan(input);
  if (p.kind !== "fail" || p.durationMs !== 0) throw new Error(`expected an immediate failure for ${JSON.stringify(input)}`);
  return p.error;
};

t.test("{} and op echo return the input unchanged, at once", async (t) => {
  for (const input of [{}, { op: "echo" }, { op: "echo", nested: { a: [1, "x", null] }, n: 3 }, { other: true }]) {
    const p = plan(input);
    t.same(p, { kind: "complete", durationMs: 0, output: input });
    t.equal(p.kind === "complete" && p.output, input, "the very same value");
  }
});

t.test("input that is not an object has no op, so it echoes too", async (t) => {
  for (const input of [null, 5, "text", [1, 2], true]) t.same(plan(input), { kind: "complete", durationMs: 0, output: input });
});

t.test("sleep N waits N ms and returns {slept_ms: N}", async (t) => {
  for (const ms of [0, 1, 1500, 600_000]) t.same(plan({ op: "sleep", ms }), { kind: "complete", durationMs: ms, output: { slept_ms: ms } });
  t.match(failure({ op: "sleep" }), /^sleep: "ms" is required: an integer from 0 to 600000$/);
  t.match(failure({ op: "sleep", ms: 600_001 }), /^sleep: "ms" must be an integer from 0 to 600000, got 600001$/);
  t.match(failure({ op: "sleep", ms: -1 }), /got -1/);
  t.match(failure({ op: "sleep", ms: 1.5 }), /got 1\.5/);
  t.match(failure({ op: "sleep", ms: "10" }), /got "10"/);
});

t.test("fail with message S fails with an error containing S, every time", async (t) => {
  const p = plan({ op: "fail", message: "boom: 42" });
  t.same(p, { kind: "fail", durationMs: 0, error: "boom: 42" });
  t.same(plan({ op: "fail", message: "boom: 42" }), p, "a retry fails the same way");
  t.same(plan({ op: "fail", message: "" }), { kind: "fail", durationMs: 0, error: "" });
  t.match(failure({ op: "fail" }), /"message" is required/);
  t.match(failure({ op: "fail", message: 7 }), /"message" must be a string, got 7/);
});

t.test("bytes N returns N characters a..z repeating", async (t) => {
  t.same(plan({ op: "bytes", n: 0 }), { kind: "complete", durationMs: 0, output: "" });
  t.same(plan({ op: "bytes", n: 3 }), { kind: "complete", durationMs: 0, output: "abc" });
  const p = plan({ op: "bytes", n: 60 });
  t.equal(p.kind === "complete" && p.output, "abcdefghijklmnopqrstuvwxyz".repeat(3).slice(0, 60));
  const big = plan({ op: "bytes", n: 2_500_000 });
  const s = big.kind === "complete" ? (big.output as string) : "";
  t.equal(s.length, 2_500_000);
  t.equal(s.slice(2_499_974), "abcdefghijklmnopqrstuvwxyz".slice((2_499_974 % 26)).padEnd(26, "abcdefghijklmnopqrstuvwxyz"));
  t.equal(splitStreamOutput(s).length, 3, "bigger than a stream chunk: three 1 MB pieces");
  t.same(plan({ op: "bytes", n: CONFORMANCE_LIMITS.bytesMax }).kind, "complete");
  t.match(failure({ op: "bytes", n: CONFORMANCE_LIMITS.bytesMax + 1 }), /^bytes: "n" must be an integer from 0 to 50000000/);
  t.match(failure({ op: "bytes" }), /^bytes: "n" is required/);
});

t.test("stream K, B, M yields K strings of B chars, each after M ms; output is the array", async (t) => {
  const p = plan({ op: "stream", chunks: 3, bytes: 30, ms: 250 });
  const piece = "abcdefghijklmnopqrstuvwxyzabcd";
  t.same(p, {
    kind: "complete",
    durationMs: 750,
    output: [piece, piece, piece],
    stream: [
      { atMs: 250, output: piece },
      { atMs: 500, output: piece },
      { atMs: 750, output: piece },
    ],
  });
  t.same(plan({ op: "stream", chunks: 2, bytes: 1 }), {
    kind: "complete",
    durationMs: 0,
    output: ["a", "a"],
    stream: [
      { atMs: 0, output: "a" },
      { atMs: 0, output: "a" },
    ],
  }, "ms defaults to 0");
  t.same(plan({ op: "stream", chunks: 0, bytes: 5 }), { kind: "complete", durationMs: 0, output: [], stream: [] });
});

t.test("stream bounds fail with clear messages", async (t) => {
  t.match(failure({ op: "stream", bytes: 1 }), /^stream: "chunks" is required: an integer from 0 to 10000$/);
  t.match(failure({ op: "stream", chunks: 1 }), /^stream: "bytes" is required/);
  t.match(failure({ op: "stream", chunks: 10_001, bytes: 1 }), /"chunks" must be an integer from 0 to 10000/);
  t.match(failure({ op: "stream", chunks: 1, bytes: 1, ms: -5 }), /"ms" must be an integer from 0 to 600000/);
  t.match(failure({ op: "stream", chunks: 10_000, bytes: 10_001 }), /^stream: chunks \* bytes must be at most 100000000, got 100010000$/);
  t.match(failure({ op: "stream", chunks: 601, bytes: 1, ms: 1000 }), /^stream: chunks \* ms must be at most 600000, got 601000$/);
  t.equal(plan({ op: "stream", chunks: 100, bytes: 1_000_000 }).kind, "complete", "100 MB in all is allowed");
});

t.test("an unknown op fails naming the op", async (t) => {
  t.match(failure({ op: "frobnicate" }), /^unknown op "frobnicate"$/);
  t.match(failure({ op: "ECHO" }), /unknown op "ECHO"/);
  t.match(failure({ op: 5 }), /^unknown op 5$/);
  t.match(failure({ op: null }), /^unknown op null$/);
});

t.test("identical inputs give deep-equal plans, whatever the job", async (t) => {
  const input = fc.oneof(
    fc.record({ op: fc.constant("sleep"), ms: fc.integer({ min: -10, max: 700_000 }) }),
    fc.record({ op: fc.constant("bytes"), n: fc.integer({ min: -1, max: 2000 }) }),
    fc.record({ op: fc.constant("stream"), chunks: fc.nat(20), bytes: fc.nat(50), ms: fc.nat(100) }),
    fc.record({ op: fc.constant("fail"), message: fc.string() }),
    fc.record({ op: fc.string() }),
    fc.jsonValue(),
  );
  fc.assert(
    fc.property(input, fc.nat(), fc.nat(), (i, s1, s2) => {
      const a = conformanceHandler.plan(i, { jobId: "a", seed: s1 });
      const b = conformanceHandler.plan(structuredClone(i), { jobId: "b", seed: s2 });
      t.same(a, b);
      return planViolations(a).length === 0;
    }),
    { numRuns: 300 },
  );
});

t.test("the handler is registered as streaming", async (t) => {
  t.equal(conformanceHandler.name, "conformance");
  t.equal(conformanceHandler.streaming, true);
});
