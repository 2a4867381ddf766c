import t from "tap";
import { catalogContext, sampleCatalog } from "./sample-catalog.ts";
import { DEFAULT_CONTAINER_DISK_GB, validateCreatePod } from "./validate-create-pod.ts";

const ctx = catalogContext(sampleCatalog);
const gpuBody = { name: "train", image: "runpod/pytorch:2.4.0", gpu: { id: "NVIDIA GeForce RTX 4090" } };
const cpuBody = { name: "batch", image: "ubuntu:22.04", cpu: { id: "cpu5g", vcpuCount: 4 } };
const ids = (r: ReturnType<typeof validateCreatePod>) => (r.ok ? [] : r.violations.map((v) => v.ruleId));

t.test("a minimal GPU body gets every default", async (t) => {
  const r = validateCreatePod(gpuBody, ctx);
  t.same(r, {
    ok: true,
    value: {
      name: "train",
      image: "runpod/pytorch:2.4.0",
      args: "",
      disk: DEFAULT_CONTAINER_DISK_GB,
      ports: [],
      env: {},
      registry: null,
      cloud: "SECURE",
      dataCenterIds: [],
      globalNetworking: false,
      mounts: {},
      kind: "gpu",
      gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 },
    },
  });
});

t.test("a CPU body keeps flavor and count and never carries memory", async (t) => {
  const r = validateCreatePod({ ...cpuBody, mounts: { network: [{ volumeId: "vol-us-ks-2", path: "/data" }] } }, ctx);
  t.ok(r.ok);
  if (r.ok && r.value.kind === "cpu") {
    t.same(r.value.cpu, { id: "cpu5g", vcpuCount: 4 });
    t.same(r.value.mounts, { network: [{ volumeId: "vol-us-ks-2", path: "/data" }] });
  }
  t.same(ids(validateCreatePod({ ...cpuBody, cpu: { ...cpuBody.cpu, memory: 8 } }, ctx)), ["pods.create.unknown-property"]);
});

t.test("both or neither of gpu and cpu is 400", async (t) => {
  const both = validateCreatePod({ ...gpuBody, cpu: cpuBody.cpu }, ctx);
  t.match(both, { ok: false, status: 400, violations: [{ ruleId: "pods.create.gpu-cpu-exclusive", path: "", message: /both gpu and cpu/ }] });
  const neither = validateCreatePod({ name: "n", image: "i" }, ctx);
  t.match(neither, { ok: false, status: 400, violations: [{ ruleId: "pods.create.gpu-cpu-exclusive", message: /neither gpu nor cpu/ }] });
});

t.test("the spec's mount statuses: both mounts 400, incomplete entry 422, persistent on CPU 400", async (t) => {
  const both = validateCreatePod(
    { ...gpuBody, mounts: { persistent: { size: 20, path: "/w" }, network: [{ volumeId: "vol-eu-ro-1", path: "/w" }] } },
    ctx,
  );
  t.match(both, { status: 400, violations: [{ ruleId: "pods.create.mounts-exclusive", path: "/mounts" }] });
  const incomplete = validateCreatePod({ ...gpuBody, mounts: { network: [{ volumeId: "vol-eu-ro-1" }] } }, ctx);
  t.match(incomplete, { status: 422, violations: [{ ruleId: "pods.create.mount-entry-incomplete", path: "/mounts/network/0/path" }] });
  t.match(validateCreatePod({ ...gpuBody, mounts: { network: [] } }, ctx), {
    status: 400,
    violations: [{ ruleId: "pods.create.network-empty-array", path: "/mounts/network" }],
  });
  const onCpu = validateCreatePod({ ...cpuBody, mounts: { persistent: { size: 20, path: "/w" } } }, ctx);
  t.match(onCpu, { status: 400, violations: [{ ruleId: "pods.create.persistent-on-cpu", path: "/mounts/persistent" }] });
});

t.test("vCPU counts: minimum 2 (422), power of two (400), offered by the flavor (400), one violation each", async (t) => {
  const count = (n: number) => validateCreatePod({ ...cpuBody, cpu: { id: "cpu5g", vcpuCount: n } }, ctx);
  t.match(count(1), { status: 422, violations: [{ ruleId: "pods.create.vcpu-minimum" }] });
  t.same(ids(count(1)), ["pods.create.vcpu-minimum"], "1 is a power of two, so only the minimum is broken");
  t.match(count(6), { status: 400, violations: [{ ruleId: "pods.create.vcpu-power-of-two", message: /6, which is not a power of two/ }] });
  t.match(count(16), { status: 400, violations: [{ ruleId: "pods.create.vcpu-valid-for-flavor", message: /send one of 2, 4, 8/ }] });
  t.match(count(2.5), { status: 422, violations: [{ ruleId: "pods.create.field-type", message: /whole number/ }] });
});

