// How podFindAndDeployOnDemand and deployCpuPod map their input onto createPod, and how they
// refuse input: one BAD_USER_INPUT error naming every problem in GraphQL's field names.
import t, { type Test } from "tap";
import { ALPHA, RTX4090, catalog, gql, newPlatform } from "./test-support.ts";

type Fields = Record<string, string | number | boolean | null>;
const lit = (v: unknown): string => (typeof v === "string" && /^[A-Z]+$/.test(v) ? v : JSON.stringify(v));
const inputOf = (fields: Fields, extra = "") => `{${Object.entries(fields).map(([k, v]) => `${k}: ${lit(v)}`).join(", ")}${extra}}`;
const gpu = (fields: Fields, extra = "") => `mutation { podFindAndDeployOnDemand(input: ${inputOf(fields, extra)}) { id } }`;
const cpu = (fields: Fields, extra = "") => `mutation { deployCpuPod(input: ${inputOf(fields, extra)}) { id } }`;
const BASE = { name: "p", imageName: "ubuntu:22.04", gpuTypeId: RTX4090 };

function refused(t: Test, doc: string, field: string, pattern: RegExp) {
  const platform = newPlatform();
  const r = gql(platform, ALPHA, doc);
  t.equal(r.status, 200);
  const e = r.body.errors?.[0] as any;
  t.equal(e?.extensions.code, "BAD_USER_INPUT", doc);
  t.ok(e?.extensions.problems.some((p: any) => p.field === field), `problem on ${field}: ${JSON.stringify(e?.extensions.problems)}`);
  t.match(e?.message, pattern);
  t.equal(platform.pods.size, 0);
}

t.test("GPU input problems, in GraphQL's words", async (t) => {
  refused(t, gpu({ ...BASE, gpuTypeId: "NVIDIA GeForce RTX 9999" }), "gpuTypeId", /"NVIDIA GeForce RTX 9999" is not a GPU type; send an id listed by gpuTypes/);
  refused(t, gpu({ name: "p", imageName: "x" }), "gpuTypeId", /No GPU type was named.*deployCpuPod/);
  refused(t, gpu({ ...BASE, gpuCount: 0 }), "gpuCount", /gpuCount is 0/);
  refused(t, gpu({ ...BASE, name: "" }), "name", /name is missing or empty/);
  refused(t, gpu({ ...BASE, imageName: null }), "imageName", /imageName is missing/);
  refused(t, gpu({ ...BASE, containerDiskInGb: 0 }), "containerDiskInGb", /1 or more/);
  refused(t, gpu({ ...BASE, volumeInGb: 5 }), "volumeInGb", /at least 10 GB/);
  refused(t, gpu({ ...BASE, ports: "8888,22/tcp" }), "ports", /ports entry "8888" is not of the form port\/protocol/);
  refused(t, gpu({ ...BASE, dataCenterId: "XX-YY-9" }), "dataCenterId", /not a data center/);
  refused(t, gpu({ ...BASE, networkVolumeId: "vol-alpha-euro1", dataCenterId: "US-TX-3" }), "dataCenterId", /is in EU-RO-1/);
  refused(t, gpu({ ...BASE, gpuTypeId: "AMD Instinct MI300X OAM", globalNetwork: true }), "globalNetwork", /needs an NVIDIA GPU/);
  refused(t, gpu({ ...BASE, globalNetwork: true, dataCenterId: "US-CA-2" }), "globalNetwork", /US-CA-2 does not/);
  refused(t, gpu({ ...BASE, minVcpuCount: -1 }), "minVcpuCount", /0 or more/);
  refused(t, gpu(BASE, ', env: [{key: "A=B", value: "1"}]'), "env[0].key", /must not contain "="/);
  refused(t, gpu(BASE, ', env: [{key: "__proto__", value: "1"}]'), "env", /__proto__/);
});

t.test("several problems: one error listing each", async (t) => {
  const r = gql(newPlatform(), ALPHA, gpu({ name: "", imageName: "x", gpuTypeId: "nope", gpuCount: 0 }));
  const e = r.body.errors![0] as any;
  t.equal(e.extensions.problems.length, 3);
  t.match(e.message, /^podFindAndDeployOnDemand: the input has 3 problems: /);
});

t.test("gpuTypeIdList: tried in order until one places", async (t) => {
  const platform = newPlatform();
  const r = gql(platform, ALPHA, gpu({ name: "l", imageName: "x", gpuCount: 8, cloudType: "COMMUNITY" }, ', gpuTypeIdList: ["NVIDIA H200", "NVIDIA GeForce RTX 3080", "NVIDIA GeForce RTX 4090"]'));
  t.equal(r.status, 200, JSON.stringify(r.body));
  // H200 has no community cloud and a 3080 machine holds at most 6: the 4090 is the first that fits.
  t.equal(platform.pods.get("acct-alpha", r.body.data!.podFindAndDeployOnDemand.id)!.gpu!.id, RTX4090);
  const none = gql(platform, ALPHA, gpu({ name: "l", imageName: "x", gpuCount: 8, cloudType: "COMMUNITY" }, ', gpuTypeIdList: ["NVIDIA H200"]'));
  t.equal(none.body.errors![0]!.extensions.code, "NO_CAPACITY");
});

