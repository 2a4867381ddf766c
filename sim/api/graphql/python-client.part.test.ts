// The official Python client's documents, exactly as it writes them (choices.md), run unmodified:
// each answer is the data envelope with the selected fields, and every record fits its schema.
import t from "tap";
import { minutes } from "../../core/index.ts";
import {
  MACHINE_FIELDS_NEWER,
  pythonDeployMutation,
  pythonGpuQuery,
  pythonGpuTypesQuery,
  pythonPodQuery,
  pythonPodsQuery,
  pythonResumeMutation,
  pythonStopMutation,
  pythonTerminateMutation,
} from "./python-client-documents.ts";
import { ALPHA, RTX4090, catalog, checkRecord, gql, newPlatform } from "./test-support.ts";

const DEPLOY_FIELDS = ["env", "id", "imageName", "machine", "machineId"];

t.test("create_pod (GPU) with every field the client writes", async (t) => {
  const platform = newPlatform();
  const doc = pythonDeployMutation({
    name: "py-gpu",
    imageName: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpuTypeId: RTX4090,
    cloudType: "SECURE",
    countryCode: "US",
    gpuCount: 2,
    volumeInGb: 40,
    containerDiskInGb: 20,
    minVcpuCount: 4,
    minMemoryInGb: 16,
    dockerArgs: "sleep infinity",
    ports: "8888/http, 22/tcp",
    volumeMountPath: "/data",
    env: { HF_HOME: "/data/hf", TOKEN: "a=b" },
    templateId: "tpl-pytorch-2-4",
    allowedCudaVersions: ["12.4", "12.6"],
    minDownload: 100,
    minUpload: 50,
  });
  t.match(doc, /dataCenterId: null/);
  t.match(doc, /startSsh: true/);
  t.match(doc, /supportPublicIp: true/);
  const { status, body } = gql(platform, ALPHA, doc);
  t.equal(status, 200);
  t.notOk(body.errors);
  const pod = body.data!.podFindAndDeployOnDemand;
  t.same(Object.keys(pod).sort(), DEPLOY_FIELDS, "exactly the selected fields");
  checkRecord("GraphqlPod", pod);
  t.equal(pod.imageName, "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04");
  t.same(pod.env, ["HF_HOME=/data/hf", "TOKEN=a=b"], "env as KEY=value, in input order, value kept whole");
  t.same(Object.keys(pod.machine), ["podHostId"]);
  t.ok(pod.machine.podHostId.startsWith(pod.id));

  const record = platform.pods.get("acct-alpha", pod.id)!;
  t.equal(record.cloud, "SECURE");
  t.same(record.gpu, { id: RTX4090, count: 2, displayName: "RTX 4090" });
  t.same(record.mounts, { persistent: { size: 40, path: "/data" } });
  t.equal(record.disk, 20);
  t.same(record.ports, ["8888/http", "22/tcp"]);
  t.equal(record.args, "sleep infinity");
  t.equal(record.template, "tpl-pytorch-2-4");
  t.ok(record.vcpuCount >= 4 && record.memoryInGb >= 16, "minimum vCPUs and memory honoured");
  const host = catalog.hosts.find((h) => h.id === record.hostId)!;
  t.ok(host.kind === "gpu" && ["12.4", "12.6"].includes(host.cudaVersion ?? ""), "allowedCudaVersions honoured");
});

t.test("create_pod (GPU) with the client's defaults and a network volume", async (t) => {
  const platform = newPlatform();
  const doc = pythonDeployMutation({ name: "py-nv", imageName: "ubuntu:22.04", gpuTypeId: RTX4090, networkVolumeId: "vol-alpha-euro1", volumeInGb: 0 });
  const { status, body } = gql(platform, ALPHA, doc);
  t.equal(status, 200, JSON.stringify(body));
  const record = platform.pods.get("acct-alpha", body.data!.podFindAndDeployOnDemand.id)!;
  t.same(record.mounts, { network: [{ volumeId: "vol-alpha-euro1", path: "/workspace" }] });
  t.equal(record.dataCenterId, "EU-RO-1", "placed in the volume's data center");
  t.equal(record.disk, 50, "default container disk");
  t.same(record.env, {});
});

