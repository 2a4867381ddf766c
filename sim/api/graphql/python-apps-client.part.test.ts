// The newest official Python client's apps ("Flash") calls (runpod/apps/api.py's AppsApiClient),
// each with its document exactly as runpod/api/{queries,mutations}/apps.py define it and the
// variables the client builds: secrets, flash apps, environments, builds, dev-session endpoints
// with a nested template, GPU and CPU stock in one data center, task pods, volumes, registry
// credentials and the browser-login request. Answers are checked against what the client reads.
import t from "tap";
import { minutes, seconds } from "../../core/index.ts";
import * as D from "./python-apps-documents.ts";
import { ALPHA, ALPHA_READ, BETA, RTX4090, gql, newPlatform } from "./test-support.ts";
import type { Platform } from "../../domain/platform.ts";
import type { Principal } from "../op-context.ts";

/** AppsApiClient._execute: the answer's `data`, or throws QueryError(errors[0].message). */
function execute(platform: Platform, who: Principal, query: string, variables?: Record<string, unknown>): Record<string, any> {
  // run_graphql_query_async's _build_payload leaves variables out when empty.
  const answer = gql(platform, who, query, variables && Object.keys(variables).length > 0 ? variables : undefined);
  if (answer.body.errors) throw new Error(answer.body.errors[0]!.message);
  if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
  return answer.body.data!;
}

t.test("secrets: create_secret, list_secrets, delete_secret", async (t) => {
  const platform = newPlatform();
  const made = execute(platform, ALPHA, D.MUTATION_CREATE_SECRET, { input: { name: "HF_TOKEN", value: "hf_s3cret", description: "hub" } }).secretCreate;
  t.same(Object.keys(made), ["id", "name"]);
  t.match(made, { id: /^[a-z0-9]{10}$/, name: "HF_TOKEN" });
  const listed = execute(platform, ALPHA, D.QUERY_SECRETS).myself.secrets;
  t.same(listed.map((s: any) => Object.keys(s)), [["id", "name", "description", "createdAt"]]);
  t.match(listed[0], { id: made.id, name: "HF_TOKEN", description: "hub", createdAt: /^\d{4}-\d\d-\d\dT/ });
  t.notMatch(JSON.stringify(listed), /hf_s3cret/, "a secret's value is never shown");
  t.same(execute(platform, BETA, D.QUERY_SECRETS).myself.secrets, [], "another account's secrets are its own");
  t.throws(() => execute(platform, ALPHA, D.MUTATION_CREATE_SECRET, { input: { name: "HF_TOKEN", value: "x", description: "" } }), /already have a secret/);
  t.throws(() => execute(platform, BETA, D.MUTATION_DELETE_SECRET, { id: made.id }), /not found/);
  t.equal(gql(platform, ALPHA_READ, D.MUTATION_DELETE_SECRET, { id: made.id }).status, 403, "a read-only key changes nothing");
  t.same(execute(platform, ALPHA, D.MUTATION_DELETE_SECRET, { id: made.id }), { secretDelete: true }, "bool(data.get('secretDelete')) is True");
  t.same(execute(platform, ALPHA, D.QUERY_SECRETS).myself.secrets, []);
});