t.test("cloudType, dataCenterId and globalNetwork reach the scheduler", async (t) => {
  const platform = newPlatform();
  for (const cloudType of ["SECURE", "COMMUNITY"]) {
    const r = gql(platform, ALPHA, gpu({ ...BASE, cloudType }));
    t.equal(platform.pods.get("acct-alpha", r.body.data!.podFindAndDeployOnDemand.id)!.cloud, cloudType);
  }
  const dc = gql(platform, ALPHA, gpu({ ...BASE, dataCenterId: "EU-RO-1", globalNetwork: true }));
  const pod = platform.pods.get("acct-alpha", dc.body.data!.podFindAndDeployOnDemand.id)!;
  t.equal(pod.dataCenterId, "EU-RO-1");
  t.ok(pod.globalAddress, "globally networked");
});

t.test("storage: pod volume, network volume (which wins over volumeInGb), none", async (t) => {
  const platform = newPlatform();
  const mounts = (doc: string) => platform.pods.get("acct-alpha", gql(platform, ALPHA, doc).body.data!.podFindAndDeployOnDemand.id)!.mounts;
  t.same(mounts(gpu({ ...BASE, volumeInGb: 10 })), { persistent: { size: 10, path: "/workspace" } }, "default mount path");
  t.same(mounts(gpu({ ...BASE, volumeInGb: 30, networkVolumeId: "vol-alpha-usks2", volumeMountPath: "/mnt" })), { network: [{ volumeId: "vol-alpha-usks2", path: "/mnt" }] });
  t.same(mounts(gpu({ ...BASE, volumeInGb: 0 })), {});
});

t.test("templates fill what the input leaves out; the input wins", async (t) => {
  const platform = newPlatform();
  const tpl = catalog.templates.find((x) => x.id === "tpl-pytorch-2-4")!;
  const r = gql(platform, ALPHA, gpu({ name: "t", gpuTypeId: RTX4090, templateId: tpl.id }, ', env: [{key: "X", value: "1"}]'));
  const pod = platform.pods.get("acct-alpha", r.body.data!.podFindAndDeployOnDemand.id)!;
  t.equal(pod.image, tpl.image);
  t.equal(pod.disk, tpl.disk);
  t.same(pod.ports, tpl.ports);
  t.same(pod.mounts, { persistent: { size: tpl.volumeInGb, path: tpl.volumeMountPath } });
  t.same(pod.env, { ...tpl.env, X: "1" });
  t.equal(pod.template, tpl.id);
  const own = gql(platform, ALPHA, gpu({ ...BASE, templateId: "tpl-beta-sim" }));
  t.equal(platform.pods.get("acct-alpha", own.body.data!.podFindAndDeployOnDemand.id)!.template, null, "another account's template is not applied");
});

t.test("deployCpuPod: instanceId forms and refusals", async (t) => {
  const platform = newPlatform();
  const ok = (instanceId: string) => gql(platform, ALPHA, cpu({ name: "c", imageName: "ubuntu", instanceId }));
  t.same(platform.pods.get("acct-alpha", ok("cpu3g-8-32").body.data!.deployCpuPod.id)!.cpu, { id: "cpu3g", vcpuCount: 8, memory: 32 });
  t.same(platform.pods.get("acct-alpha", ok("cpu5c-4").body.data!.deployCpuPod.id)!.cpu, { id: "cpu5c", vcpuCount: 4, memory: 8 }, "the memory part is optional");
  refused(t, cpu({ name: "c", imageName: "u", instanceId: "cpu9z-2-4" }), "instanceId", /names no CPU flavor; .*cpu3c/);
  refused(t, cpu({ name: "c", imageName: "u", instanceId: "cpu3c" }), "instanceId", /names no size; send .*cpu3c-2-4/);
  refused(t, cpu({ name: "c", imageName: "u", instanceId: "cpu3c-3-6" }), "instanceId", /no 3-vCPU size; send one of cpu3c-2-4, cpu3c-4-8/);
  refused(t, cpu({ name: "c", imageName: "u", instanceId: "cpu3c-2-8" }), "instanceId", /has 4 GB of memory, not 8; send cpu3c-2-4/);
  refused(t, cpu({ name: "c", imageName: "u", instanceId: "cpu3c-2-4", volumeInGb: 20 }), "volumeInGb", /not available on CPU pods/);
  const nv = gql(platform, ALPHA, cpu({ name: "c", imageName: "u", instanceId: "cpu3c-2-4", networkVolumeId: "vol-alpha-euro1" }));
  const pod = platform.pods.get("acct-alpha", nv.body.data!.deployCpuPod.id)!;
  t.same(pod.mounts, { network: [{ volumeId: "vol-alpha-euro1", path: "/workspace" }] });
  t.equal(pod.dataCenterId, "EU-RO-1");
});
