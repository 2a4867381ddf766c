// Situations where the spec fixes no answer, so a correct service's answer is no finding: a cancel that raced the job's end, a body of another media type refused with 415.
import t from "tap";
import type { RecordedBody } from "../../reports/conformance-report.ts";
import { seenFromRecorded } from "./answer.ts";
import { PassiveJudge } from "./passive-judge.ts";

const judge = (method: string, path: string, body: RecordedBody | undefined, contentType: string | undefined, status: number, answer: unknown) =>
  new PassiveJudge()
    .judge(
      seenFromRecorded({
        request: { method, url: `http://target.test${path}`, headers: { authorization: "Bearer k-1234567890", ...(contentType ? { "content-type": contentType } : {}) }, ...(body ? { body } : {}) },
        response: { status, headers: { "content-type": status >= 400 ? "application/problem+json" : "application/json" }, body: JSON.stringify(answer) },
      }),
    )
    .filter((f) => !f.rule.id.startsWith("ratelimit."))
    .map((f) => `${f.rule.id} [${f.side}]`);

t.test("a cancel answered with the job's final status (it finished first) is no cancel verdict; a cancel answered with a made-up status still is", async (t) => {
  for (const status of ["FAILED", "COMPLETED", "TIMED_OUT"]) {
    t.same(judge("POST", "/v2/ep/cancel/j1", undefined, undefined, 200, { id: "j1", status }), [], `cancel of a ${status} job`);
  }
  t.same(judge("POST", "/v2/ep/cancel/j1", undefined, undefined, 200, { id: "j1", status: "CANCELLING" }), ["jobs.cancel.response [target]"]);
  t.same(judge("POST", "/v2/ep/cancel/j1", undefined, undefined, 200, { id: "j1", status: "CANCELLED" }), []);
});

t.test("a text/plain body refused with 415 is the client's finding only; a JSON-typed malformed body refused with 415 is still the target's", async (t) => {
  const body: RecordedBody = { kind: "text", text: "name=x" };
  const problem = { title: "Unsupported Media Type", status: 415, detail: "x" };
  t.same(judge("POST", "/v2/pods", body, "text/plain", 415, problem), ["errors.malformed-request [client]"]);
  t.same(judge("POST", "/v2/pods", body, "text/plain", 201, { id: "p", status: "PROVISIONING" }).filter((f) => f.startsWith("errors.malformed")), [
    "errors.malformed-request [client]",
    "errors.malformed-request [target]",
  ], "accepting it is still the target's finding");
  t.same(judge("POST", "/v2/pods", body, "application/json", 415, problem), ["errors.malformed-request [client]", "errors.malformed-request [target]"]);
});
