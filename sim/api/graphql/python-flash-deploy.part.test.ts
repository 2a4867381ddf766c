// `flash deploy` and Flash tasks as the newest official Python client sends them, field by field:
// runpod/apps/deploy.py's reconcile_endpoints (the saveEndpoint input _deployed_endpoint_input
// builds, with attach_endpoint_volumes' networkVolumeIds and locations, the registry credential
// on the template, modelReferences and the id of an endpoint the environment already lists),
// manage.py's undeploy (the environment's endpoints first, then the environment), and
// runpod/apps/tasks.py's _pod_input for GPU and CPU task pods (every device name for "any GPU",
// every data center, terminateAfter, supportPublicIp, containerRegistryAuthId). The documents
// are python-apps-documents.ts' (runpod/api/mutations/apps.py, queries/apps.py), character for
// character; the answers are checked against what the client reads.
import t from "tap";
import { minutes } from "../../core/index.ts";
import type { Platform } from "../../domain/platform.ts";
import type { Principal } from "../op-context.ts";
import * as D from "./python-apps-documents.ts";
import { ALPHA, BETA, gql, newPlatform } from "./test-support.ts";

/** AppsApiClient._execute: the answer's `data`, or throws QueryError(errors[0].message). */
function execute(platform: Platform, who: Principal, query: string, variables?: Record<string, unknown>): Record<string, any> {
  const answer = gql(platform, who, query, variables);
  if (answer.body.errors) throw new Error(answer.body.errors[0]!.message);
  return answer.body.data!;
}

/** runpod/apps/datacenter.py: DataCenter (every one), and CPU3_DATACENTERS. */
const ALL_DATA_CENTERS = ["US-CA-2", "US-IL-1", "US-KS-2", "US-MO-1", "US-MO-2", "US-NC-2", "US-NE-1", "US-WA-1", "EU-CZ-1", "EU-RO-1", "EUR-NO-1"];
const CPU3_DATA_CENTERS = ["EU-CZ-1", "EU-RO-1", "US-CA-2", "US-IL-1", "US-KS-2", "US-MO-1", "US-MO-2", "US-NC-2", "US-NE-1", "US-WA-1"];
/** runpod/apps/gpu.py: gpu_ids_value(None), every pool id. */
const ALL_POOLS = "ADA_24,ADA_32_PRO,ADA_48_PRO,ADA_80_PRO,AMPERE_16,AMPERE_24,AMPERE_48,AMPERE_80,HOPPER_141,BLACKWELL_96,BLACKWELL_180";
/** runpod/apps/tasks.py: _device_names(None), every pool's device names, sorted. */
const ALL_DEVICES = [
  "NVIDIA A100 80GB PCIe", "NVIDIA A100-SXM4-80GB", "NVIDIA A40", "NVIDIA B200", "NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 4090",
  "NVIDIA GeForce RTX 5090", "NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA L4", "NVIDIA RTX 2000 Ada Generation", "NVIDIA RTX 4000 Ada Generation",
  "NVIDIA RTX 6000 Ada Generation", "NVIDIA RTX A4000", "NVIDIA RTX A4500", "NVIDIA RTX A5000", "NVIDIA RTX A6000",
  "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "NVIDIA RTX PRO 6000 Blackwell Server Edition", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
];
/** Python's datetime.isoformat() of an aware UTC time: microseconds and +00:00. */
const TERMINATE_AFTER = "2026-01-01T01:00:00.123456+00:00";

/** _deployed_endpoint_input for a GPU queue resource with no gpu, datacenter or image given, flashboot on. */
function deployedGpuInput(environmentId: string, buildId: string, name: string) {
  return {
    name,
    flashEnvironmentId: environmentId,
    workersMin: 0,
    workersMax: 3,
    idleTimeout: 60,
    scalerType: "QUEUE_DELAY",
    scalerValue: 4,
    executionTimeoutMs: 600000,
    template: {
      name: `shop-${name}-template`,
      imageName: "runpod/queue:py3.12-latest",
      containerDiskInGb: 30,
      dockerArgs: "",
      env: [{ key: "FLASH_RESOURCE_NAME", value: name }, { key: "RUNPOD_BUILD_ID", value: buildId }, { key: "HF_TOKEN", value: "{{ RUNPOD_SECRET_hf }}" }, { key: "RUNPOD_API_KEY", value: "cpsim_alpha_full_7f3a9c2e41b6d805" }],
    },
    flashBootType: "FLASHBOOT",
    gpuIds: ALL_POOLS,
    gpuCount: 1,
    minCudaVersion: "12.8",
    locations: ALL_DATA_CENTERS.join(","),
  };
}