t.test("create_pod (CPU) → deployCpuPod with instanceId and the default template id", async (t) => {
  const platform = newPlatform();
  const doc = pythonDeployMutation({ name: "py-cpu", imageName: "ubuntu:22.04", instanceId: "cpu3c-2-4", containerDiskInGb: 10, env: { A: "1" } });
  t.match(doc, /deployCpuPod\(/);
  t.match(doc, /templateId: "runpod-ubuntu"/);
  const { status, body } = gql(platform, ALPHA, doc);
  t.equal(status, 200, JSON.stringify(body));
  const pod = body.data!.deployCpuPod;
  t.same(Object.keys(pod).sort(), DEPLOY_FIELDS);
  checkRecord("GraphqlPod", pod);
  t.same(pod.env, ["A=1"]);
  const record = platform.pods.get("acct-alpha", pod.id)!;
  t.same(record.cpu, { id: "cpu3c", vcpuCount: 2, memory: 4 });
  t.equal(record.gpu, null);
  t.equal(record.template, null, "an unknown template id is accepted and not recorded");

  // With a known template and no image, the client writes imageName: "None": the template's image is used.
  const tpl = gql(platform, ALPHA, pythonDeployMutation({ name: "py-cpu-tpl", imageName: null, instanceId: "cpu3g-4-16", templateId: "tpl-ubuntu-cpu" }));
  t.equal(tpl.status, 200, JSON.stringify(tpl.body));
  const template = catalog.templates.find((x) => x.id === "tpl-ubuntu-cpu")!;
  t.equal(tpl.body.data!.deployCpuPod.imageName, template.image);
});

t.test("create_pod(name, image) without gpu_type_id or instance_id (the client's documented CPU pod) → deployCpuPod without instanceId: the default size cpu3c-2-4", async (t) => {
  const platform = newPlatform();
  const doc = pythonDeployMutation({ name: "py-cpu-default", imageName: "runpod/stack", containerDiskInGb: 10 });
  t.notMatch(doc, /instanceId/, "the client sends no instanceId");
  const { status, body } = gql(platform, ALPHA, doc);
  t.equal(status, 200, JSON.stringify(body));
  t.notOk(body.errors, "no errors");
  const pod = body.data!.deployCpuPod;
  checkRecord("GraphqlPod", pod);
  t.same(platform.pods.get("acct-alpha", pod.id)!.cpu, { id: "cpu3c", vcpuCount: 2, memory: 4 });
});

t.test("stop_pod, resume_pod, terminate_pod and get_pod(s), as the client sends them", async (t) => {
  const platform = newPlatform();
  const created = gql(platform, ALPHA, pythonDeployMutation({ name: "life", imageName: "ubuntu:22.04", gpuTypeId: RTX4090, gpuCount: 1, ports: "8888/http,22/tcp" }));
  const id = created.body.data!.podFindAndDeployOnDemand.id as string;
  platform.advanceTo(platform.now + minutes(5));

  const list = gql(platform, ALPHA, pythonPodsQuery());
  t.equal(list.status, 200);
  const pods = list.body.data!.myself.pods as any[];
  t.equal(pods.length, 1);
  const p = pods[0];
  checkRecord("GraphqlPod", p);
  t.equal(p.id, id);
  t.equal(p.desiredStatus, "RUNNING");
  t.equal(p.gpuCount, 1);
  t.equal(p.podType, "RESERVED");
  t.equal(p.port, 8888);
  t.equal(p.ports, "8888/http,22/tcp");
  t.ok(p.costPerHr > 0);
  t.type(p.lastStatusChange, "string");
  t.ok(p.uptimeSeconds > 0, "running for a while");
  t.same(Object.keys(p.runtime), ["ports"]);
  t.equal(p.runtime.ports.length, 2);
  for (const port of p.runtime.ports) t.same(Object.keys(port).sort(), ["ip", "isIpPublic", "privatePort", "publicPort", "type"]);
  t.same(p.machine, { gpuDisplayName: "RTX 4090" });

  const one = gql(platform, ALPHA, pythonPodQuery(id));
  t.same(one.body.data!.pod, p, "get_pod answers what get_pods listed");
  const newer = gql(platform, ALPHA, pythonPodQuery(id, MACHINE_FIELDS_NEWER));
  t.equal(newer.status, 200, JSON.stringify(newer.body));
  const machine = newer.body.data!.pod.machine;
  t.type(machine.gpuAvailable, "number");
  t.same([machine.maintenanceStart, machine.maintenanceEnd, machine.maintenanceNote], [null, null, null]);

  const stopped = gql(platform, ALPHA, pythonStopMutation(id));
  t.same(stopped.body, { data: { podStop: { id, desiredStatus: "EXITED" } } });

  const resumed = gql(platform, ALPHA, pythonResumeMutation(id, 1));
  t.equal(resumed.status, 200);
  const r = resumed.body.data!.podResume;
  checkRecord("GraphqlPod", r);
  t.same(Object.keys(r).sort(), ["desiredStatus", ...DEPLOY_FIELDS].sort());
  t.equal(r.desiredStatus, "RUNNING");

  const terminated = gql(platform, ALPHA, pythonTerminateMutation(id));
  t.same(terminated.body, { data: { podTerminate: null } });
  t.equal(platform.pods.get("acct-alpha", id)!.status, "TERMINATED");
});

t.test("get_gpus and get_gpu", async (t) => {
  const platform = newPlatform();
  const all = gql(platform, ALPHA, pythonGpuTypesQuery);
  t.equal(all.status, 200);
  const types = all.body.data!.gpuTypes as any[];
  t.equal(types.length, catalog.gpuTypes.length);
  for (const g of types) {
    t.same(Object.keys(g), ["id", "displayName", "memoryInGb"]);
    checkRecord("GraphqlGpuType", g);
  }

  const one = gql(platform, ALPHA, pythonGpuQuery(RTX4090, 2));
  t.equal(one.status, 200);
  const [g] = one.body.data!.gpuTypes as any[];
  const fixture = catalog.gpuTypes.find((x) => x.id === RTX4090)!;
  t.match(g, {
    id: RTX4090,
    displayName: fixture.displayName,
    manufacturer: "Nvidia",
    memoryInGb: fixture.memoryInGb,
    cudaCores: fixture.cudaCores,
    maxGpuCount: fixture.maxGpuCount,
    secureCloud: true,
    communityCloud: true,
    securePrice: fixture.securePrice,
    communityPrice: fixture.communityPrice,
    secureSpotPrice: fixture.secureSpotPrice,
    communitySpotPrice: fixture.communitySpotPrice,
    oneWeekPrice: fixture.oneWeekPrice,
    oneMonthPrice: fixture.oneMonthPrice,
    threeMonthPrice: fixture.threeMonthPrice,
  });
  t.same(Object.keys(g.lowestPrice), ["minimumBidPrice", "uninterruptablePrice"]);
  const live = platform.gpuStock.lowestPrice(RTX4090, { gpuCount: 2 })!;
  t.equal(g.lowestPrice.uninterruptablePrice, live.uninterruptablePrice);
  t.equal(g.lowestPrice.minimumBidPrice, live.minimumBidPrice);
  checkRecord("GraphqlGpuType", g);

  t.same(gql(platform, ALPHA, pythonGpuQuery("NVIDIA Nonexistent 1")).body, { data: { gpuTypes: [] } }, "an unknown id lists nothing");
});
