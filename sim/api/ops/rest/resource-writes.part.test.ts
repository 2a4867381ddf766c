// REST v2 create, update and delete of templates, network volumes, registry credentials and
// serverless endpoints: schemas, problem+json, account isolation, read-only keys, and what the
// created things do in the model (a pod mounts a new volume, a pod is made from a new template,
// a new endpoint runs jobs at once, deleting it cancels the jobs in flight).
import t from "tap";
import { minutes, seconds } from "../../../core/index.ts";
import { Platform } from "../../../domain/platform.ts";
import { openApiDocument } from "../../openapi.ts";
import { operations } from "../../operations.ts";
import { PlatformApi } from "../../platform-api.ts";
import type { ApiResponse, HttpMethod } from "../../types.ts";
import { bundledCatalog, KEYS, problemErrors, validator } from "./test-api.ts";
import { resourceRequestSchemas } from "./resource-request-schemas.ts";

type Json = Record<string, any>;

for (const s of resourceRequestSchemas) if (validator().ajv.getSchema(s.$id as string) === undefined) validator().ajv.addSchema(s);

function api(seed = 1) {
  const platform = new Platform({ seed, catalog: bundledCatalog(), pods: { failureRate: 0 } });
  const a = new PlatformApi(platform, operations);
  const call = (method: HttpMethod, path: string, body?: unknown, key: string = KEYS.alpha): ApiResponse => {
    const out = a.handle({ method, path, query: {}, headers: { authorization: `Bearer ${key}` }, body });
    if (out.kind !== "response") throw new Error(`${method} ${path} answered a wait`);
    return out.response;
  };
  return { platform, call, advance: (us: number) => platform.advanceTo(platform.now + us) };
}

function valid(t: { ok(v: boolean, m: string): unknown }, id: string, body: unknown) {
  const v = validator().validate(`cpsim:${id}`, body);
  t.ok(v.ok, `${id}: ${v.errors.join("; ")}`);
}

t.test("templates: create, read, update, use in createPod, delete", async (t) => {
  const { platform, call } = api();
  const bad = call("POST", "/v2/templates", { name: "x", image: "u:1", dsik: 3 });
  t.same(problemErrors(bad, 400), []);
  t.match((bad.body as Json).errors.join(" "), /dsik/, "the misspelt field is named");
  t.same(problemErrors(call("POST", "/v2/templates", { name: "x" }), 400), [], "image is required");

  const body = { name: "trainer", image: "me/train:1", args: "python train.py", disk: 30, ports: ["8888/http"], env: { A: "1" }, mounts: { persistent: { size: 40, path: "/data" } }, serverless: false };
  const made = call("POST", "/v2/templates", body);
  t.equal(made.status, 201, JSON.stringify(made.body));
  const tpl = made.body as Json;
  valid(t, "Template", tpl);
  t.match(tpl, { name: "trainer", image: "me/train:1", args: "python train.py", disk: 30, ports: ["8888/http"], env: { A: "1" }, isServerless: false, isPublic: false, mounts: { persistent: { size: 40, path: "/data" } } });
  t.same(call("GET", `/v2/templates/${tpl.id}`).body, tpl, "read back as created");
  t.ok((call("GET", "/v2/templates").body as Json).templates.some((x: Json) => x.id === tpl.id));
  t.same(problemErrors(call("GET", `/v2/templates/${tpl.id}`, undefined, KEYS.beta), 404), [], "another account's private template is unknown to it");
  t.same(problemErrors(call("POST", "/v2/templates", body), 409), [], "names are unique per account");
  t.same(problemErrors(call("POST", "/v2/templates", { name: "ro", image: "u:1" }, KEYS.alphaRead), 403), [], "read-only key");

  const patched = call("PATCH", `/v2/templates/${tpl.id}`, { image: "me/train:2", env: { A: "2", B: "3" } });
  t.equal(patched.status, 200);
  t.match(patched.body, { id: tpl.id, image: "me/train:2", env: { A: "2", B: "3" }, disk: 30 });
  t.same(problemErrors(call("PATCH", `/v2/templates/${tpl.id}`, { image: "x:1" }, KEYS.beta), 404), []);
  t.same(problemErrors(call("PATCH", "/v2/templates/tpl-pytorch-2-4", { image: "x:1" }), 404), [], "an official template is not the caller's to change");
  t.same(problemErrors(call("PATCH", `/v2/templates/${tpl.id}`, {}), 400), [], "an empty patch changes nothing and says so");

  // createPod with templateId: the template fills what the body leaves out.
  const pod = call("POST", "/v2/pods", { name: "from-tpl", templateId: tpl.id, startSsh: true, gpu: { id: "NVIDIA GeForce RTX 4090" }, env: { B: "9" } });
  t.equal(pod.status, 201, JSON.stringify(pod.body));
  t.match(pod.body, { image: "me/train:2", args: "python train.py", disk: 30, ports: ["8888/http"], env: { A: "2", B: "9" }, template: tpl.id });
  t.same(problemErrors(call("POST", "/v2/pods", { name: "x", templateId: tpl.id, gpu: { id: "NVIDIA GeForce RTX 4090" } }, KEYS.beta), 422), [], "not another account's template");
  t.same(problemErrors(call("POST", "/v2/pods", { name: "x", templateId: 7, image: "u:1", gpu: { id: "NVIDIA GeForce RTX 4090" } }), 422), []);

  t.equal(call("DELETE", `/v2/templates/${tpl.id}`).status, 204);
  t.same(problemErrors(call("GET", `/v2/templates/${tpl.id}`), 404), []);
  t.same(problemErrors(call("DELETE", `/v2/templates/${tpl.id}`), 404), []);
  t.equal(platform.pods.get("acct-alpha", (pod.body as Json).id)!.template, tpl.id, "the pod keeps the id it was made from");
});

