// The official Python client's user, template, endpoint and registry documents, exactly as it
// writes them, run unmodified: each answer has the fields the client selects and reads, and what
// they create is real in the model (a pod mounts a created volume, a created endpoint runs jobs).
import t from "tap";
import { minutes, seconds } from "../../core/index.ts";
import {
  pythonDeleteRegistryAuthMutation,
  pythonEndpointMutation,
  pythonEndpointsQuery,
  pythonSaveRegistryAuthMutation,
  pythonTemplateMutation,
  pythonUpdateEndpointTemplateMutation,
  pythonUpdateRegistryAuthMutation,
  pythonUserMutation,
  pythonUserQuery,
} from "./python-client-resource-documents.ts";
import { pythonDeployMutation } from "./python-client-documents.ts";
import { graphqlResourceSchemas } from "./resource-record-schemas.ts";
import { ALPHA, ALPHA_READ, BETA, RTX4090, gql, newPlatform, validator } from "./test-support.ts";

for (const s of graphqlResourceSchemas) validator.ajv.addSchema(s);
/** Throws with the schema's findings when a record does not fit its GraphQL record schema. */
function checkShape(name: "GraphqlEndpoint" | "GraphqlPodTemplate" | "GraphqlNetworkVolume" | "GraphqlRegistryAuth", value: unknown): void {
  const v = validator.validate(`cpsim:${name}`, value);
  if (!v.ok) throw new Error(`${name}: ${v.errors.join("; ")} in ${JSON.stringify(value)}`);
}

t.test("get_user and update_user_settings", async (t) => {
  const platform = newPlatform();
  const user = gql(platform, ALPHA, pythonUserQuery);
  t.equal(user.status, 200, JSON.stringify(user.body));
  const me = user.body.data!.myself;
  t.same(Object.keys(me), ["id", "pubKey", "networkVolumes"]);
  t.equal(me.id, "acct-alpha");
  t.equal(me.pubKey, "", "no keys yet");
  t.same(me.networkVolumes.map((v: any) => v.id), ["vol-alpha-ustx3", "vol-alpha-euro1", "vol-alpha-usks2"], "the account's volumes only");
  for (const v of me.networkVolumes) {
    t.same(Object.keys(v), ["id", "name", "size", "dataCenterId"]);
    checkShape("GraphqlNetworkVolume", v);
  }

  const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG0 alice@laptop";
  const updated = gql(platform, ALPHA, pythonUserMutation(key));
  t.same(updated.body, { data: { updateUserSettings: { id: "acct-alpha", pubKey: key } } });
  t.equal(gql(platform, ALPHA, pythonUserQuery).body.data!.myself.pubKey, key);
  t.equal(gql(platform, BETA, pythonUserQuery).body.data!.myself.pubKey, "", "another account's keys are its own");
  t.equal(gql(platform, ALPHA_READ, pythonUserMutation("x")).status, 403, "a read-only key changes nothing");
});

t.test("create_template, then create_pod from it", async (t) => {
  const platform = newPlatform();
  const doc = pythonTemplateMutation({
    name: "my-worker",
    imageName: "ghcr.io/me/worker:1",
    dockerStartCmd: 'python -u handler.py --say "hi"',
    containerDiskInGb: 15,
    volumeInGb: 20,
    volumeMountPath: "/data",
    ports: "8888/http, 22/tcp",
    env: { MODEL: "tiny" },
  });
  t.match(doc, /containerRegistryAuthId : ""/);
  t.match(doc, /dockerArgs: "python -u handler.py --say \\"hi\\""/);
  const saved = gql(platform, ALPHA, doc);
  t.equal(saved.status, 200, JSON.stringify(saved.body));
  const tpl = saved.body.data!.saveTemplate;
  t.same(Object.keys(tpl), ["id", "name", "imageName", "dockerArgs", "containerDiskInGb", "volumeInGb", "volumeMountPath", "ports", "env", "isServerless"]);
  t.match(tpl, { name: "my-worker", imageName: "ghcr.io/me/worker:1", dockerArgs: 'python -u handler.py --say "hi"', containerDiskInGb: 15, volumeInGb: 20, volumeMountPath: "/data", ports: "8888/http,22/tcp", isServerless: false });
  t.same(tpl.env, [{ key: "MODEL", value: "tiny" }]);
  t.match(tpl.id, /^[a-z0-9]{10}$/);
  checkShape("GraphqlPodTemplate", tpl);

  const again = gql(platform, ALPHA, doc);
  t.equal(again.body.errors?.[0].extensions.code, "CONFLICT", "template names are unique per account");
  t.notOk(gql(platform, BETA, doc).body.errors, "another account may use the same name");

  // The template fills what the pod leaves out: image "None" means the template's image.
  const pod = gql(platform, ALPHA, pythonDeployMutation({ name: "from-tpl", imageName: null, gpuTypeId: RTX4090, templateId: tpl.id }));
  t.equal(pod.status, 200, JSON.stringify(pod.body));
  const record = platform.pods.get("acct-alpha", pod.body.data!.podFindAndDeployOnDemand.id)!;
  t.equal(record.image, "ghcr.io/me/worker:1");
  t.equal(record.template, tpl.id);
  t.same(record.env, { MODEL: "tiny" });
  t.equal(record.args, 'python -u handler.py --say "hi"');
  t.equal(gql(platform, BETA, pythonDeployMutation({ name: "x", imageName: null, gpuTypeId: RTX4090, templateId: tpl.id })).body.errors !== undefined || platform.pods.list("acct-beta").every((p) => p.template !== tpl.id), true, "a private template is not another account's");
});