/** The deploy pipeline up to reconcile_endpoints: app, environment, upload, build, activation. */
function deployedEnvironment(platform: Platform) {
  const app = execute(platform, ALPHA, D.MUTATION_CREATE_FLASH_APP, { input: { name: "shop" } }).createFlashApp;
  const env = execute(platform, ALPHA, D.MUTATION_CREATE_FLASH_ENVIRONMENT, { input: { flashAppId: app.id, name: "production" } }).createFlashEnvironment;
  const upload = execute(platform, ALPHA, D.MUTATION_PREPARE_ARTIFACT_UPLOAD, { input: { flashAppId: app.id, tarballSize: 1024 } }).prepareFlashArtifactUpload;
  const manifest = { version: 1, app: "shop", pythonVersion: "3.12", resources: [{ kind: "queue", name: "chat", gpuCount: 1, workersMin: 0, workersMax: 3, idleTimeout: 60 }] };
  const build = execute(platform, ALPHA, D.MUTATION_FINALIZE_ARTIFACT_UPLOAD, { input: { flashAppId: app.id, objectKey: upload.objectKey, manifest } }).finalizeFlashArtifactUpload;
  execute(platform, ALPHA, D.MUTATION_DEPLOY_BUILD, { input: { flashEnvironmentId: env.id, flashBuildId: build.id } });
  return { app, env, build };
}

const SAVE_KEYS = ["id", "name", "templateId", "gpuIds", "instanceIds", "workersMin", "workersMax", "idleTimeout", "aiKey"];

t.test("reconcile_endpoints: GPU, CPU and API resources deployed to an environment, redeployed in place, undeployed", async (t) => {
  const platform = newPlatform();
  const { app, env, build } = deployedEnvironment(platform);
  const reg = execute(platform, ALPHA, D.MUTATION_SAVE_REGISTRY_AUTH, { input: { name: "ghcr", username: "me", password: "tok" } }).saveRegistryAuth;
  const volume = execute(platform, ALPHA, D.MUTATION_CREATE_NETWORK_VOLUME, { input: { name: "weights", size: 50, dataCenterId: "EU-RO-1" } }).createNetworkVolume;

  // GPU "chat": the registry credential on its template, its model, its volume (locations become the volume's).
  const chat = {
    ...deployedGpuInput(env.id, build.id, "chat"),
    networkVolumeIds: [{ networkVolumeId: volume.id }],
    locations: "EU-RO-1",
    modelReferences: ["meta-llama/Llama-3.1-8B-Instruct"],
  };
  chat.template = { ...chat.template, containerRegistryAuthId: reg.id } as typeof chat.template;
  const saved = execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: chat }).saveEndpoint;
  t.same(Object.keys(saved), SAVE_KEYS);
  t.match(saved, { id: /^[a-z0-9]{14}$/, name: "chat", templateId: /^[a-z0-9]{10}$/, gpuIds: ALL_POOLS, instanceIds: null, workersMin: 0, workersMax: 3, idleTimeout: 60, aiKey: null });
  t.equal(platform.resources.get("templates", saved.templateId)!.registry, reg.id, "the template pulls with the credential");

  // GPU "embed" with the defaults: every pool, every data center (those this catalog lacks are left out).
  const embed = execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: deployedGpuInput(env.id, build.id, "embed") }).saveEndpoint;
  const held = platform.catalog.dataCenters.map((d) => d.id);
  t.same(platform.resources.endpointExtra(embed.id)!.dataCenterIds, ALL_DATA_CENTERS.filter((d) => held.includes(d)), "the catalog's own among the platform's");
  t.ok(platform.resources.endpointExtra(embed.id)!.dataCenterIds.length > 0);

  // CPU "resize": instanceIds and CPU3_DATACENTERS; API "web": type LB.
  const { gpuIds: _g, gpuCount: _c, minCudaVersion: _m, ...cpuBase } = deployedGpuInput(env.id, build.id, "resize");
  const resize = execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: { ...cpuBase, template: { ...cpuBase.template, containerDiskInGb: 10 }, instanceIds: ["cpu3c-2-4"], locations: CPU3_DATA_CENTERS.join(",") } }).saveEndpoint;
  t.match(resize, { name: "resize", gpuIds: "", instanceIds: ["cpu3c-2-4"] });
  const web = execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: { ...deployedGpuInput(env.id, build.id, "web"), type: "LB" } }).saveEndpoint;
  t.equal(web.name, "web");

  // The environment lists what was deployed to it (reconcile_endpoints reads endpoints { id name }).
  const listed = execute(platform, ALPHA, D.QUERY_FLASH_ENVIRONMENT_BY_NAME, { input: { flashAppId: app.id, name: "production" } }).flashEnvironmentByName;
  t.same(listed.endpoints, [chat, embed, resize, web].map((e, i) => ({ id: [saved, embed, resize, web][i].id, name: e.name })));
  t.same(listed.networkVolumes, [{ id: volume.id, name: "weights" }], "the volumes of its endpoints");
  t.same(execute(platform, ALPHA, D.QUERY_FLASH_APP_BY_NAME, { flashAppName: "shop" }).flashAppByName.flashEnvironments[0].endpoints, listed.endpoints);
  const models = gql(platform, ALPHA, "{ myself { endpoints { id modelReferences } } }").body.data!.myself.endpoints as { id: string; modelReferences: string[] }[];
  t.same(models.find((e) => e.id === saved.id)!.modelReferences, ["meta-llama/Llama-3.1-8B-Instruct"], "recorded and shown");
  t.same(models.find((e) => e.id === embed.id)!.modelReferences, []);

  // The deployed endpoint runs jobs at once.
  const job = platform.serverless.submit({ endpointId: embed.id, accountId: "acct-alpha", input: { op: "echo", n: 1 } }) as { jobId: string };
  platform.advanceTo(platform.now + minutes(1));
  t.match(platform.serverless.status(embed.id, "acct-alpha", job.jobId), { ok: true, job: { status: "COMPLETED" } });

  // A redeploy: a new build, and each payload with the id the environment lists; the same endpoint and template, changed.
  const again = execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: { ...deployedGpuInput(env.id, "build-2", "embed"), id: embed.id, workersMax: 5 } }).saveEndpoint;
  t.match(again, { id: embed.id, templateId: embed.templateId, workersMax: 5 });
  t.equal(platform.resources.get("templates", embed.templateId)!.env.RUNPOD_BUILD_ID, "build-2");
  t.equal(execute(platform, ALPHA, D.QUERY_FLASH_ENVIRONMENT_BY_NAME, { input: { flashAppId: app.id, name: "production" } }).flashEnvironmentByName.endpoints.length, 4, "no duplicate");

  // Undeploy (manage.py): the environment is refused while its endpoints are left; they go first.
  t.throws(() => execute(platform, ALPHA, D.MUTATION_DELETE_FLASH_ENVIRONMENT, { flashEnvironmentId: env.id }), /deployed to the environment; delete them first/);
  t.throws(() => execute(platform, ALPHA, D.MUTATION_DELETE_FLASH_APP, { flashAppId: app.id }), /delete them first/);
  for (const e of listed.endpoints) t.same(execute(platform, ALPHA, D.MUTATION_DELETE_ENDPOINT, { id: e.id }), { deleteEndpoint: true });
  t.same(execute(platform, ALPHA, D.QUERY_FLASH_ENVIRONMENT_BY_NAME, { input: { flashAppId: app.id, name: "production" } }).flashEnvironmentByName.endpoints, []);
  t.same(execute(platform, ALPHA, D.MUTATION_DELETE_FLASH_ENVIRONMENT, { flashEnvironmentId: env.id }), { deleteFlashEnvironment: true });
  t.same(execute(platform, ALPHA, D.MUTATION_DELETE_FLASH_APP, { flashAppId: app.id }), { deleteFlashApp: true });
});