t.test("network volumes: create, mount by a new pod in its data center, grow, delete", async (t) => {
  const { call } = api();
  t.same(problemErrors(call("POST", "/v2/networkvolumes", { name: "v", size: 0, dataCenterId: "EU-RO-1" }), 400), []);
  t.same(problemErrors(call("POST", "/v2/networkvolumes", { name: "v", size: 10, dataCenterId: "MARS-1" }), 400), []);
  const made = call("POST", "/v2/networkvolumes", { name: "datasets", size: 50, dataCenterId: "US-KS-2" });
  t.equal(made.status, 201, JSON.stringify(made.body));
  const vol = made.body as Json;
  valid(t, "NetworkVolume", vol);
  t.same(vol, { id: vol.id, name: "datasets", size: 50, dataCenterId: "US-KS-2" });
  t.same(problemErrors(call("GET", `/v2/networkvolumes/${vol.id}`, undefined, KEYS.beta), 404), []);

  const pod = call("POST", "/v2/pods", { name: "p", image: "u:1", gpu: { id: "NVIDIA GeForce RTX 4090" }, mounts: { network: [{ volumeId: vol.id, path: "/data" }] } });
  t.equal(pod.status, 201, JSON.stringify(pod.body));
  t.equal((pod.body as Json).dataCenterId, "US-KS-2", "placed in the volume's data center");
  const foreign = call("POST", "/v2/pods", { name: "p", image: "u:1", gpu: { id: "NVIDIA GeForce RTX 4090" }, mounts: { network: [{ volumeId: vol.id, path: "/data" }] } }, KEYS.beta);
  t.equal(foreign.status >= 400 && foreign.status < 500, true, "another account cannot mount it");

  t.match(call("PATCH", `/v2/networkvolumes/${vol.id}`, { size: 80, name: "bigger" }).body, { size: 80, name: "bigger" });
  t.same(problemErrors(call("PATCH", `/v2/networkvolumes/${vol.id}`, { size: 20 }), 400), [], "a volume never shrinks");
  t.same(problemErrors(call("DELETE", `/v2/networkvolumes/${vol.id}`), 409), [], "mounted by a pod");
  t.equal(call("DELETE", `/v2/pods/${(pod.body as Json).id}`).status, 204);
  t.equal(call("DELETE", `/v2/networkvolumes/${vol.id}`).status, 204);
  t.same(problemErrors(call("GET", `/v2/networkvolumes/${vol.id}`), 404), []);
});