t.test("apps: get_app_by_name, create_app, create_environment, list_apps, builds deployed to an environment, delete", async (t) => {
  const platform = newPlatform();
  // get_app_by_name answers None when the error says "not found".
  t.throws(() => execute(platform, ALPHA, D.QUERY_FLASH_APP_BY_NAME, { flashAppName: "shop" }), /not found/);
  const app = execute(platform, ALPHA, D.MUTATION_CREATE_FLASH_APP, { input: { name: "shop" } }).createFlashApp;
  t.same(Object.keys(app), ["id", "name"]);
  const env = execute(platform, ALPHA, D.MUTATION_CREATE_FLASH_ENVIRONMENT, { input: { flashAppId: app.id, name: "production" } }).createFlashEnvironment;
  t.same(Object.keys(env), ["id", "name"]);
  t.throws(() => execute(platform, BETA, D.MUTATION_CREATE_FLASH_ENVIRONMENT, { input: { flashAppId: app.id, name: "x" } }), /not found/, "another account's app");

  const byName = execute(platform, ALPHA, D.QUERY_FLASH_APP_BY_NAME, { flashAppName: "shop" }).flashAppByName;
  t.same(byName, { id: app.id, name: "shop", flashEnvironments: [{ id: env.id, name: "production", state: "PENDING", activeBuildId: null, endpoints: [] }] });
  t.throws(() => execute(platform, BETA, D.QUERY_FLASH_APP_BY_NAME, { flashAppName: "shop" }), /not found/);

  // flash deploy: prepare the upload, (the PUT), finalize into a build, deploy it.
  const upload = execute(platform, ALPHA, D.MUTATION_PREPARE_ARTIFACT_UPLOAD, { input: { flashAppId: app.id, tarballSize: 12345 } }).prepareFlashArtifactUpload;
  t.same(Object.keys(upload), ["uploadUrl", "objectKey", "expiresAt"]);
  t.equal(upload.uploadUrl, null, "a request without a Host header gets no upload URL (over HTTP: sim/http/flash-upload.part.test.ts)");
  t.throws(() => execute(platform, ALPHA, D.MUTATION_PREPARE_ARTIFACT_UPLOAD, { input: { flashAppId: app.id, tarballSize: 0 } }), /tarballSize/);
  const manifest = { version: "1.0", resources: { hello: { kind: "queue", name: "hello", gpuCount: 1, workersMin: 0, workersMax: 3, idleTimeout: 60 } } };
  const build = execute(platform, ALPHA, D.MUTATION_FINALIZE_ARTIFACT_UPLOAD, { input: { flashAppId: app.id, objectKey: upload.objectKey, manifest } }).finalizeFlashArtifactUpload;
  t.same(build, { id: build.id, manifest }, "the manifest comes back as sent (JSON)");
  t.throws(() => execute(platform, ALPHA, D.MUTATION_FINALIZE_ARTIFACT_UPLOAD, { input: { flashAppId: app.id, objectKey: upload.objectKey, manifest } }), /not found/, "an upload finalizes once");
  t.same(execute(platform, ALPHA, D.MUTATION_DEPLOY_BUILD, { input: { flashEnvironmentId: env.id, flashBuildId: build.id } }), { deployBuildToEnvironment: { id: env.id, name: "production" } });

  const envByName = execute(platform, ALPHA, D.QUERY_FLASH_ENVIRONMENT_BY_NAME, { input: { flashAppId: app.id, name: "production" } }).flashEnvironmentByName;
  t.match(envByName, { id: env.id, name: "production", state: "HEALTHY", activeBuildId: build.id, createdAt: String, endpoints: [], networkVolumes: [] });
  t.throws(() => execute(platform, ALPHA, D.QUERY_FLASH_ENVIRONMENT_BY_NAME, { input: { flashAppId: app.id, name: "staging" } }), /not found/);

  const apps = execute(platform, ALPHA, D.QUERY_FLASH_APPS).myself.flashApps;
  t.same(apps, [{ id: app.id, name: "shop", flashEnvironments: [{ id: env.id, name: "production", state: "HEALTHY", createdAt: envByName.createdAt, activeBuildId: build.id }], flashBuilds: [{ id: build.id, createdAt: apps[0].flashBuilds[0].createdAt }] }]);
  t.same(execute(platform, BETA, D.QUERY_FLASH_APPS).myself.flashApps, []);

  t.same(execute(platform, ALPHA, D.MUTATION_DELETE_FLASH_ENVIRONMENT, { flashEnvironmentId: env.id }), { deleteFlashEnvironment: true });
  t.same(execute(platform, ALPHA, D.MUTATION_DELETE_FLASH_APP, { flashAppId: app.id }), { deleteFlashApp: true });
  t.same(execute(platform, ALPHA, D.QUERY_FLASH_APPS).myself.flashApps, []);
  t.throws(() => execute(platform, ALPHA, D.MUTATION_DELETE_FLASH_APP, { flashAppId: app.id }), /not found/);
});

