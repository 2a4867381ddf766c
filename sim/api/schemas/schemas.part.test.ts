import t from "tap";
import { allSchemas, choicesSchemaIds } from "./all-schemas.ts";
import { createValidator } from "./create-validator.ts";
import { exampleCpuPod, schemaExamples as examples } from "./schema-examples.ts";
import { POD_REQUIRED_FIELDS, Pod } from "./pod.ts";
import { CreatePodRequest } from "./create-pod-request.ts";
import { schemaId } from "./schema-helpers.ts";

type Json = Record<string, unknown>;
const v = createValidator();
const byId = new Map(allSchemas.map((s) => [s.$id as string, s as unknown as Json]));
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** Pointers of every required property the example holds, following $ref, arrays and nullable unions. */
function requiredPointers(schema: Json, value: unknown, at = ""): string[] {
  if (typeof schema.$ref === "string") return requiredPointers(byId.get(schema.$ref) as Json, value, at);
  if (Array.isArray(schema.anyOf)) {
    if (value === null) return [];
    const branch = (schema.anyOf as Json[]).find((b) => b.type !== "null");
    return branch ? requiredPointers(branch, value, at) : [];
  }
  const out: string[] = [];
  if (Array.isArray(value) && typeof schema.items === "object") {
    value.forEach((item, i) => out.push(...requiredPointers(schema.items as Json, item, `${at}/${i}`)));
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const record = value as Json;
    for (const name of (schema.required as string[] | undefined) ?? []) if (name in record) out.push(`${at}/${name}`);
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    for (const [name, sub] of Object.entries(properties)) {
      if (name in record) out.push(...requiredPointers(sub, record[name], `${at}/${name}`));
    }
  }
  return out;
}

function without(value: unknown, pointer: string): unknown {
  const copy = clone(value);
  const segments = pointer.slice(1).split("/");
  const last = segments.pop() as string;
  let node = copy as Json;
  for (const s of segments) node = node[s] as Json;
  delete node[last];
  return copy;
}

t.test("$ids are unique and every schema has a hand-written example", async (t) => {
  t.equal(byId.size, allSchemas.length, "no $id twice");
  for (const id of byId.keys()) t.ok(id in examples, `example for ${id}`);
  for (const id of choicesSchemaIds) t.ok(byId.has(id), `${id} is a known schema`);
});

t.test("every example is valid", async (t) => {
  for (const [id, example] of Object.entries(examples)) {
    const r = v.validate(id, example);
    t.ok(r.ok, `${id}: ${r.errors.join("; ")}`);
  }
  t.ok(v.validate(Pod.$id as string, exampleCpuPod).ok, "a CPU pod is a valid Pod");
});

t.test("removing any required field, at any depth, is refused at that field's pointer", async (t) => {
  let checked = 0;
  for (const [id, example] of Object.entries(examples)) {
    for (const pointer of requiredPointers(byId.get(id) as Json, example)) {
      const r = v.validate(id, without(example, pointer));
      t.notOk(r.ok, `${id} without ${pointer} is refused`);
      t.ok(r.errors.some((e) => e.startsWith(`${pointer}: is required`)), `${id}: error names ${pointer}`);
      checked++;
    }
  }
  t.ok(checked > 60, `${checked} omissions checked`);
});

t.test("the Pod requires exactly the fields the spec lists, plus gpu or cpu", async (t) => {
  const required = (Pod as unknown as { required: string[] }).required;
  t.same([...required].sort(), [...POD_REQUIRED_FIELDS].sort());
  const pod = examples[Pod.$id as string] as Json;
  t.notOk(v.validate(Pod.$id as string, { ...pod, cpu: { id: "cpu3c", vcpuCount: 2, memory: 4 } }).ok, "both gpu and cpu");
  const neither = clone(pod);
  delete neither.gpu;
  t.notOk(v.validate(Pod.$id as string, neither).ok, "neither gpu nor cpu");
});

t.test("responses accept extra properties; requests are strict where the spec says", async (t) => {
  const pod = examples[Pod.$id as string] as Json;
  t.ok(v.validate(Pod.$id as string, { ...pod, costPerHr: 0.69, gpu: { id: "x", count: 1, displayName: "X" } }).ok);
  t.ok(v.validate(schemaId("HealthResponse"), { ...(examples[schemaId("HealthResponse")] as Json), endpointId: "e" }).ok);
  const body = examples[CreatePodRequest.$id as string] as Json;
  const strictLevels: Array<[string, Json]> = [
    ["/extra", { ...body, extra: 1 }],
    ["/gpu/memory", { ...body, gpu: { id: "x", memory: 24 } }],
    ["/cpu/memory", { ...body, gpu: undefined, cpu: { id: "cpu3c", vcpuCount: 2, memory: 4 } }],
    ["/mounts/other", { ...body, mounts: { other: {} } }],
    ["/mounts/persistent/mode", { ...body, mounts: { persistent: { size: 10, path: "/w", mode: "rw" } } }],
    ["/mounts/network/0/readOnly", { ...body, mounts: { network: [{ volumeId: "v", path: "/w", readOnly: true }] } }],
  ];
  for (const [pointer, value] of strictLevels) {
    const r = v.validate(CreatePodRequest.$id as string, JSON.parse(JSON.stringify(value)));
    t.ok(r.errors.includes(`${pointer}: is not an allowed property`), `${pointer} refused: ${r.errors.join("; ")}`);
  }
  for (const id of ["UpdatePodRequest", "PodActionRequest", "JobSubmitRequest", "JobPolicy"]) {
    t.notOk(v.validate(schemaId(id), { ...(examples[schemaId(id)] as Json), extra: 1 }).ok, `${id} is strict`);
  }
});

