// The JavaScript SDK repository's `Pod` class (src/Pod.ts) against `cpsim serve`, its calls made
// with a real `fetch` exactly as the class makes them (written here, none of its code): create()
// POSTs the options JSON to `{baseUrl}/pods` and keeps `.id` of the answer; stop() POSTs the same
// options JSON to `{baseUrl}/pods/{id}/stop`; delete() sends DELETE `{baseUrl}/pods/{id}` with the
// JSON content type and no body; each with `Authorization: Bearer <key>`. The pods are the v2
// pods of the model; and the refusals say which option was wrong.
import t from "tap";
import { restValidator } from "../api/ops/rest/resource-writes.ts";
import { openApiDocument } from "../api/openapi.ts";
import { readOpenApi } from "../../conformance/target-facts/openapi-facts.ts";
import { startEmulator } from "./emulator.ts";
import { PlatformBackend } from "./platform-backend.ts";

const KEY = "cpsim_alpha_full_7f3a9c2e41b6d805";
const BETA = "cpsim_beta_full_91d4e6a2c7b3f058";
const READ = "cpsim_alpha_read_2c8e5b1f9a3d6047";
type Json = Record<string, any>;

/** The class's three calls, in its order of headers and with its bodies. */
class PodCalls {
  id: string | null = null;
  constructor(readonly options: Json, readonly key: string, readonly baseUrl: string) {}
  private headers() {
    return { "Content-Type": "application/json", Authorization: `Bearer ${this.key}` };
  }
  async create(): Promise<Response> {
    const resp = await fetch(`${this.baseUrl}/pods`, { method: "POST", headers: this.headers(), body: JSON.stringify(this.options) });
    if (resp.ok) this.id = ((await resp.clone().json()) as Json).id;
    return resp;
  }
  stop(): Promise<Response> {
    return fetch(`${this.baseUrl}/pods/${this.id}/stop`, { method: "POST", headers: this.headers(), body: JSON.stringify(this.options) });
  }
  delete(): Promise<Response> {
    return fetch(`${this.baseUrl}/pods/${this.id}`, { method: "DELETE", headers: this.headers() });
  }
}

const v1PodErrors = (body: unknown) => restValidator().validate("cpsim:V1Pod", body).errors;