t.test("create_container_registry_auth, update and delete; a template refers to it", async (t) => {
  const platform = newPlatform();
  const saved = gql(platform, ALPHA, pythonSaveRegistryAuthMutation("ghcr", "me", "s3cret"));
  t.equal(saved.status, 200, JSON.stringify(saved.body));
  const reg = saved.body.data!.saveRegistryAuth;
  t.same(Object.keys(reg), ["id", "name"]);
  checkShape("GraphqlRegistryAuth", reg);
  t.equal(reg.name, "ghcr");
  t.notMatch(JSON.stringify(platform.resources.get("registries", reg.id)), /s3cret/, "the password is never kept");

  const tpl = gql(platform, ALPHA, pythonTemplateMutation({ name: "private", imageName: "ghcr.io/me/private:1", registryAuthId: reg.id })).body.data!.saveTemplate;
  t.equal(platform.resources.get("templates", tpl.id)!.registry, reg.id);
  const foreign = gql(platform, BETA, pythonTemplateMutation({ name: "steal", imageName: "x:1", registryAuthId: reg.id }));
  t.equal(foreign.body.errors?.[0].extensions.code, "BAD_USER_INPUT", "another account's credential cannot be named");

  const updated = gql(platform, ALPHA, pythonUpdateRegistryAuthMutation(reg.id, "me2", "n3w"));
  t.same(updated.body, { data: { updateRegistryAuth: { id: reg.id, name: "ghcr" } } });
  t.equal(platform.resources.get("registries", reg.id)!.username, "me2");
  t.equal(gql(platform, BETA, pythonUpdateRegistryAuthMutation(reg.id, "x", "y")).body.errors?.[0].extensions.code, "NOT_FOUND");

  const inUse = gql(platform, ALPHA, pythonDeleteRegistryAuthMutation(reg.id));
  t.equal(inUse.body.errors?.[0].extensions.code, "CONFLICT", "in use by a template");
  t.notOk(gql(platform, ALPHA, `mutation { deleteTemplate(templateName: "private") }`).body.errors);
  t.same(gql(platform, ALPHA, pythonDeleteRegistryAuthMutation(reg.id)).body, { data: { deleteRegistryAuth: true } });
  t.equal(platform.resources.get("registries", reg.id), undefined);
  t.equal(gql(platform, ALPHA, pythonDeleteRegistryAuthMutation(reg.id)).body.errors?.[0].extensions.code, "NOT_FOUND");
});