t.test("reconcile_endpoints' fields refused by name, leaving nothing behind", async (t) => {
  const platform = newPlatform();
  const { app, env, build } = deployedEnvironment(platform);
  const other = execute(platform, ALPHA, D.MUTATION_CREATE_FLASH_ENVIRONMENT, { input: { flashAppId: app.id, name: "staging" } }).createFlashEnvironment;
  const input = (extra: object) => ({ ...deployedGpuInput(env.id, build.id, "chat"), ...extra });
  const templates = platform.catalog.templates.length;
  const endpoints = platform.catalog.endpoints.length;
  const refused = (who: Principal, extra: object) => gql(platform, who, D.MUTATION_SAVE_ENDPOINT, { input: input(extra) }).body.errors?.[0]?.message ?? "";
  t.match(refused(BETA, {}), /flash environment "[a-z0-9]+" not found among yours/, "another account's environment");
  t.match(refused(ALPHA, { modelReferences: ["llama"] }), /model reference "llama" must be "owner\/name"/);
  t.match(refused(ALPHA, { modelReferences: Array.from({ length: 9 }, (_, i) => `org/m${i}`) }), /at most 8/);
  t.match(refused(ALPHA, { minCudaVersion: "twelve" }), /minCudaVersion "twelve" is not a CUDA version/);
  t.match(refused(ALPHA, { locations: "EU-RO-1,MARS-1" }), /data center "MARS-1" is unknown/);
  t.match(refused(ALPHA, { locations: "US-IL-1,US-MO-1" }), /none of the data centers US-IL-1, US-MO-1 is in this catalog/);
  t.match(refused(ALPHA, { gpuIds: "ADA_24,NO_SUCH_POOL" }), /unknown GPU pool or type "NO_SUCH_POOL"/);
  t.equal(platform.catalog.templates.length, templates, "no template left behind");
  t.equal(platform.catalog.endpoints.length, endpoints, "no endpoint made");

  // An endpoint stays in the environment it was deployed to.
  const saved = execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: input({ modelReferences: ["org/model:main"] }) }).saveEndpoint;
  t.match(refused(ALPHA, { id: saved.id, flashEnvironmentId: other.id }), /is deployed to flash environment/);
  // An update without modelReferences keeps them; an empty list clears them.
  execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: { id: saved.id, workersMax: 2 } });
  t.same(platform.resources.apps.modelReferencesOf(saved.id), ["org/model:main"]);
  execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: { id: saved.id, modelReferences: [] } });
  t.same(platform.resources.apps.modelReferencesOf(saved.id), []);
});