t.test("types, enums, formats and limits are enforced as the spec states", async (t) => {
  const pod = examples[Pod.$id as string] as Json;
  const bad: Array<[string, Json]> = [
    ["status not a PodStatus", { ...pod, status: "PAUSED" }],
    ["action not a PodAction", { ...pod, actions: ["pause"] }],
    ["cloud not a Cloud", { ...pod, cloud: "ALL" }],
    ["createdAt not a date-time", { ...pod, createdAt: "yesterday" }],
    ["startedAt not a date-time", { ...pod, startedAt: "2025-01-31" }],
    ["cost not a number", { ...pod, cost: "0.5" }],
    ["disk below 1", { ...pod, disk: 0 }],
    ["disk not an integer", { ...pod, disk: 1.5 }],
    ["env value not a string", { ...pod, env: { A: 1 } }],
    ["registry neither string nor null", { ...pod, registry: 3 }],
    ["port not port/protocol", { ...pod, ports: ["8888"] }],
    ["runtime not an object", { ...pod, runtime: "up" }],
    ["ip while disabled", { ...pod, globalNetworking: { enabled: false, ip: "10.0.0.1" } }],
    ["both mounts", { ...pod, mounts: { persistent: { size: 10, path: "/w" }, network: [{ volumeId: "v", path: "/w" }] } }],
    ["two network mounts", { ...pod, mounts: { network: [{ volumeId: "v", path: "/w" }, { volumeId: "v", path: "/x" }] } }],
    ["persistent below 10 GB", { ...pod, mounts: { persistent: { size: 9, path: "/w" } } }],
    ["cpu util above 100", { ...pod, runtime: { cpu: { util: 101 } } }],
  ];
  for (const [what, value] of bad) t.notOk(v.validate(Pod.$id as string, value).ok, what);
  t.notOk(v.validate(schemaId("GraphqlLowestPrice"), { stockStatus: "Plenty" }).ok, "stockStatus enum");
  t.notOk(v.validate(schemaId("GraphqlPod"), { env: ["NOEQUALS"] }).ok, "GraphQL env is KEY=value");
  t.notOk(v.validate(schemaId("GraphqlLowestPrice"), { availableGpuCounts: [1.5] }).ok, "availableGpuCounts are integers");
  t.notOk(v.validate(schemaId("HealthResponse"), { jobs: { completed: 1.5, failed: 0, inProgress: 0, inQueue: 0, retried: 0 }, workers: { idle: 0, running: 0 } }).ok);
  t.notOk(v.validate(schemaId("JobSubmitRequest"), { input: [] }).ok, "input must be an object");
  t.notOk(v.validate(schemaId("JobPolicy"), { executionTimeout: 4999 }).ok, "executionTimeout at least 5 s");
  t.notOk(v.validate(schemaId("JobPolicy"), { ttl: 604800001 }).ok, "ttl at most 7 days");
  t.notOk(v.validate(schemaId("JobSubmitRequest"), { input: {}, webhook: "example.com" }).ok, "webhook is a URL");
  t.notOk(v.validate(schemaId("ErrorResponse"), { title: "x", status: "400", detail: "d" }).ok, "status is an integer");
});

t.test("validate reports JSON pointers; issues carry keyword and params; unknown ids throw", async (t) => {
  const r = v.validate(CreatePodRequest.$id as string, { name: "", image: "i", gpu: { count: 0 } });
  t.same(r.errors.sort(), ["/gpu/count: must be >= 1", "/gpu/id: is required", "/name: must NOT have fewer than 1 characters"].sort());
  const issues = v.issues(CreatePodRequest.$id as string, { name: "n", image: "i", "a/b": 1 });
  t.equal(issues[0]?.path, "/a~1b", "pointer segments are escaped");
  t.equal(issues[0]?.keyword, "additionalProperties");
  t.throws(() => v.validate("cpsim:Nope", {}), { message: /No schema has the \$id "cpsim:Nope"/ });
  t.same(v.validate(Pod.$id as string, examples[Pod.$id as string]), { ok: true, errors: [] });
});