t.test("dev session: list_my_endpoints, save_endpoint with a nested template (create, adopt), delete_endpoint takes the template along", async (t) => {
  const platform = newPlatform();
  // dev.py's _endpoint_input for a GPU queue resource.
  const payload = (generation: number) => ({
    name: "dev-shop-hello",
    workersMin: 0,
    workersMax: 3,
    idleTimeout: 60,
    scalerType: "QUEUE_DELAY",
    scalerValue: 4,
    flashBootType: "FLASHBOOT",
    template: {
      name: "dev-shop-hello-template",
      imageName: "runpod/flash:py3.11",
      containerDiskInGb: 30,
      dockerArgs: "",
      env: [{ key: "RUNPOD_DEV_GENERATION", value: String(generation) }, { key: "RUNPOD_DEV_APP", value: "shop" }],
    },
    gpuIds: "ADA_24",
    gpuCount: 1,
  });
  const before = execute(platform, ALPHA, D.QUERY_MY_ENDPOINTS).myself.endpoints as any[];
  t.ok(before.every((e) => Object.keys(e).join() === "id,name,templateId,workersMin,workersMax,template"));
  const saved = execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: payload(1) }).saveEndpoint;
  t.same(Object.keys(saved), ["id", "name", "templateId", "gpuIds", "instanceIds", "workersMin", "workersMax", "idleTimeout", "aiKey"]);
  t.match(saved, { id: /^[a-z0-9]{14}$/, name: "dev-shop-hello", templateId: /^[a-z0-9]{10}$/, gpuIds: "ADA_24", instanceIds: null, workersMin: 0, workersMax: 3, idleTimeout: 60, aiKey: null });
  const row = (execute(platform, ALPHA, D.QUERY_MY_ENDPOINTS).myself.endpoints as any[]).find((e) => e.id === saved.id);
  t.same(row.template, { env: [{ key: "RUNPOD_DEV_GENERATION", value: "1" }, { key: "RUNPOD_DEV_APP", value: "shop" }] });

  // The endpoint runs jobs at once.
  const job = platform.serverless.submit({ endpointId: saved.id, accountId: "acct-alpha", input: { op: "echo", n: 1 } }) as any;
  platform.advanceTo(platform.now + minutes(1));
  t.match(platform.serverless.status(saved.id, "acct-alpha", job.jobId), { ok: true, job: { status: "COMPLETED" } });

  // Adopt/refresh: the same payload with the id and a bumped generation updates the same template.
  const adopted = execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: { ...payload(2), id: saved.id } }).saveEndpoint;
  t.equal(adopted.id, saved.id);
  t.equal(adopted.templateId, saved.templateId, "the bound template is changed in place");
  t.same(platform.resources.get("templates", saved.templateId)!.env, { RUNPOD_DEV_GENERATION: "2", RUNPOD_DEV_APP: "shop" });
  t.throws(() => execute(platform, BETA, D.MUTATION_SAVE_ENDPOINT, { input: { ...payload(3), id: saved.id } }), /no serverless endpoint/);

  // What the input gets wrong is refused by name; nothing is left behind.
  const templatesBefore = platform.catalog.templates.length;
  t.throws(() => execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: { ...payload(1), name: "dev-shop-cpu", template: { ...payload(1).template, name: "dev-shop-cpu-template" }, gpuIds: undefined, gpuCount: undefined, instanceIds: ["cpu3c-3-6"] } }), /no 3-vCPU size/);
  t.throws(() => execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: { ...payload(1), name: "dev-shop-cpu", template: { ...payload(1).template, name: "dev-shop-cpu-template" }, instanceIds: ["cpu3c-2-4"] } }), /not both/, "CPU sizes and GPU pools together");
  t.throws(() => execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: { ...payload(1), name: "dev-shop-api", template: { ...payload(1).template, name: "dev-shop-api-template" }, type: "XB" } }), /type "XB"/);
  t.throws(() => execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: { ...payload(1), name: "dev-shop-bad", template: { ...payload(1).template, name: "dev-shop-bad-template" }, gpuIds: "NO_SUCH_POOL" } }));
  t.equal(platform.catalog.templates.length, templatesBefore, "a refused endpoint's nested template is removed");

  t.same(execute(platform, ALPHA, D.MUTATION_DELETE_ENDPOINT, { id: saved.id }), { deleteEndpoint: true });
  t.equal(platform.resources.get("endpoints", saved.id), undefined);
  t.equal(platform.resources.get("templates", saved.templateId), undefined, "the nested template cascades");
});

