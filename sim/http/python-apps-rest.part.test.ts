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
  t.same(current.body.cpu, [], "a GPU endpoint (an empty cpu, falsy in Python): the client keeps the REST path");
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

t.test("save_endpoint over REST with cpu (a CPU endpoint) and type LOAD_BALANCER (no job routes)", async (t) => {
  const emu = await startEmulator({ clock: "manual", logger: false });
  t.teardown(() => emu.close());
  const rest = (method: string, path: string, body?: unknown) => call(emu.baseUrl, method, path, { headers, ...(body !== undefined ? { body } : {}) });
  const advance = (ms: number) => call(emu.baseUrl, "POST", "/_sim/clock/advance", { headers, body: { ms } });

  // _rest_endpoint_input of {"name", "template": {...}, "instanceIds": ["cpu3c-2-4"], "workersMin": 1, ...}:
  // body["cpu"] = [_cpu_config(instance)] = [{"id": "cpu3c", "vcpuCount": 2}], and no "gpu".
  const common = {
    image: "python:3.11-slim", disk: 10, args: "", env: {}, ports: ["8000/http"],
    workers: { min: 1, max: 2, idleTimeout: 5 }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  };
  const made = await rest("POST", "/v2/serverless", { ...common, name: "cpu-worker", type: "QUEUE", cpu: [{ id: "cpu3c", vcpuCount: 2 }] });
  t.equal(made.status, 201, JSON.stringify(made.body));
  t.match(made.body, { type: "QUEUE", cpu: [{ id: "cpu3c", vcpuCount: 2 }], gpu: null, gpuCount: 0, gpuTypeIds: [] });
  const id = made.body.id as string;
  await advance(60_000);
  const workers = (await rest("GET", `/v2/serverless/${id}/workers`)).body.workers as { gpuTypeId: string; gpuCount: number; status: string }[];
  t.match(workers, [{ gpuTypeId: "cpu3c-2-4", gpuCount: 0, status: "IDLE" }], "a standing CPU worker");
  const bill = ((await rest("GET", "/v2/billing/endpoints")).body.records as { endpointId: string }[]).find((r) => r.endpointId === id);
  t.same(bill, { endpointId: id, name: "cpu-worker", gpuTypeId: "cpu3c-2-4", gpuCount: 0, billedWorkers: 1, pricePerGpuHour: 0, costPerHour: 0.06 }, "billed at 2 vCPUs of cpu3c");
  // save_endpoint adopting it: the client keeps REST because current["cpu"] is non-empty.
  const current = await rest("GET", `/v2/serverless/${id}`);
  t.ok(current.body.cpu.length > 0);
  const patched = await rest("PATCH", `/v2/serverless/${id}`, { cpu: [{ id: "cpu3c", vcpuCount: 4 }] });
  t.match(patched, { status: 200, body: { cpu: [{ id: "cpu3c", vcpuCount: 4 }] } });
  const job = await call(emu.serverlessUrl, "POST", `/v2/${id}/run`, { headers, body: { input: { op: "echo" } } });
  t.equal(job.status, 200);
  await advance(60_000);
  t.match(await call(emu.serverlessUrl, "GET", `/v2/${id}/status/${job.body.id}`, { headers }), { status: 200, body: { status: "COMPLETED" } }, "a CPU worker ran it");
  t.equal((await rest("POST", "/v2/serverless", { ...common, name: "both", cpu: [{ id: "cpu3c", vcpuCount: 2 }], gpu: { pools: ["ADA_24"] } })).status, 400, "cpu and gpu together");
  t.equal((await rest("POST", "/v2/serverless", { ...common, name: "odd", cpu: [{ id: "cpu3c", vcpuCount: 3 }] })).status, 400, "no such size");
  t.equal((await rest("POST", "/v2/serverless", { ...common, name: "none" })).status, 400, "neither cpu nor gpu");

  // A load-balanced endpoint: a record with its workers, but no job queue.
  const lb = await rest("POST", "/v2/serverless", { ...common, name: "api", type: "LOAD_BALANCER", gpu: { pools: ["ADA_24"] }, workers: { min: 0, max: 2 } });
  t.equal(lb.status, 201, JSON.stringify(lb.body));
  t.match(lb.body, { type: "LOAD_BALANCER", cpu: [] });
  const run = await call(emu.serverlessUrl, "POST", `/v2/${lb.body.id}/run`, { headers, body: { input: {} } });
  t.equal(run.status, 404);
  t.match(run.body.detail, /load-balanced: it has no job queue/);
  t.match(await call(emu.serverlessUrl, "GET", `/v2/${lb.body.id}/health`, { headers }), { status: 200, body: { jobs: { inQueue: 0 } } });
  const beta = { ...headers, authorization: "Bearer cpsim_beta_full_91d4e6a2c7b3f058" };
  const foreign = await call(emu.serverlessUrl, "POST", `/v2/${lb.body.id}/run`, { headers: beta, body: { input: {} } });
  t.equal(foreign.status, 404);
  t.notMatch(foreign.body.detail, /load-balanced/, "another account learns nothing of it");
  t.equal((await rest("PATCH", `/v2/serverless/${lb.body.id}`, { type: "QUEUE" })).status, 400, "the type is fixed at creation");
  t.equal((await rest("DELETE", `/v2/serverless/${lb.body.id}`)).status, 204);
});

t.test("save_endpoint over REST with the newest client's defaults: every pool, every data center, a CUDA floor", async (t) => {
  const emu = await startEmulator({ clock: "manual", logger: false });
  t.teardown(() => emu.close());
  const rest = (method: string, path: string, body?: unknown) => call(emu.baseUrl, method, path, { headers, ...(body !== undefined ? { body } : {}) });
  // _rest_endpoint_input of a dev payload with gpuIds gpu_ids_value(None) (every pool), locations every DataCenter
  // (runpod/apps/datacenter.py) and minCudaVersion: gpu.pools, dataCenterIds, gpu.minCudaVersion.
  const pools = ["ADA_24", "ADA_32_PRO", "ADA_48_PRO", "ADA_80_PRO", "AMPERE_16", "AMPERE_24", "AMPERE_48", "AMPERE_80", "HOPPER_141", "BLACKWELL_96", "BLACKWELL_180"];
  const dataCenterIds = ["US-CA-2", "US-IL-1", "US-KS-2", "US-MO-1", "US-MO-2", "US-NC-2", "US-NE-1", "US-WA-1", "EU-CZ-1", "EU-RO-1", "EUR-NO-1"];
  const body = {
    image: "runpod/queue:py3.12-latest", disk: 10, args: "", env: { RUNPOD_DEV_GENERATION: "1" }, name: "dev-shop-chat", flashboot: "FLASHBOOT", type: "QUEUE",
    dataCenterIds, gpu: { pools, excludedTypes: [], count: 1, minCudaVersion: "12.8" }, workers: { min: 0, max: 3, idleTimeout: 60 }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  };
  const made = await rest("POST", "/v2/serverless", body);
  t.equal(made.status, 201, JSON.stringify(made.body));
  const held = ((await rest("GET", "/v2/catalog/datacenters")).body.dataCenters as { id: string }[]).map((d) => d.id);
  t.same(made.body.dataCenterIds, dataCenterIds.filter((d) => held.includes(d)), "the platform's data centers this catalog lacks are left out");
  t.same(made.body.gpu.pools, pools);
  t.equal((await rest("POST", "/v2/serverless", { ...body, name: "typo", dataCenterIds: ["EU-RO-1", "EU-RO-9"] })).status, 400, "an id nobody knows");
});