t.test("unknown references are 400 and name what to send", async (t) => {
  t.match(validateCreatePod({ ...gpuBody, gpu: { id: "GeForce 256" } }, ctx), {
    status: 400,
    violations: [{ ruleId: "pods.create.unknown-gpu-type", path: "/gpu/id", message: /GET \/v2\/catalog\/gpus/ }],
  });
  t.match(validateCreatePod({ ...cpuBody, cpu: { id: "cpu9z", vcpuCount: 2 } }, ctx), {
    status: 400,
    violations: [{ ruleId: "pods.create.unknown-cpu-flavor", message: /GET \/v2\/catalog\/cpus/ }],
  });
  t.match(validateCreatePod({ ...gpuBody, mounts: { network: [{ volumeId: "vol-x", path: "/w" }] } }, ctx), {
    status: 400,
    violations: [{ ruleId: "pods.create.unknown-network-volume", path: "/mounts/network/0/volumeId" }],
  });
  t.match(validateCreatePod({ ...gpuBody, dataCenterIds: ["EU-RO-1", "MARS-1"] }, ctx), {
    status: 400,
    violations: [{ ruleId: "pods.create.unknown-data-center", path: "/dataCenterIds/1" }],
  });
  t.match(
    validateCreatePod({ ...gpuBody, dataCenterIds: ["EU-RO-1"], mounts: { network: [{ volumeId: "vol-us-ks-2", path: "/w" }] } }, ctx),
    { status: 400, violations: [{ ruleId: "pods.create.network-volume-data-center", message: /add "US-KS-2" to dataCenterIds/ }] },
  );
  t.ok(validateCreatePod({ ...gpuBody, mounts: { network: [{ volumeId: "vol-us-ks-2", path: "/w" }] } }, ctx).ok, "no data center named: the scheduler follows the volume");
});

t.test("global networking needs an NVIDIA GPU and an eligible data center", async (t) => {
  const amd = { ...gpuBody, gpu: { id: "AMD Instinct MI300X OAM" }, globalNetworking: true };
  t.same(ids(validateCreatePod(amd, ctx)), ["pods.create.global-networking-nvidia"]);
  t.same(ids(validateCreatePod({ ...cpuBody, globalNetworking: true }, ctx)), ["pods.create.global-networking-nvidia"]);
  t.same(ids(validateCreatePod({ ...gpuBody, globalNetworking: true, dataCenterIds: ["US-KS-2"] }, ctx)), ["pods.create.global-networking-data-center"]);
  t.same(
    ids(validateCreatePod({ ...gpuBody, globalNetworking: true, mounts: { network: [{ volumeId: "vol-us-ks-2", path: "/w" }] } }, ctx)),
    ["pods.create.global-networking-data-center"],
    "the volume pins the pod to a data center without global networking",
  );
  t.ok(validateCreatePod({ ...gpuBody, globalNetworking: true, dataCenterIds: ["US-KS-2", "EU-RO-1"] }, ctx).ok);
  t.ok(validateCreatePod({ ...gpuBody, globalNetworking: true }, ctx).ok, "the scheduler may pick an eligible data center");
});

t.test("schema failures are 422 with one violation each, all listed", async (t) => {
  const r = validateCreatePod(
    { name: "", gpu: { id: "NVIDIA GeForce RTX 4090", count: 0 }, disk: 0, ports: ["8888"], env: { A: 1 }, cloud: "ALL" },
    ctx,
  );
  t.equal(r.ok ? 0 : r.status, 422);
  t.same(ids(r).sort(), [
    "pods.create.cloud-enum", "pods.create.disk-minimum", "pods.create.env-string-values", "pods.create.gpu-count-minimum",
    "pods.create.image-required", "pods.create.name-min-length", "pods.create.port-format",
  ]);
  if (!r.ok) for (const v of r.violations) t.match(v.message, /; send /, `${v.ruleId} says what to send`);
});

t.test("a body that is not an object is refused as such", async (t) => {
  for (const body of [null, [], "pod", 3, undefined]) {
    t.match(validateCreatePod(body, ctx), { ok: false, status: 422, violations: [{ ruleId: "pods.create.field-type", path: "" }] });
  }
});

t.test("a 400 outranks 422s: the status is 400 when any violated rule answers 400", async (t) => {
  const r = validateCreatePod({ name: "", image: "i", gpu: gpuBody.gpu, cpu: cpuBody.cpu }, ctx);
  t.match(r, { ok: false, status: 400 });
  t.same(ids(r).sort(), ["pods.create.gpu-cpu-exclusive", "pods.create.name-min-length"]);
});