t.test("gpu_stock_status and cpu_stock_status in one data center", async (t) => {
  const platform = newPlatform();
  for (const dc of ["US-TX-3", "EU-RO-1", "NOWHERE"]) {
    const gpu = execute(platform, ALPHA, D.QUERY_GPU_STOCK, {
      gpuTypesInput: { ids: [RTX4090] },
      lowestPriceInput: { dataCenterId: dc, gpuCount: 1, secureCloud: true, includeAiApi: true },
    });
    t.same(gpu, { gpuTypes: [{ lowestPrice: { stockStatus: platform.gpuStock.stockStatus(RTX4090, { dataCenterId: dc, gpuCount: 1, cloud: "SECURE" }) } }] }, dc);
    const cpu = execute(platform, ALPHA, D.QUERY_CPU_STOCK, { cpuFlavorInput: { id: "cpu3c" }, specificsInput: { dataCenterId: dc, instanceId: "cpu3c-2-4" } });
    t.same(cpu, { cpuFlavors: [{ specifics: { stockStatus: platform.cpuStock.stockStatus("cpu3c", { dataCenterId: dc, vcpuCount: 2 }) } }] }, dc);
  }
  t.not(
    execute(platform, ALPHA, D.QUERY_GPU_STOCK, { gpuTypesInput: { ids: [RTX4090] }, lowestPriceInput: { dataCenterId: "NOWHERE", gpuCount: 1, secureCloud: true, includeAiApi: false } }).gpuTypes[0].lowestPrice.stockStatus,
    execute(platform, ALPHA, D.QUERY_GPU_STOCK, { gpuTypesInput: { ids: [RTX4090] }, lowestPriceInput: { gpuCount: 1, secureCloud: true } }).gpuTypes[0].lowestPrice.stockStatus,
    "the data center scopes the stock",
  );
  // The REST-era client's GraphQL fallback (sizes REST cannot ask for) adds isSls to both inputs.
  t.same(
    execute(platform, ALPHA, D.QUERY_CPU_STOCK, { cpuFlavorInput: { id: "cpu3c", isSls: true }, specificsInput: { dataCenterId: "EU-RO-1", instanceId: "cpu3c-2-4", isSls: true } }),
    execute(platform, ALPHA, D.QUERY_CPU_STOCK, { cpuFlavorInput: { id: "cpu3c" }, specificsInput: { dataCenterId: "EU-RO-1", instanceId: "cpu3c-2-4" } }),
    "isSls is accepted and changes nothing",
  );
  t.same(execute(platform, ALPHA, D.QUERY_CPU_STOCK, { cpuFlavorInput: { id: "nope" }, specificsInput: {} }), { cpuFlavors: [] }, "cpu_stock_status reads None");
  t.throws(() => execute(platform, ALPHA, D.QUERY_CPU_STOCK, { cpuFlavorInput: { id: "cpu3c" }, specificsInput: { instanceId: "cpu3c-3-6" } }), /not a size/);
});

t.test("deploy_task_pod (GPU and CPU) and terminate_pod with variables", async (t) => {
  const platform = newPlatform();
  const gpu = execute(platform, ALPHA, D.MUTATION_DEPLOY_POD, { input: { name: "task-gpu", imageName: "runpod/flash:py3.11", gpuTypeId: RTX4090, gpuCount: 1, cloudType: "SECURE", containerDiskInGb: 30, env: [{ key: "A", value: "1" }] } }).podFindAndDeployOnDemand;
  t.same(Object.keys(gpu), ["id", "desiredStatus"]);
  t.equal(gpu.desiredStatus, "RUNNING");
  // deploy_task_pod turns instanceIds into one instanceId for deployCpuPod.
  const cpu = execute(platform, ALPHA, D.MUTATION_DEPLOY_CPU_POD, { input: { name: "task-cpu", imageName: "runpod/flash-cpu:py3.11", instanceId: "cpu3c-2-4", containerDiskInGb: 10 } }).deployCpuPod;
  t.same(Object.keys(cpu), ["id", "desiredStatus"]);
  t.ok(platform.pods.get("acct-alpha", cpu.id));
  t.throws(() => execute(platform, ALPHA, D.MUTATION_DEPLOY_POD, {}), /send input/, "the nullable input, left out, is refused");
  for (const id of [gpu.id, cpu.id]) t.same(execute(platform, ALPHA, D.MUTATION_TERMINATE_POD, { input: { podId: id } }), { podTerminate: null });
});