t.test("create, stop, delete as the Pod class calls them: the pods are the model's v2 pods", async (t) => {
  let backend!: PlatformBackend;
  const emu = await startEmulator({ clock: "manual", seed: 4, logger: false, createBackend: (o) => (backend = new PlatformBackend(o)) });
  t.teardown(() => emu.close());
  t.equal(emu.host, "127.0.0.1");
  const base = `${emu.baseUrl}/v1`;
  const v2 = async (path: string, key = KEY) => {
    const res = await fetch(`${emu.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: res.status === 204 ? undefined : ((await res.json()) as Json) };
  };
  const advance = (ms: number) => fetch(`${emu.baseUrl}/_sim/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms }) });

  const options = {
    name: "js-pod",
    imageName: "runpod/pytorch:2.4.0",
    computeType: "GPU",
    gpuTypeIds: ["NVIDIA GeForce RTX 3080", "NVIDIA GeForce RTX 4090"],
    gpuCount: 1,
    cloudType: "SECURE",
    containerDiskInGb: 30,
    volumeInGb: 25,
    volumeMountPath: "/data",
    env: { JUPYTER_PASSWORD: "secret" },
    ports: ["8888/http", "22/tcp"],
    dockerStartCmd: ["python", "-m", "http.server", "8888"],
    supportPublicIp: true,
    interruptible: false,
    gpuTypePriority: "custom",
  };
  const pod = new PodCalls(options, KEY, base);
  const created = await pod.create();
  t.equal(created.status, 201, await created.clone().text());
  const v1 = (await created.json()) as Json;
  t.same(v1PodErrors(v1), [], "the answer is a V1Pod");
  t.match(pod.id, /^[a-z0-9]{14}$/, "`.id` of the answer");
  t.match(v1, {
    name: "js-pod", image: "runpod/pytorch:2.4.0", desiredStatus: "RUNNING", consumerUserId: "acct-alpha",
    gpu: { id: "NVIDIA GeForce RTX 4090", count: 1, displayName: String }, gpuCount: 1, cpuFlavorId: null,
    containerDiskInGb: 30, volumeInGb: 25, volumeMountPath: "/data", networkVolumeId: null,
    env: { JUPYTER_PASSWORD: "secret" }, ports: ["8888/http", "22/tcp"], dockerStartCmd: ["python", "-m", "http.server", "8888"],
    interruptible: false, locked: false, templateId: null,
  });
  // The RTX 3080 exists only in Community Cloud: the first id could not be placed, the second was.
  const model = backend.model.pods.get("acct-alpha", pod.id!);
  t.ok(model, "the pod exists in the model");
  t.equal(model!.gpu?.id, "NVIDIA GeForce RTX 4090");
  const listed = await v2("/v2/pods");
  const inV2 = (listed.body!.pods as Json[]).find((p) => p.id === pod.id);
  t.match(inV2, { name: "js-pod", image: "runpod/pytorch:2.4.0", disk: 30, args: "python -m http.server 8888", mounts: { persistent: { size: 25, path: "/data" } }, gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 }, cloud: "SECURE" }, "it appears in GET /v2/pods");
  t.same((await v2(`/v2/pods/${pod.id}`, BETA)).status, 404, "another account does not see it");

  await advance(120_000);
  const got = await fetch(`${base}/pods/${pod.id}`, { headers: { Authorization: `Bearer ${KEY}` } });
  const running = (await got.json()) as Json;
  t.equal((await v2(`/v2/pods/${pod.id}`)).body!.status, "RUNNING");
  t.match(running, { desiredStatus: "RUNNING", lastStartedAt: /^\d{4}-/, machine: { dataCenterId: String } });
  t.same(v1PodErrors(running), []);
  const all = (await (await fetch(`${base}/pods`, { headers: { Authorization: `Bearer ${KEY}` } })).json()) as Json[];
  t.ok(Array.isArray(all) && all.some((p) => p.id === pod.id), "GET /v1/pods: an array of v1 pods");
  t.same(all.length, (listed.body!.pods as Json[]).length, "the same pods as GET /v2/pods");

  const stopped = await pod.stop();
  t.equal(stopped.status, 200, "the options as the stop body are ignored");
  t.match(await stopped.json(), { id: pod.id, desiredStatus: "EXITED" });
  t.equal((await v2(`/v2/pods/${pod.id}`)).body!.status, "EXITED");
  const started = await fetch(`${base}/pods/${pod.id}/start`, { method: "POST", headers: { Authorization: `Bearer ${KEY}` } });
  t.equal(started.status, 200);
  t.match(await started.json(), { desiredStatus: "RUNNING" });
  t.equal((await fetch(`${base}/pods/${pod.id}/stop`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${BETA}` }, body: "{}" })).status, 404, "another account's pod: as unknown");

  const deleted = await pod.delete();
  t.equal(deleted.status, 204);
  t.match((await v2(`/v2/pods/${pod.id}`)).body, { status: "TERMINATED" }, "terminated in the model");
  t.equal(model!.status, "TERMINATED");
  t.equal((await pod.delete()).status, 204, "DELETE again: the state asked for holds");
  t.equal((await fetch(`${base}/pods/nope`, { method: "DELETE", headers: { Authorization: `Bearer ${KEY}` } })).status, 404);
});

t.test("a CPU pod, a network volume, a template, locked", async (t) => {
  const emu = await startEmulator({ clock: "manual", seed: 5, logger: false });
  t.teardown(() => emu.close());
  const base = `${emu.baseUrl}/v1`;
  const post = async (path: string, body: unknown, key = KEY) => {
    const res = await fetch(`${emu.baseUrl}${path}`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const cpu = await post("/v1/pods", { computeType: "CPU", cpuFlavorIds: ["cpu3c"], vcpuCount: 4, imageName: "ubuntu:22.04", name: "cpu" });
  t.equal(cpu.status, 201, JSON.stringify(cpu.body));
  t.match(cpu.body, { cpuFlavorId: "cpu3c", vcpuCount: 4, memoryInGb: Number, gpu: null, gpuCount: 0, volumeInGb: 0 }, "a CPU pod gets no pod volume by default");

  const volume = await post("/v2/networkvolumes", { name: "data", size: 50, dataCenterId: "US-TX-3" });
  t.equal(volume.status, 201);
  const withVolume = await post("/v1/pods", { imageName: "ubuntu:22.04", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], networkVolumeId: volume.body.id, volumeMountPath: "/workspace", locked: true });
  t.equal(withVolume.status, 201, JSON.stringify(withVolume.body));
  t.match(withVolume.body, { name: "my pod", networkVolumeId: volume.body.id, volumeInGb: 0, volumeMountPath: "/workspace", locked: true, machine: { dataCenterId: "US-TX-3" }, ports: ["8888/http", "22/tcp"] }, "the network volume replaces the pod volume; v1's defaults");
  const v2pod = (await (await fetch(`${emu.baseUrl}/v2/pods/${withVolume.body.id}`, { headers: { Authorization: `Bearer ${KEY}` } })).json()) as Json;
  t.match(v2pod, { locked: true, mounts: { network: [{ volumeId: volume.body.id, path: "/workspace" }] } });
  const lockedStop = await post(`/v1/pods/${withVolume.body.id}/stop`, {});
  t.equal(lockedStop.status, 409, "a locked pod refuses stop, as in v2");

  const template = await post("/v2/templates", { name: "tpl", image: "me/app:1", disk: 15, ports: ["7860/http"], env: { A: "1" } });
  t.equal(template.status, 201);
  const fromTemplate = await post("/v1/pods", { templateId: template.body.id, gpuTypeIds: ["NVIDIA GeForce RTX 4090"], env: { B: "2" } });
  t.equal(fromTemplate.status, 201, JSON.stringify(fromTemplate.body));
  t.match(fromTemplate.body, { image: "me/app:1", templateId: template.body.id, containerDiskInGb: 15, ports: ["7860/http"], env: { A: "1", B: "2" } }, "the template fills what the options leave out");
});

t.test("refusals: untranslatable options, schema failures, v2's own refusals, keys", async (t) => {
  const emu = await startEmulator({ clock: "manual", seed: 6, logger: false });
  t.teardown(() => emu.close());
  const create = async (body: unknown, key = KEY) => {
    const res = await fetch(`${emu.baseUrl}/v1/pods`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
    return { status: res.status, type: res.headers.get("content-type"), body: (await res.json()) as Json };
  };
  const ok = { imageName: "ubuntu:22.04", gpuTypeIds: ["NVIDIA GeForce RTX 4090"] };

  const untranslatable = await create({ ...ok, interruptible: true, minRAMPerGPU: 16, dockerEntrypoint: ["bash"], countryCodes: ["US"], allowedCudaVersions: ["12.4"] });
  t.equal(untranslatable.status, 400);
  t.equal(untranslatable.type, "application/problem+json");
  t.match(untranslatable.body.detail, /cannot be translated.*allowedCudaVersions, countryCodes, dockerEntrypoint, interruptible, minRAMPerGPU/);
  t.equal(untranslatable.body.errors.length, 5, "each named with its reason");
  t.match((await create({ imageName: "ubuntu:22.04" })).body, { status: 400, detail: /gpuTypeIds/ }, "a GPU pod needs a GPU type");
  t.match((await create({ imageName: "ubuntu:22.04", computeType: "CPU" })).body, { status: 400, detail: /cpuFlavorIds/ });
  t.equal((await create({ ...ok, dockerEntrypoint: [], countryCodes: [], interruptible: false })).status, 201, "their neutral values translate");

  const schema = await create({ ...ok, gpuTypeIds: "NVIDIA GeForce RTX 4090", imagename: "x", cloudType: "MOON" });
  t.equal(schema.status, 422);
  t.match([...schema.body.errors].sort(), [/^\/cloudType: /, /^\/gpuTypeIds: must be array/, /^\/imagename: is not an allowed property/], "every failure, at its v1 name");
  t.equal(schema.body.errors.length, 3);

  const badGpu = await create({ ...ok, gpuTypeIds: ["NVIDIA Nope"] });
  t.equal(badGpu.status, 400, JSON.stringify(badGpu.body));
  t.match(badGpu.body, { detail: /Nope/, v2Body: { gpu: { id: "NVIDIA Nope", count: 1 }, image: "ubuntu:22.04" }, tried: ["NVIDIA Nope"] }, "v2's refusal, with the body it was sent as");
  const noImage = await create({ gpuTypeIds: ["NVIDIA GeForce RTX 4090"] });
  t.equal(noImage.status, 422);
  t.match(noImage.body, { errors: [/image/], v2Body: { name: "my pod" } });
  const nowhere = await create({ ...ok, gpuTypeIds: ["NVIDIA GeForce RTX 3080"], cloudType: "SECURE" });
  t.equal(nowhere.status, 409);
  t.match(nowhere.body, { tried: ["NVIDIA GeForce RTX 3080"] }, "no capacity for any of them");

  t.equal((await create(ok, READ)).status, 403, "a read-only key creates nothing");
  t.equal((await create(ok, "nope")).status, 401);
  const filtered = await fetch(`${emu.baseUrl}/v1/pods?desiredStatus=RUNNING`, { headers: { Authorization: `Bearer ${KEY}` } });
  t.equal(filtered.status, 400, "list filters are refused, not ignored");
});

t.test("the OpenAPI document lists the v1 pod operations with their schemas", async (t) => {
  const doc = openApiDocument("test");
  t.same(Object.keys(doc.paths["/v1/pods"]!).sort(), ["get", "post"]);
  t.same((doc.paths["/v1/pods"]!["post"] as Json).requestBody.content["application/json"].schema, { $ref: "#/components/schemas/V1PodOptions" });
  t.same(Object.keys(doc.paths["/v1/pods/{podId}"]!).sort(), ["delete", "get"]);
  for (const a of ["stop", "start", "restart"]) t.ok(doc.paths[`/v1/pods/{podId}/${a}`]?.["post"], a);
  t.ok(doc.components.schemas["V1Pod"] && doc.components.schemas["V1PodList"]);
  // The conformance suite's discovery reads this document: the spec's v2 pod routes stay its facts,
  // and the v1 groups join the REST groups no job endpoint id may shadow.
  const facts = readOpenApi(doc, "/openapi.json")!;
  t.match(facts.values, { podActionPath: "/v2/pods/{podId}/action", podDeletePath: "/v2/pods/{podId}", podListPath: "/v2/pods" });
  t.ok(facts.values.restSegments!.includes("pods") && facts.values.restSegments!.includes("pod"), "pods (v1 pods) and pod (host-API logs)");
});
