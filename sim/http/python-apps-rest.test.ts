// The newest apps client's REST calls (runpod/apps/api.py's AppsApiClient once it moved resource
// operations to REST: run_rest_request_async with json= bodies and params= queries), over HTTP:
// save_endpoint's REST form (POST and PATCH /v2/serverless with the endpoint's own template
// inline, `timeout`, `flashboot`, `type`), network volumes at /v2/network-volumes with
// `dataCenter`, registry credentials, endpoint list,
// workers and delete at /v2/serverless, task-pod termination, and GPU and CPU stock in one data
// center through `include=AVAILABILITY` (the client reads dataCenters[].availability, NONE when
// its data center is not listed).
import t from "tap";
import { startEmulator } from "./index.ts";
import { call } from "./test-helpers.ts";

const KEY = "cpsim_alpha_full_7f3a9c2e41b6d805";
const headers = { accept: "application/json", "content-type": "application/json", authorization: `Bearer ${KEY}` };

/** AppsApiClient._stock_in_datacenter. */
const stockIn = (data: { dataCenters?: { id: string; availability: string }[] }, dc: string): string => data.dataCenters?.find((d) => d.id === dc)?.availability ?? "NONE";

t.test("the REST-era apps client's resource, stock and cleanup calls", async (t) => {
  const emu = await startEmulator({ clock: "manual", logger: false });
  t.teardown(() => emu.close());
  const rest = (method: string, path: string, body?: unknown) => call(emu.baseUrl, method, path, { headers, ...(body !== undefined ? { body } : {}) });

  // list_network_volumes / create_network_volume.
  const before = (await rest("GET", "/v2/network-volumes")).body.networkVolumes as { id: string }[];
  t.ok(before.length > 0);
  const made = await rest("POST", "/v2/network-volumes", { name: "flash-cache", size: 20, dataCenter: "EU-RO-1" });
  t.equal(made.status, 201, JSON.stringify(made.body));
  t.match(made.body, { id: String, name: "flash-cache", size: 20, dataCenterId: "EU-RO-1" });
  t.ok(((await rest("GET", "/v2/network-volumes")).body.networkVolumes as { id: string }[]).some((v) => v.id === made.body.id));
  t.match(await rest("GET", `/v2/network-volumes/${made.body.id}`), { status: 200, body: { id: made.body.id } });
  t.equal((await rest("POST", "/v2/network-volumes", { name: "x", size: 20, dataCenterId: "EU-RO-1" })).status, 400, "this path names it dataCenter");
  t.equal((await rest("POST", "/v2/network-volumes", { name: "x", size: 20, dataCenter: "NOWHERE-1" })).status, 400);
  t.equal((await rest("DELETE", `/v2/network-volumes/${made.body.id}`)).status, 204);

  // list_registry_auths / create_registry_auth / delete_registry_auth (returns True after the DELETE).
  const reg = await rest("POST", "/v2/registries", { name: "ghcr-flash", username: "me", password: "tok" });
  t.equal(reg.status, 201);
  t.ok(((await rest("GET", "/v2/registries")).body.registries as { id: string }[]).some((r) => r.id === reg.body.id));
  t.equal((await rest("DELETE", `/v2/registries/${reg.body.id}`)).status, 204);

  // list_my_endpoints, endpoint_workers, delete_endpoint.
  const eps = (await rest("GET", "/v2/serverless")).body.endpoints as { id: string }[];
  t.ok(eps.some((e) => e.id === "alpha-echo"));
  t.match(await rest("GET", "/v2/serverless/alpha-echo/workers"), { status: 200, body: { workers: Array } });
  t.equal((await rest("DELETE", "/v2/serverless/alpha-echo")).status, 204);
  t.notOk(((await rest("GET", "/v2/serverless")).body.endpoints as { id: string }[]).some((e) => e.id === "alpha-echo"));

  // gpu_stock_status: secure cloud, one GPU, serverless; more GPUs than a host has is NONE everywhere.
  const gpu = encodeURIComponent("NVIDIA GeForce RTX 4090");
  const one = (await rest("GET", `/v2/catalog/gpus/${gpu}?include=AVAILABILITY&product=SERVERLESS&count=1&cloud=SECURE`)).body;
  t.match(one, { id: "NVIDIA GeForce RTX 4090", dataCenters: Array });
  t.ok(one.dataCenters.length > 0, "in stock somewhere");
  for (const d of one.dataCenters) t.match(d, { id: String, availability: /^(HIGH|MEDIUM|LOW)$/ });
  t.equal(stockIn(one, "NOWHERE-1"), "NONE");
  const many = (await rest("GET", `/v2/catalog/gpus/${gpu}?include=AVAILABILITY&product=POD&count=64&cloud=SECURE`)).body;
  t.same(many.dataCenters, [], "no host has 64 free");
  t.equal((await rest("GET", `/v2/catalog/gpus/${gpu}?include=AVAILABILITY&count=0`)).status, 400);
  t.notOk("dataCenters" in (await rest("GET", `/v2/catalog/gpus/${gpu}`)).body, "only with include=AVAILABILITY");

  // cpu_stock_status: the flavor at a power-of-two vCPU count of at least two.
  const cpus = (await rest("GET", "/v2/catalog/cpus")).body.cpus as { id: string; vcpu: { allowed: number[] }; dataCenters: string[] }[];
  const flavor = cpus.find((c) => c.vcpu.allowed.includes(2))!;
  const cpu = (await rest("GET", `/v2/catalog/cpus/${flavor.id}?include=AVAILABILITY&product=SERVERLESS&vcpuCount=2`)).body;
  t.match(cpu, { id: flavor.id, dataCenters: Array });
  for (const d of cpu.dataCenters) {
    t.ok(flavor.dataCenters.includes(d.id), "one of the flavor's data centers");
    t.match(d.availability, /^(HIGH|MEDIUM|LOW)$/);
  }
  t.same((await rest("GET", `/v2/catalog/cpus/${flavor.id}`)).body.dataCenters, flavor.dataCenters, "without include, the list's entry");
  t.equal((await rest("GET", `/v2/catalog/cpus/${flavor.id}?include=AVAILABILITY&vcpuCount=3`)).status, 400);
  t.equal((await rest("GET", "/v2/catalog/cpus/nope")).status, 404);
});