t.test("registry credentials at both paths: never a password in an answer", async (t) => {
  const { call } = api();
  const made = call("POST", "/v2/registries", { name: "ghcr", username: "me", password: "s3cret" });
  t.equal(made.status, 201, JSON.stringify(made.body));
  valid(t, "Registry", made.body);
  const reg = made.body as Json;
  t.notMatch(JSON.stringify(made.body), /s3cret/);
  t.same(call("GET", `/v2/containerregistryauth/${reg.id}`).body, reg, "one record, two paths");
  t.ok((call("GET", "/v2/registries").body as Json).registries.some((r: Json) => r.id === reg.id));
  t.same(problemErrors(call("POST", "/v2/containerregistryauth", { name: "x", username: "u" }), 400), [], "password required");
  t.match(call("PATCH", `/v2/containerregistryauth/${reg.id}`, { username: "me2", password: "n3w" }).body, { id: reg.id, username: "me2" });
  const tpl = call("POST", "/v2/templates", { name: "private", image: "ghcr.io/me/p:1", registry: reg.id }).body as Json;
  t.same(problemErrors(call("DELETE", `/v2/registries/${reg.id}`), 409), [], "used by a template");
  t.same(problemErrors(call("DELETE", `/v2/registries/${reg.id}`, undefined, KEYS.beta), 404), []);
  t.equal(call("DELETE", `/v2/templates/${tpl.id}`).status, 204);
  t.equal(call("DELETE", `/v2/registries/${reg.id}`).status, 204);
});