t.test("create_endpoint, get_endpoints, update_endpoint_template; jobs run at once; delete cancels jobs in flight", async (t) => {
  const platform = newPlatform();
  const tpl = gql(platform, ALPHA, pythonTemplateMutation({ name: "sls", imageName: "me/worker:1", isServerless: true, env: { A: "1" } })).body.data!.saveTemplate;
  const created = gql(platform, ALPHA, pythonEndpointMutation({ name: "my-endpoint", templateId: tpl.id, networkVolumeId: "vol-alpha-euro1", locations: "EU-RO-1" }));
  t.equal(created.status, 200, JSON.stringify(created.body));
  const ep = created.body.data!.saveEndpoint;
  t.same(Object.keys(ep), ["id", "name", "templateId", "gpuIds", "networkVolumeId", "locations", "idleTimeout", "scalerType", "scalerValue", "workersMin", "workersMax", "allowedCudaVersions", "gpuCount", "flashBootType"]);
  t.same({ ...ep, id: "" }, { id: "", name: "my-endpoint", templateId: tpl.id, gpuIds: "AMPERE_16", networkVolumeId: "vol-alpha-euro1", locations: "EU-RO-1", idleTimeout: 5, scalerType: "QUEUE_DELAY", scalerValue: 4, workersMin: 0, workersMax: 3, allowedCudaVersions: "", gpuCount: 1, flashBootType: "OFF" });
  t.match(ep.id, /^[a-z0-9]{14}$/);
  checkShape("GraphqlEndpoint", ep);
  const model = platform.resources.get("endpoints", ep.id)!;
  t.ok(model.gpuTypeIds.every((g) => platform.catalog.gpuTypes.find((x) => x.id === g)!.memoryInGb === 24), "AMPERE_16, absent from the catalog, falls back to the smallest GPUs above 16 GB");

  const listed = gql(platform, ALPHA, pythonEndpointsQuery);
  t.equal(listed.status, 200, JSON.stringify(listed.body));
  const rows = listed.body.data!.myself.endpoints as any[];
  const row = rows.find((r) => r.id === ep.id);
  const own = (accountId: string) => platform.catalog.endpoints.filter((e) => e.accountId === accountId).map((e) => e.id);
  t.same(rows.map((r) => r.id), own("acct-alpha"), "own endpoints only (the catalog's and the new one), no shared built-ins");
  t.match(row, { id: ep.id, aiKey: null, type: "QB", userId: "acct-alpha", version: 0, workersStandby: 0, gpuCount: 1, env: [{ key: "A", value: "1" }], networkVolume: { id: "vol-alpha-euro1", dataCenterId: "EU-RO-1" } });
  t.type(row.createdAt, "string");
  for (const r of rows) checkShape("GraphqlEndpoint", r);
  t.notOk((gql(platform, BETA, pythonEndpointsQuery).body.data!.myself.endpoints as any[]).some((r) => r.id === ep.id));

  // Jobs can be sent at once, and run the conformance handler.
  const job = platform.serverless.submit({ endpointId: ep.id, accountId: "acct-alpha", input: { op: "echo", n: 7 } });
  t.ok(job.ok);
  platform.advanceTo(platform.now + minutes(1));
  const done = platform.serverless.status(ep.id, "acct-alpha", (job as any).jobId);
  t.match(done, { ok: true, job: { status: "COMPLETED", output: { op: "echo", n: 7 } } });
  t.match(platform.serverless.submit({ endpointId: ep.id, accountId: "acct-beta", input: {} }), { ok: false }, "another account cannot call it");

  const tpl2 = gql(platform, ALPHA, pythonTemplateMutation({ name: "sls2", imageName: "me/worker:2", isServerless: true })).body.data!.saveTemplate;
  const moved = gql(platform, ALPHA, pythonUpdateEndpointTemplateMutation(ep.id, tpl2.id));
  t.same(moved.body, { data: { updateEndpointTemplate: { id: ep.id, templateId: tpl2.id } } });
  t.equal((gql(platform, ALPHA, pythonEndpointsQuery).body.data!.myself.endpoints as any[]).find((r) => r.id === ep.id).version, 1);
  t.equal(gql(platform, ALPHA, `mutation { deleteTemplate(templateName: "sls2") }`).body.errors?.[0].extensions.code, "CONFLICT", "a template in use stays");

  // Delete with jobs in flight: running and queued jobs end CANCELLED, waiters hear it, the id is gone.
  const heard: string[] = [];
  const long = platform.serverless.submit({ endpointId: ep.id, accountId: "acct-alpha", input: { op: "sleep", ms: 600_000 } }) as any;
  const queued = [1, 2, 3, 4, 5].map(() => platform.serverless.submit({ endpointId: ep.id, accountId: "acct-alpha", input: { op: "sleep", ms: 600_000 } }) as any);
  platform.advanceTo(platform.now + seconds(30));
  t.equal(platform.serverless.status(ep.id, "acct-alpha", long.jobId).ok && (platform.serverless.status(ep.id, "acct-alpha", long.jobId) as any).job.status, "IN_PROGRESS");
  platform.serverless.onFinal(ep.id, "acct-alpha", queued[4].jobId, (view) => heard.push(view?.status ?? "gone"));
  const freeBefore = platform.serverless.healthOf(platform.serverless.endpointIndex(ep.id)).workers;
  t.ok(freeBefore.running >= 1);
  t.same(gql(platform, ALPHA, `mutation { deleteEndpoint(id: "${ep.id}") }`).body, { data: { deleteEndpoint: true } });
  t.same(heard, ["CANCELLED"], "a waiting runsync hears CANCELLED");
  t.equal(platform.serverless.endpointIndex(ep.id), -1);
  t.match(platform.serverless.status(ep.id, "acct-alpha", long.jobId), { ok: false, error: "unknown-endpoint" });
  t.equal(platform.resources.get("endpoints", ep.id), undefined);
  t.notOk((gql(platform, ALPHA, pythonEndpointsQuery).body.data!.myself.endpoints as any[]).some((r) => r.id === ep.id));
  t.equal(gql(platform, ALPHA, `mutation { deleteEndpoint(id: "${ep.id}") }`).body.errors?.[0].extensions.code, "NOT_FOUND");
  t.equal(gql(platform, ALPHA, `mutation { deleteEndpoint(id: "conformance") }`).body.errors?.[0].extensions.code, "NOT_FOUND", "a shared built-in is not the caller's to delete");
  platform.advanceTo(platform.now + minutes(5));
});