t.test("save_endpoint with instanceIds: a CPU endpoint whose workers take CPU stock and run jobs", async (t) => {
  const platform = newPlatform();
  // The Flash dev session's payload for a CPU resource: instanceIds instead of gpuIds/gpuCount.
  const input = {
    name: "dev-shop-cpu",
    workersMin: 1,
    workersMax: 2,
    idleTimeout: 60,
    scalerType: "QUEUE_DELAY",
    scalerValue: 4,
    template: { name: "dev-shop-cpu-template", imageName: "runpod/flash-cpu:py3.11", containerDiskInGb: 10, dockerArgs: "", env: [] },
    instanceIds: ["cpu3c-2-4", "cpu3g-2-8"],
  };
  const saved = execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input }).saveEndpoint;
  t.same(Object.keys(saved), ["id", "name", "templateId", "gpuIds", "instanceIds", "workersMin", "workersMax", "idleTimeout", "aiKey"]);
  t.match(saved, { id: /^[a-z0-9]{14}$/, gpuIds: "", instanceIds: ["cpu3c-2-4", "cpu3g-2-8"], workersMin: 1, workersMax: 2 });
  platform.advanceTo(platform.now + minutes(1));
  const w = platform.serverless.workersOf(platform.serverless.endpointIndex(saved.id));
  t.equal(w.length, 1, "the standing worker");
  t.match(w[0], { gpuTypeId: "cpu3c-2-4", gpuCount: 0 }, "a CPU worker: the instance it holds, no GPUs");
  t.ok([...platform.cpuStock.liveLeases()].some((l) => l.vcpuCount === 2 && l.memoryInGb === 4), "its vCPUs and memory are taken from CPU stock");
  const job = platform.serverless.submit({ endpointId: saved.id, accountId: "acct-alpha", input: { op: "echo", n: 1 } }) as any;
  platform.advanceTo(platform.now + minutes(1));
  t.match(platform.serverless.status(saved.id, "acct-alpha", job.jobId), { ok: true, job: { status: "COMPLETED" } });
  // Deleting the endpoint gives the CPU back.
  t.same(execute(platform, ALPHA, D.MUTATION_DELETE_ENDPOINT, { id: saved.id }), { deleteEndpoint: true });
  platform.advanceTo(platform.now + minutes(1));
  t.equal([...platform.cpuStock.liveLeases()].length, 0, "no CPU lease left");
});

t.test("save_endpoint with type LB: a load-balanced endpoint record whose job routes do not exist", async (t) => {
  const platform = newPlatform();
  const input = {
    name: "dev-shop-api",
    type: "LB",
    workersMin: 0,
    workersMax: 2,
    template: { name: "dev-shop-api-template", imageName: "runpod/flash-lb:py3.11", containerDiskInGb: 10, dockerArgs: "", env: [] },
    gpuIds: "ADA_24",
    gpuCount: 1,
  };
  const saved = execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input }).saveEndpoint;
  t.match(saved, { id: /^[a-z0-9]{14}$/, name: "dev-shop-api", gpuIds: "ADA_24", instanceIds: null });
  t.equal(gql(platform, ALPHA, "{ myself { endpoints { id type } } }").body.data!.myself.endpoints.find((e: any) => e.id === saved.id).type, "LB");
  t.throws(() => execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: { id: saved.id, type: "QB" } }), /fixed at creation/);
});

