// Requests the spec refuses, judged on both sides; payload limits judged on a body's size alone; stream chunks over 1 MB.
import t from "tap";
import type { RecordedBody } from "../../reports/conformance-report.ts";
import { seenFromRecorded } from "./answer.ts";
import { PassiveJudge } from "./passive-judge.ts";

const judge = (method: string, path: string, body: RecordedBody | undefined, status: number, answer: unknown, profile: "lenient" | "strict" = "lenient") =>
  new PassiveJudge({ profile })
    .judge(
      seenFromRecorded({
        request: { method, url: `http://target.test${path}`, headers: { authorization: "Bearer k-1234567890" }, ...(body ? { body } : {}) },
        response: { status, headers: { "content-type": status >= 400 ? "application/problem+json" : "application/json" }, body: JSON.stringify(answer) },
      }),
    )
    .filter((f) => !f.rule.id.startsWith("ratelimit."))
    .map((f) => `${f.rule.id} [${f.side}]`);

const text = (v: unknown): RecordedBody => ({ kind: "text", text: JSON.stringify(v) });
const problem = (status: number, title: string) => ({ title, status, detail: "x" });

t.test("a refused body: the client's finding; accepted, the target's too; refused, the target keeps the rule", async (t) => {
  const body = text({ name: "x", image: "y", cpu: { id: "cpu3c", vcpuCount: 3 } });
  t.same(judge("POST", "/v2/pods", body, 400, problem(400, "Bad Request")), ["pods.create.vcpu-power-of-two [client]"]);
  t.same(judge("POST", "/v2/pods", body, 201, { id: "p", status: "PROVISIONING" }).filter((f) => f.startsWith("pods.create.vcpu")), [
    "pods.create.vcpu-power-of-two [client]",
    "pods.create.vcpu-power-of-two [target]",
  ]);
  t.same(judge("POST", "/v2/ep/runsync?wait=999999", text({ input: {} }), 200, { id: "j", status: "COMPLETED", executionTime: 3, output: 1 }, "strict"), [
    "jobs.runsync.wait-range [client]",
    "jobs.runsync.wait-range [target]",
  ]);
  t.same(judge("POST", "/v2/ep/runsync?wait=999999", text({ input: {} }), 200, { id: "j", status: "COMPLETED", executionTime: 3, output: 1 }), ["jobs.runsync.wait-range [client]"], "lenient: a wait clamped by the target is its reading");
  t.same(judge("POST", "/v2/pods", { kind: "text", text: "{not json" }, 400, problem(400, "Bad Request")), ["errors.malformed-request [client]"]);
  t.same(judge("POST", "/v2/pods", { kind: "text", text: "{not json" }, 422, problem(422, "Unprocessable Entity")), [
    "errors.malformed-request [client]",
    "errors.malformed-request [target]",
  ], "the spec says 400 for a body that is not JSON");
});

t.test("a body above the capture bound is judged on its size: a run over 10 MB accepted", async (t) => {
  const big: RecordedBody = { kind: "truncated", size: 11 * 1024 * 1024, head: '{"input":{"data":"' };
  t.same(judge("POST", "/v2/ep/run", big, 200, { id: "j", status: "IN_QUEUE" }), ["jobs.payload.run-limit [client]", "jobs.payload.run-limit [target]"]);
  t.same(judge("POST", "/v2/ep/run", big, 413, problem(413, "Payload Too Large")), ["jobs.payload.run-limit [client]"]);
  t.same(judge("POST", "/v2/ep/runsync", big, 200, { id: "j", status: "COMPLETED", executionTime: 3, output: 1 }), [], "runsync takes 20 MB");
});

t.test("a stream chunk over 1 MB is the target's finding; under it, none", async (t) => {
  const stream = (n: number) => ({ status: "IN_PROGRESS", stream: [{ output: "a".repeat(10) }, { output: "b".repeat(n) }] });
  t.same(judge("GET", "/v2/ep/stream/j1", undefined, 200, stream(1_100_000)), ["jobs.stream.chunk-size [target]"]);
  t.same(judge("GET", "/v2/ep/stream/j1", undefined, 200, stream(1_000_000)), []);
  t.same(judge("GET", "/v2/ep/stream/j1", undefined, 200, stream(1_040_000), "strict"), ["jobs.stream.chunk-size [target]"], "strict reads MB as 10^6 bytes");
});