t.test("create_pod with a created network volume and no data center lands in the volume's data center", async (t) => {
  const platform = newPlatform();
  const made = gql(platform, ALPHA, `mutation { createNetworkVolume(input: {name: "fresh", size: 25, dataCenterId: "US-KS-2"}) { id name size dataCenterId } }`);
  t.equal(made.status, 200, JSON.stringify(made.body));
  const vol = made.body.data!.createNetworkVolume;
  t.match(vol, { name: "fresh", size: 25, dataCenterId: "US-KS-2" });
  // The client reads the user's volumes first (get_user) to find the data center.
  const volumes = gql(platform, ALPHA, pythonUserQuery).body.data!.myself.networkVolumes as any[];
  const dc = volumes.find((v) => v.id === vol.id).dataCenterId;
  const pod = gql(platform, ALPHA, pythonDeployMutation({ name: "on-vol", imageName: "ubuntu:22.04", gpuTypeId: RTX4090, networkVolumeId: vol.id, dataCenterId: dc }));
  t.equal(pod.status, 200, JSON.stringify(pod.body));
  const record = platform.pods.get("acct-alpha", pod.body.data!.podFindAndDeployOnDemand.id)!;
  t.equal(record.dataCenterId, "US-KS-2");
  t.same(record.mounts.network, [{ volumeId: vol.id, path: "/workspace" }]);
  t.equal(gql(platform, ALPHA, `mutation { deleteNetworkVolume(input: {id: "${vol.id}"}) }`).body.errors?.[0].extensions.code, "CONFLICT", "mounted by a pod");
  t.equal(gql(platform, BETA, pythonDeployMutation({ name: "x", imageName: "u:1", gpuTypeId: RTX4090, networkVolumeId: vol.id })).body.errors?.[0].extensions.code, "BAD_USER_INPUT", "not another account's volume");
  gql(platform, ALPHA, `mutation { podTerminate(input: {podId: "${record.id}"}) }`);
  t.same(gql(platform, ALPHA, `mutation { deleteNetworkVolume(input: {id: "${vol.id}"}) }`).body, { data: { deleteNetworkVolume: null } });
});

t.test("the same session gives the same ids and event log", async (t) => {
  const run = () => {
    const platform = newPlatform();
    const tpl = gql(platform, ALPHA, pythonTemplateMutation({ name: "a", imageName: "b:1" })).body.data!.saveTemplate.id;
    const ep = gql(platform, ALPHA, pythonEndpointMutation({ name: "e", templateId: tpl, gpuIds: "ADA_24", workersMin: 1 })).body.data!.saveEndpoint.id;
    platform.advanceTo(minutes(2));
    return [tpl, ep, platform.hash()].join(" ");
  };
  t.equal(run(), run());
});