t.test("endpoints: create and run jobs at once; update scales; delete cancels jobs in flight", async (t) => {
  const { platform, call, advance } = api();
  const tpl = call("POST", "/v2/templates", { name: "worker", image: "me/worker:1", serverless: true }).body as Json;
  t.same(problemErrors(call("POST", "/v2/endpoints", { name: "e", templateId: tpl.id, gpu: { pools: ["NOPE_99"] } }), 400), []);
  t.same(problemErrors(call("POST", "/v2/endpoints", { name: "e", templateId: "missing", gpu: { pools: ["ADA_24"] } }), 400), []);
  t.same(problemErrors(call("POST", "/v2/endpoints", { name: "e", templateId: tpl.id, gpu: { pools: ["ADA_24"] }, workers: { min: 4, max: 2 } }), 400), []);

  const body = { name: "echo", templateId: tpl.id, type: "QUEUE", gpu: { pools: ["ADA_24", "AMPERE_24"], count: 1, excludedTypes: ["NVIDIA L4"] }, workers: { min: 0, max: 2, idleTimeout: 5 }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 }, flashboot: "OFF" };
  const made = call("POST", "/v2/serverless", body);
  t.equal(made.status, 201, JSON.stringify(made.body));
  const ep = made.body as Json;
  valid(t, "Endpoint", ep);
  t.match(ep, { name: "echo", templateId: tpl.id, type: "QUEUE", gpu: { pools: ["ADA_24", "AMPERE_24", "-NVIDIA L4"], count: 1 }, workers: { min: 0, max: 2, idleTimeout: 5 }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 }, shared: false, handler: "conformance" });
  t.notOk(ep.gpuTypeIds.includes("NVIDIA L4"), "excluded type left out");
  t.equal(ep.gpuTypeIds[0], "NVIDIA GeForce RTX 4090", "pools in order of preference");
  t.same(call("GET", `/v2/endpoints/${ep.id}`).body, ep);
  t.same(problemErrors(call("GET", `/v2/serverless/${ep.id}`, undefined, KEYS.beta), 404), []);

  // Jobs at once, over the job routes, with the conformance handler.
  const run = call("POST", `/v2/${ep.id}/run`, { input: { op: "echo", n: 3 } });
  t.equal(run.status, 200, JSON.stringify(run.body));
  advance(minutes(1));
  t.match(call("GET", `/v2/${ep.id}/status/${(run.body as Json).id}`).body, { status: "COMPLETED", output: { op: "echo", n: 3 } });
  t.same(problemErrors(call("POST", `/v2/${ep.id}/run`, { input: {} }, KEYS.beta), 404), [], "another account's endpoint is unknown to it");

  // Update: workers.min 1 starts a worker now; the template moves.
  const tpl2 = call("POST", "/v2/templates", { name: "worker2", image: "me/worker:2", serverless: true }).body as Json;
  const up = call("PATCH", `/v2/serverless/${ep.id}`, { templateId: tpl2.id, workers: { min: 1 }, scaling: { type: "REQUEST_COUNT", requestCount: 2 } });
  t.equal(up.status, 200, JSON.stringify(up.body));
  t.match(up.body, { templateId: tpl2.id, workersMin: 1, workersMax: 2, scalerType: "RequestCount", scalerValue: 2, version: 1 });
  advance(seconds(30));
  const health = call("GET", `/v2/${ep.id}/health`).body as Json;
  t.ok(health.workers.idle + health.workers.ready + (health.workers.running ?? 0) >= 1, `a worker is kept: ${JSON.stringify(health)}`);
  t.same(problemErrors(call("DELETE", `/v2/templates/${tpl2.id}`), 409), [], "a template in use stays");
  t.same(problemErrors(call("PATCH", "/v2/endpoints/conformance", { workers: { max: 9 } }), 404), [], "shared built-ins are not the caller's");

  const billed = (call("GET", "/v2/billing/endpoints").body as Json).records.find((r: Json) => r.endpointId === ep.id);
  t.match(billed, { name: "echo", gpuTypeId: "NVIDIA GeForce RTX 4090" }, "billing counts the new endpoint");

  // Delete with jobs in flight.
  const running = call("POST", `/v2/${ep.id}/run`, { input: { op: "sleep", ms: 300_000 } }).body as Json;
  const queued = [1, 2, 3, 4].map(() => call("POST", `/v2/${ep.id}/run`, { input: { op: "sleep", ms: 300_000 } }).body as Json);
  advance(seconds(10));
  t.same(problemErrors(call("DELETE", `/v2/endpoints/${ep.id}`, undefined, KEYS.alphaRead), 403), []);
  const gone = call("DELETE", `/v2/endpoints/${ep.id}`);
  t.equal(gone.status, 204);
  t.equal(gone.headers["x-cancelled-jobs"], "5", "the running job and the four queued ones");
  t.same(problemErrors(call("GET", `/v2/${ep.id}/status/${running.id}`), 404), [], "job routes answer as for an unknown endpoint");
  t.same(problemErrors(call("POST", `/v2/${ep.id}/run`, { input: {} }), 404), []);
  t.same(problemErrors(call("GET", `/v2/endpoints/${ep.id}`), 404), []);
  t.equal(queued.length, 4);
  t.equal(call("DELETE", `/v2/templates/${tpl2.id}`).status, 204, "free once the endpoint is gone");
  t.notOk((call("GET", "/v2/billing/endpoints").body as Json).records.some((r: Json) => r.endpointId === ep.id), "nor billed");
  const stats = platform.serverless.healthOf(platform.serverless.endpointIndex("alpha-echo"));
  t.ok(stats, "other endpoints untouched");
});