t.test("deploy_task_pod with tasks.py's _pod_input: GPU (every device, every data center) and CPU", async (t) => {
  const platform = newPlatform();
  const reg = execute(platform, ALPHA, D.MUTATION_SAVE_REGISTRY_AUTH, { input: { name: "ghcr", username: "me", password: "tok" } }).saveRegistryAuth;
  const common = {
    name: "task-train-1a2b3c4d",
    ports: "8080/http",
    terminateAfter: TERMINATE_AFTER,
    supportPublicIp: true,
    env: [{ key: "RUNPOD_TASK_TOKEN", value: "tok3n" }, { key: "RUNPOD_TASK_PORT", value: "8080" }],
  };
  const gpuInput = { ...common, imageName: "runpod/task-gpu:latest", containerDiskInGb: 30, dataCenterIds: ALL_DATA_CENTERS, gpuTypeIdList: ALL_DEVICES, gpuCount: 1, containerRegistryAuthId: reg.id };
  const gpu = execute(platform, ALPHA, D.MUTATION_DEPLOY_POD, { input: gpuInput }).podFindAndDeployOnDemand;
  t.same(Object.keys(gpu), ["id", "desiredStatus"]);
  t.equal(gpu.desiredStatus, "RUNNING");
  const record = platform.pods.get("acct-alpha", gpu.id)!;
  t.ok(platform.catalog.dataCenters.some((d) => d.id === record.dataCenterId) && ALL_DATA_CENTERS.includes(record.dataCenterId!), "placed in one of the listed data centers this catalog holds");
  t.ok(ALL_DEVICES.includes(record.gpu!.id), "on one of the listed devices");
  t.equal(record.registry, reg.id, "pulled with the credential");

  // deploy_task_pod pops instanceIds and tries each as deployCpuPod's instanceId.
  const cpuInput = { ...common, imageName: "runpod/task:py3.12-latest", containerDiskInGb: 10, dataCenterIds: CPU3_DATA_CENTERS, instanceId: "cpu3c-2-4" };
  const cpu = execute(platform, ALPHA, D.MUTATION_DEPLOY_CPU_POD, { input: cpuInput }).deployCpuPod;
  t.same(Object.keys(cpu), ["id", "desiredStatus"]);
  t.ok(CPU3_DATA_CENTERS.includes(platform.pods.get("acct-alpha", cpu.id)!.dataCenterId!));
  t.equal(platform.pods.get("acct-alpha", cpu.id)!.registry, null);

  const refused = (query: string, input: object) => gql(platform, ALPHA, query, { input }).body.errors?.[0]?.message ?? "";
  t.match(refused(D.MUTATION_DEPLOY_POD, { ...gpuInput, terminateAfter: "in an hour" }), /terminateAfter "in an hour" is not a date-time/);
  t.match(refused(D.MUTATION_DEPLOY_CPU_POD, { ...cpuInput, terminateAfter: "soon" }), /terminateAfter "soon" is not a date-time/);
  t.match(refused(D.MUTATION_DEPLOY_POD, { ...gpuInput, gpuTypeIdList: ["NVIDIA GeForce RTX 9999"] }), /GPU type "NVIDIA GeForce RTX 9999" is unknown/);
  t.match(refused(D.MUTATION_DEPLOY_POD, { ...gpuInput, gpuTypeIdList: ["NVIDIA B200"] }), /none of the GPU types NVIDIA B200 is in this catalog/);
  t.match(refused(D.MUTATION_DEPLOY_POD, { ...gpuInput, dataCenterIds: ["MARS-1"] }), /data center "MARS-1" is unknown/);
  t.match(gql(platform, BETA, D.MUTATION_DEPLOY_POD, { input: gpuInput }).body.errors?.[0]?.message, /is not one of your container registry credentials/, "another account's credential");
  t.same(execute(platform, ALPHA, D.MUTATION_TERMINATE_POD, { input: { podId: gpu.id } }), { podTerminate: null });
});