t.test("save_endpoint over REST: create with an inline template, adopt by id (GET, then PATCH), delete takes the template along", async (t) => {
  const emu = await startEmulator({ clock: "manual", logger: false });
  t.teardown(() => emu.close());
  const rest = (method: string, path: string, body?: unknown) => call(emu.baseUrl, method, path, { headers, ...(body !== undefined ? { body } : {}) });
  const templates = async () => ((await rest("GET", "/v2/templates")).body.templates as { id: string; name: string; image: string }[]);

  // _rest_endpoint_input of {"name", "template": {imageName, containerDiskInGb, dockerArgs, env, ports}, "gpuIds", "gpuCount",
  // "workersMin", "workersMax", "idleTimeout", "scalerType", "scalerValue", "executionTimeoutMs", "flashBootType", "locations"}.
  const body = {
    image: "python:3.11-slim", disk: 10, args: "python -u handler.py", env: { MODEL: "tiny" }, ports: ["8000/http"],
    name: "dev-shop", timeout: 600000, flashboot: "FLASHBOOT", type: "QUEUE", dataCenterIds: ["EU-RO-1"],
    gpu: { pools: ["AMPERE_16"], excludedTypes: [], count: 1 }, workers: { min: 0, max: 3, idleTimeout: 5 }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  };
  const made = await rest("POST", "/v2/serverless", body);
  t.equal(made.status, 201, JSON.stringify(made.body));
  t.match(made.body, { id: String, name: "dev-shop", type: "QUEUE", executionTimeoutMs: 600000, templateId: String });
  const own = (await templates()).find((x) => x.id === made.body.templateId);
  t.match(own, { name: "dev-shop (endpoint template)", image: "python:3.11-slim" }, "the endpoint's own template");
  const id = made.body.id as string;

  // A job runs on it at once.
  const job = await call(emu.serverlessUrl, "POST", `/v2/${id}/run`, { headers, body: { input: { op: "echo" } } });
  t.equal(job.status, 200);

  // save_endpoint({"id", "template": {"imageName"}, "workersMax"}): GET the current record, then PATCH.
  const current = await rest("GET", `/v2/serverless/${id}`);
  t.match(current.body, { type: "QUEUE" });
  t.notOk(current.body.cpu, "a GPU endpoint: the client keeps the REST path");
  const patched = await rest("PATCH", `/v2/serverless/${id}`, { image: "python:3.12-slim", workers: { max: 5 } });
  t.equal(patched.status, 200, JSON.stringify(patched.body));
  t.equal(patched.body.templateId, made.body.templateId, "the same template, changed");
  t.equal((await templates()).find((x) => x.id === made.body.templateId)?.image, "python:3.12-slim");

  t.equal((await rest("POST", "/v2/serverless", { ...body, name: "x", templateId: made.body.templateId })).status, 400, "templateId and inline fields together");
  t.equal((await rest("POST", "/v2/serverless", { ...body, name: "y", executionTimeoutMs: 5000 })).status, 400, "timeout and executionTimeoutMs disagree");
  const { image: _image, ...noTemplate } = body;
  t.equal((await rest("POST", "/v2/serverless", { ...noTemplate, name: "z", disk: undefined, args: undefined, env: undefined, ports: undefined })).status, 400, "neither templateId nor image");
  const before = (await templates()).length;
  t.equal((await rest("POST", "/v2/serverless", { ...body, name: "bad-pool", gpu: { pools: ["NO_SUCH_POOL"] } })).status, 400);
  t.equal((await templates()).length, before, "a refused endpoint leaves no template behind");

  t.equal((await rest("DELETE", `/v2/serverless/${id}`)).status, 204);
  t.notOk((await templates()).some((x) => x.id === made.body.templateId), "its template goes with it");
});
