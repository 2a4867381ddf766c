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

t.test("rules one exchange shows, judged with conform's code: runtime outside RUNNING, cost when EXITED, a COMPLETED job without executionTime", async (t) => {
  const pod = (over: Record<string, unknown>) => ({ id: "p1", status: "PROVISIONING", runtime: null, cost: 0.5, ...over });
  const only = (fs: string[], prefix: string) => fs.filter((f) => f.startsWith(prefix));
  t.same(only(judge("GET", "/v2/pods/p1", undefined, undefined, 200, pod({ runtime: { uptimeInSeconds: 1 } })), "pods.runtime"), ["pods.runtime-null-unless-running [target]"], "runtime while PROVISIONING, on a get");
  t.same(only(judge("GET", "/v2/pods", undefined, undefined, 200, { pods: [pod({ status: "EXITED", cost: 0.4 })] }), "pods.cost"), ["pods.cost-zero-when-stopped [target]"], "cost when EXITED, on a list");
  t.same(only(judge("GET", "/v2/pods/p1", undefined, undefined, 200, pod({ status: "EXITED", cost: 0 })), "pods."), [], "a correct EXITED pod");
  t.same(only(judge("GET", "/v2/pods/p1", undefined, undefined, 200, pod({ cpu: { id: "cpu3c" }, gpu: { id: "x" } })), "pods.gpu"), ["pods.gpu-xor-cpu [target]"], "a CPU pod that also carries gpu");
  t.same(only(judge("GET", "/v2/ep/status/j1", undefined, undefined, 200, { id: "j1", status: "COMPLETED", output: 1 }), "jobs.completed"), ["jobs.completed-output [target]"], "COMPLETED without executionTime");
  t.same(only(judge("GET", "/v2/ep/status/j1", undefined, undefined, 200, { id: "j1", status: "COMPLETED", executionTime: 3, output: 1 }), "jobs.completed"), []);
});

t.test("GraphQL answers (env shape, stockStatus), a keyless request answered 403, the default cloud", async (t) => {
  const gql = (data: unknown) => judge("POST", "/graphql", { kind: "text", text: '{"query":"{ myself { pods { id env } } }"}' }, "application/json", 200, { data });
  t.same(gql({ myself: { pods: [{ id: "p", env: [{ key: "A", value: "1" }] }] } }).filter((f) => f.startsWith("graphql.env")), ["graphql.env-key-value [target]"], "env as objects");
  t.same(gql({ myself: { pods: [{ id: "p", env: ["A=1", "B=x=y"] }] } }).filter((f) => f.startsWith("graphql.env")), [], "env as KEY=value strings");
  // Templates and endpoints are no Pod records: their env is [{key, value}] (the official Python client selects `env { key value }`).
  t.same(gql({ saveTemplate: { id: "t", env: [{ key: "K", value: "v" }] } }).filter((f) => f.startsWith("graphql.env")), [], "a template's env");
  t.same(gql({ myself: { endpoints: [{ id: "e", env: [{ key: "K", value: "v" }] }], podTemplates: [{ id: "t", env: [{ key: "K", value: "v" }] }] } }).filter((f) => f.startsWith("graphql.env")), [], "endpoints' and templates' env");
  for (const field of ["podFindAndDeployOnDemand", "deployCpuPod", "podResume", "podStop", "pod"]) {
    t.same(gql({ [field]: { id: "p", env: [{ key: "A", value: "1" }] } }).filter((f) => f.startsWith("graphql.env")), ["graphql.env-key-value [target]"], `${field}'s env as objects`);
  }
  t.same(gql({ gpuTypes: [{ id: "g", lowestPrice: { stockStatus: "Plenty" } }] }).filter((f) => f.startsWith("graphql.stock")), ["graphql.stock-status-enum [target]"]);
  t.same(gql({ gpuTypes: [{ id: "g", lowestPrice: { stockStatus: "Low" } }, { id: "h", lowestPrice: { stockStatus: null } }] }).filter((f) => f.startsWith("graphql.stock")), []);
  const keyless = (status: number) =>
    new PassiveJudge()
      .judge(seenFromRecorded({ request: { method: "GET", url: "http://target.test/v2/pods", headers: {} }, response: { status, headers: { "content-type": "application/problem+json" }, body: JSON.stringify({ title: status === 401 ? "Unauthorized" : "Forbidden", status }) } }))
      .filter((f) => f.rule.id === "auth.missing-key")
      .map((f) => `${f.rule.id} [${f.side}]`);
  t.same(keyless(403), ["auth.missing-key [target]"], "a missing key answered 403");
  t.same(keyless(401), []);
  const create = (answer: unknown) =>
    judge("POST", "/v2/pods", { kind: "text", text: '{"name":"x","image":"y","cpu":{"id":"cpu3c","vcpuCount":2}}' }, "application/json", 201, answer).filter((f) => f.startsWith("pods.create.default-cloud"));
  t.same(create({ id: "p", status: "PROVISIONING", cloud: "COMMUNITY" }), ["pods.create.default-cloud [target]"], "the default cloud");
  t.same(create({ id: "p", status: "PROVISIONING", cloud: "SECURE" }), []);
});