t.test("list/create network volumes, list/create/delete registry auths with variables", async (t) => {
  const platform = newPlatform();
  const vol = execute(platform, ALPHA, D.MUTATION_CREATE_NETWORK_VOLUME, { input: { name: "models", size: 50, dataCenterId: "EU-RO-1" } }).createNetworkVolume;
  t.match(vol, { id: /^[a-z0-9]{10}$/, name: "models", size: 50, dataCenterId: "EU-RO-1" });
  const vols = execute(platform, ALPHA, D.QUERY_NETWORK_VOLUMES).myself.networkVolumes as any[];
  t.same(vols.find((v) => v.id === vol.id), vol);
  t.ok(vols.every((v) => Object.keys(v).join() === "id,name,size,dataCenterId"));
  const reg = execute(platform, ALPHA, D.MUTATION_SAVE_REGISTRY_AUTH, { input: { name: "ghcr", username: "me", password: "tok" } }).saveRegistryAuth;
  t.same(Object.keys(reg), ["id", "name"]);
  t.ok((execute(platform, ALPHA, D.QUERY_REGISTRY_AUTHS).myself.containerRegistryCreds as any[]).some((r) => r.id === reg.id && r.name === "ghcr"));
  t.same(execute(platform, ALPHA, D.MUTATION_DELETE_REGISTRY_AUTH, { registryAuthId: reg.id }), { deleteRegistryAuth: true });
  t.notOk((execute(platform, ALPHA, D.QUERY_REGISTRY_AUTHS).myself.containerRegistryCreds as any[]).some((r) => r.id === reg.id));
});

t.test("create_auth_request and get_auth_request_status: pending, approved after 3 s (the key, once), then consumed; unread ones expire", async (t) => {
  const platform = newPlatform();
  const req = execute(platform, ALPHA, D.MUTATION_CREATE_FLASH_AUTH_REQUEST).createFlashAuthRequest;
  t.same(Object.keys(req), ["id", "status", "expiresAt"]);
  t.equal(req.status, "PENDING");
  t.same(execute(platform, ALPHA, D.QUERY_FLASH_AUTH_REQUEST_STATUS, { flashAuthRequestId: req.id }).flashAuthRequestStatus, { ...req, apiKey: null });
  platform.advanceTo(platform.now + seconds(3));
  // browser_login returns the key when status is APPROVED (or CONSUMED) and apiKey is set.
  t.same(execute(platform, ALPHA, D.QUERY_FLASH_AUTH_REQUEST_STATUS, { flashAuthRequestId: req.id }).flashAuthRequestStatus, { ...req, status: "APPROVED", apiKey: "cpsim_alpha_full_7f3a9c2e41b6d805" });
  t.same(execute(platform, ALPHA, D.QUERY_FLASH_AUTH_REQUEST_STATUS, { flashAuthRequestId: req.id }).flashAuthRequestStatus, { ...req, status: "CONSUMED", apiKey: null }, "the key is handed out once");
  // A request made with beta's key is approved for beta.
  const betaReq = execute(platform, BETA, D.MUTATION_CREATE_FLASH_AUTH_REQUEST).createFlashAuthRequest;
  platform.advanceTo(platform.now + seconds(3));
  t.match(execute(platform, BETA, D.QUERY_FLASH_AUTH_REQUEST_STATUS, { flashAuthRequestId: betaReq.id }).flashAuthRequestStatus, { status: "APPROVED", apiKey: "cpsim_beta_full_91d4e6a2c7b3f058" });
  // Nobody polls: ten minutes later it has expired.
  const late = execute(platform, ALPHA, D.MUTATION_CREATE_FLASH_AUTH_REQUEST).createFlashAuthRequest;
  platform.advanceTo(platform.now + minutes(11));
  t.match(execute(platform, ALPHA, D.QUERY_FLASH_AUTH_REQUEST_STATUS, { flashAuthRequestId: late.id }).flashAuthRequestStatus, { status: "EXPIRED", apiKey: null });
  t.throws(() => execute(platform, ALPHA, D.QUERY_FLASH_AUTH_REQUEST_STATUS, { flashAuthRequestId: "nope" }), /not found/);
});

t.test("same seed, same session: the same ids", async (t) => {
  const session = () => {
    const platform = newPlatform();
    const app = execute(platform, ALPHA, D.MUTATION_CREATE_FLASH_APP, { input: { name: "a" } }).createFlashApp;
    const secret = execute(platform, ALPHA, D.MUTATION_CREATE_SECRET, { input: { name: "S", value: "v", description: "" } }).secretCreate;
    return [app.id, secret.id, platform.hash()];
  };
  t.same(session(), session());
});