t.test("saveEndpoint with an id updates that endpoint; the created endpoints' handler is one option", async (t) => {
  const platform = newPlatform({ createdEndpointHandler: "text-generation" });
  const tpl = gql(platform, ALPHA, pythonTemplateMutation({ name: "w", imageName: "w:1", isServerless: true })).body.data!.saveTemplate.id;
  const ep = gql(platform, ALPHA, pythonEndpointMutation({ name: "gen", templateId: tpl, gpuIds: "ADA_24", scalerType: "REQUEST_COUNT", scalerValue: 1 })).body.data!.saveEndpoint;
  t.equal(platform.resources.get("endpoints", ep.id)!.handler, "text-generation");
  const job = platform.serverless.submit({ endpointId: ep.id, accountId: "acct-alpha", input: { prompt: "hello", max_tokens: 4 } }) as any;
  platform.advanceTo(platform.now + minutes(2));
  t.match(platform.serverless.status(ep.id, "acct-alpha", job.jobId), { ok: true, job: { status: "COMPLETED" } }, "the configured handler ran");

  const up = gql(platform, ALPHA, `mutation { saveEndpoint(input: {id: "${ep.id}", workersMin: 1, workersMax: 2, idleTimeout: 30}) { id workersMin workersMax idleTimeout scalerType version } }`);
  t.same(up.body, { data: { saveEndpoint: { id: ep.id, workersMin: 1, workersMax: 2, idleTimeout: 30, scalerType: "REQUEST_COUNT", version: 1 } } });
  t.equal(platform.serverless.healthOf(platform.serverless.endpointIndex(ep.id)).workers.idle + platform.serverless.healthOf(platform.serverless.endpointIndex(ep.id)).workers.initializing + platform.serverless.healthOf(platform.serverless.endpointIndex(ep.id)).workers.throttled >= 1, true, "the new minimum starts a worker at once");
  t.equal(gql(platform, BETA, `mutation { saveEndpoint(input: {id: "${ep.id}", workersMax: 9}) { id } }`).body.errors?.[0].extensions.code, "NOT_FOUND", "not another account's");
  t.equal(gql(platform, ALPHA, `mutation { saveEndpoint(input: {id: "${ep.id}", workersMin: 5, workersMax: 2}) { id } }`).body.errors?.[0].extensions.code, "BAD_USER_INPUT");
  t.equal(gql(platform, ALPHA, `mutation { saveEndpoint(input: {id: "${ep.id}", scalerType: "FASTEST"}) { id } }`).body.errors?.[0].extensions.code, "BAD_USER_INPUT");
});

t.test("runpod project deploy (cli/groups/project): the project's template and endpoint, then a redeploy moves the endpoint to a new template", async (t) => {
  const platform = newPlatform();
  // create_project_endpoint's names and start command, as functions.py builds them.
  const uuid = "1a2b3c4d";
  const startCmd = `bash -c ". /runpod-volume/${uuid}/prod/venv/bin/activate && python -u /runpod-volume/${uuid}/prod/my-proj/src/handler.py"`;
  const template = (stamp: string) =>
    gql(platform, ALPHA, pythonTemplateMutation({ name: `my-proj-endpoint | ${uuid} | 2026-11-23 16:10:00.${stamp}`, imageName: "runpod/base:0.6.2-cuda12.1.0", containerDiskInGb: 10, dockerStartCmd: startCmd, env: { RUNPOD_PROJECT_ID: uuid }, isServerless: true })).body.data!.saveTemplate;
  const first = template("123456");
  t.equal(platform.resources.get("templates", first.id)!.args, startCmd, "the quoted start command arrives intact");
  const ep = gql(platform, ALPHA, pythonEndpointMutation({ name: `my-proj-endpoint | ${uuid}`, templateId: first.id, networkVolumeId: "vol-alpha-ustx3" })).body.data!.saveEndpoint;
  t.match(ep, { name: `my-proj-endpoint | ${uuid}`, networkVolumeId: "vol-alpha-ustx3" });
  // get_project_endpoint finds it by the uuid in its name among get_endpoints.
  t.ok((gql(platform, ALPHA, pythonEndpointsQuery).body.data!.myself.endpoints as any[]).some((e) => e.name.includes(uuid) && e.id === ep.id));
  const second = template("654321");
  t.same(gql(platform, ALPHA, pythonUpdateEndpointTemplateMutation(ep.id, second.id)).body, { data: { updateEndpointTemplate: { id: ep.id, templateId: second.id } } });
});