t.test("SSH keys: PUT and GET, and GraphQL's myself.pubKey reads them", async (t) => {
  const { call } = api();
  const keys = ["ssh-ed25519 AAAAC3 alice@a", "ssh-rsa AAAAB3 alice@b"];
  t.same(call("PUT", "/v2/account/ssh-keys", { keys }).body, { keys });
  t.same(call("GET", "/v2/account/ssh-keys").body, { keys });
  t.same(call("GET", "/v2/account/ssh-keys", undefined, KEYS.beta).body, { keys: [] });
  t.same(problemErrors(call("PUT", "/v2/account/ssh-keys", { keys: ["a\nb"] }), 400), []);
  const user = call("POST", "/graphql", { query: "{ myself { pubKey } }" });
  t.same(user.body, { data: { myself: { pubKey: keys.join("\n") } } });
});

t.test("GET /v2/catalog/gpus/{id}", async (t) => {
  const { call } = api();
  t.match(call("GET", `/v2/catalog/gpus/${encodeURIComponent("NVIDIA GeForce RTX 4090")}`).body, { id: "NVIDIA GeForce RTX 4090", displayName: "RTX 4090" });
  t.same(problemErrors(call("GET", "/v2/catalog/gpus/nope"), 404), []);
});

t.test("the OpenAPI document describes every new operation with its request schema", async (t) => {
  const doc = openApiDocument("test");
  const op = (path: string, method: string) => (doc.paths[path] as Json | undefined)?.[method];
  for (const [path, method, request] of [
    ["/v2/templates", "post", "CreateTemplateRequest"], ["/v2/templates/{id}", "patch", "UpdateTemplateRequest"], ["/v2/templates/{id}", "delete", null],
    ["/v2/networkvolumes", "post", "CreateNetworkVolumeRequest"], ["/v2/networkvolumes/{id}", "patch", "UpdateNetworkVolumeRequest"], ["/v2/networkvolumes/{id}", "delete", null],
    ["/v2/containerregistryauth", "post", "CreateRegistryRequest"], ["/v2/containerregistryauth/{id}", "delete", null],
    ["/v2/endpoints", "post", "CreateEndpointRequest"], ["/v2/endpoints/{id}", "patch", "UpdateEndpointRequest"], ["/v2/endpoints/{id}", "delete", null],
    ["/v2/serverless", "post", "CreateEndpointRequest"], ["/v2/registries", "post", "CreateRegistryRequest"], ["/v2/account/ssh-keys", "put", "SshKeys"],
  ] as const) {
    const o = op(path, method);
    t.ok(o, `${method} ${path}`);
    if (request) t.equal(o?.requestBody?.content["application/json"].schema.$ref, `#/components/schemas/${request}`);
    else t.ok(o?.responses["204"], `${method} ${path} answers 204`);
    if (request) t.ok(doc.components.schemas[request], `${request} is a component`);
  }
});

t.test("same seed, same session: the same answers, byte for byte", async (t) => {
  const session = () => {
    const { call, advance, platform } = api(5);
    const out: string[] = [];
    const tpl = call("POST", "/v2/templates", { name: "w", image: "w:1", serverless: true });
    out.push(JSON.stringify(tpl.body));
    out.push(JSON.stringify(call("POST", "/v2/networkvolumes", { name: "v", size: 10, dataCenterId: "US-KS-2" }).body));
    out.push(JSON.stringify(call("POST", "/v2/containerregistryauth", { name: "r", username: "u", password: "p" }).body));
    const ep = call("POST", "/v2/endpoints", { name: "e", templateId: (tpl.body as Json).id, gpu: { pools: ["ADA_24"] }, workers: { min: 1, max: 2 } });
    out.push(JSON.stringify(ep.body));
    for (let i = 0; i < 5; i++) out.push(JSON.stringify(call("POST", `/v2/${(ep.body as Json).id}/run`, { input: { op: "sleep", ms: 3000 * i } }).body));
    advance(seconds(20));
    out.push(JSON.stringify(call("GET", `/v2/${(ep.body as Json).id}/health`).body));
    out.push(String(call("DELETE", `/v2/endpoints/${(ep.body as Json).id}`).headers["x-cancelled-jobs"]));
    out.push(platform.hash());
    return out.join("\n");
  };
  t.equal(session(), session());
});