t.test("create_endpoint(flashboot=True) of the newest client writes flashBootType as an enum literal", async (t) => {
  const platform = newPlatform();
  const tpl = gql(platform, ALPHA, pythonTemplateMutation({ name: "fb", imageName: "me/worker:1", isServerless: true })).body.data!.saveTemplate;
  // The newest generate_endpoint_mutation appends `flashBootType: FLASHBOOT` (unquoted) when flashboot is set.
  const doc = pythonEndpointMutation({ name: "fast", templateId: tpl.id, flashboot: true });
  t.match(doc, /input: \{\s*flashBootType: FLASHBOOT, name: "fast"/);
  const made = gql(platform, ALPHA, doc);
  t.equal(made.status, 200, JSON.stringify(made.body));
  t.equal(made.body.data!.saveEndpoint.flashBootType, "FLASHBOOT");
  t.equal(platform.resources.endpointExtra(made.body.data!.saveEndpoint.id)!.flashboot, "FLASHBOOT");
  const quoted = gql(platform, ALPHA, pythonEndpointMutation({ name: "slow", templateId: tpl.id }).replace("workersMax: 3", 'workersMax: 3, flashBootType: "FLASHBOOT"'));
  t.equal(quoted.status, 400, "a string literal is not the enum");
  const bad = gql(platform, ALPHA, pythonEndpointMutation({ name: "bad", templateId: tpl.id }).replace("workersMax: 3", "workersMax: 3, flashBootType: TURBO"));
  t.equal(bad.status, 400);
});

t.test("create_endpoint(allowed_cuda_versions=...) of the current client: stored, returned, refused when not versions", async (t) => {
  const platform = newPlatform();
  const tpl = gql(platform, ALPHA, pythonTemplateMutation({ name: "cuda", imageName: "me/worker:1", isServerless: true })).body.data!.saveTemplate;
  const made = gql(platform, ALPHA, pythonEndpointMutation({ name: "cuda-ep", templateId: tpl.id, gpuIds: "ADA_24", allowedCudaVersions: "12.4, 12.6", gpuCount: 2 }));
  t.equal(made.status, 200, JSON.stringify(made.body));
  const ep = made.body.data!.saveEndpoint;
  t.match(ep, { allowedCudaVersions: "12.4,12.6", gpuCount: 2, flashBootType: "OFF" });
  checkShape("GraphqlEndpoint", ep);
  t.same(platform.resources.endpointExtra(ep.id)!.allowedCudaVersions, ["12.4", "12.6"], "stored");
  const listed = gql(platform, ALPHA, `query { myself { endpoints { id allowedCudaVersions } } }`).body.data!.myself.endpoints;
  t.same(listed.find((e: { id: string }) => e.id === ep.id), { id: ep.id, allowedCudaVersions: "12.4,12.6" }, "returned by a later read");
  // An update that leaves it out keeps it; "" clears it.
  t.equal(gql(platform, ALPHA, pythonUpdateEndpointTemplateMutation(ep.id, tpl.id)).status, 200);
  t.same(platform.resources.endpointExtra(ep.id)!.allowedCudaVersions, ["12.4", "12.6"]);
  const cleared = gql(platform, ALPHA, `mutation { saveEndpoint(input: { id: "${ep.id}", allowedCudaVersions: "" }) { allowedCudaVersions } }`);
  t.same(cleared.body, { data: { saveEndpoint: { allowedCudaVersions: "" } } });
  const bad = gql(platform, ALPHA, pythonEndpointMutation({ name: "bad-cuda", templateId: tpl.id, allowedCudaVersions: "twelve" }));
  t.equal(bad.body.errors?.[0].extensions.code, "BAD_USER_INPUT");
  t.match(bad.body.errors?.[0].message, /allowedCudaVersions.*"twelve" is not a CUDA version/);
});
