/** Breakers of the createPod rules (see breaker-helpers.ts for what a breaker promises). */
import type { RuleId } from "../rules/index.ts";
import type { CreatePodRequest } from "../schemas/index.ts";
import { copy, MOUNT_PATH, variant, type Draft } from "./breaker-helpers.ts";
import { isNvidia, sampleCatalog, type ArbitraryCatalog } from "./sample-catalog.ts";
import { isPowerOfTwo } from "./validate-create-pod.ts";

export type CreateBreaker = (body: CreatePodRequest, catalog: ArbitraryCatalog) => unknown;

const POWERS_OF_TWO = [2, 4, 8, 16, 32, 64, 128, 256];

function usableFlavor(catalog: ArbitraryCatalog): { id: string; vcpuCount: number } | undefined {
  for (const f of catalog.cpuFlavors) {
    const n = f.vcpuCounts.find((c) => c >= 2 && isPowerOfTwo(c));
    if (f.id !== "" && n !== undefined) return { id: f.id, vcpuCount: n };
  }
  return undefined;
}

/** The body as a GPU pod on `gpu` (an NVIDIA type when there is one). */
function asGpuPod(d: Draft, catalog: ArbitraryCatalog, gpu = catalog.gpuTypes.find(isNvidia) ?? catalog.gpuTypes[0]): Draft | undefined {
  if (gpu === undefined) return undefined;
  delete d.cpu;
  d.gpu = { id: gpu.id };
  if (!isNvidia(gpu)) delete d.globalNetworking;
  return d;
}

/** The body as a CPU pod: no persistent mount, no global networking. */
function asCpuPod(d: Draft, catalog: ArbitraryCatalog): Draft | undefined {
  const cpu = usableFlavor(catalog);
  if (cpu === undefined) return undefined;
  delete d.gpu;
  d.cpu = cpu;
  if (d.mounts?.persistent !== undefined) delete d.mounts.persistent;
  delete d.globalNetworking;
  return d;
}

/** Gives the body `entries` copies of a network mount on a volume its data centers allow. */
function withNetworkMount(d: Draft, catalog: ArbitraryCatalog, entries: number): Draft | undefined {
  const globalDc = new Set(catalog.dataCenters.filter((dc) => dc.globalNetwork).map((dc) => dc.id));
  const named: string[] = Array.isArray(d.dataCenterIds) ? d.dataCenterIds : [];
  let volume = catalog.networkVolumes.find(
    (v) => (named.length === 0 || named.includes(v.dataCenterId)) && (d.globalNetworking !== true || globalDc.has(v.dataCenterId)),
  );
  if (volume === undefined) {
    volume = catalog.networkVolumes[0];
    if (volume === undefined) return undefined;
    delete d.dataCenterIds;
    delete d.globalNetworking;
  }
  const entry = { volumeId: volume.id, path: MOUNT_PATH };
  d.mounts = { network: Array.from({ length: entries }, () => ({ ...entry })) };
  return d;
}

export const createPodBreakers: Readonly<Partial<Record<RuleId, CreateBreaker>>> = {
  "pods.create.unknown-property": (b) => ({ ...copy(b), gpuCount: 1 }),
  "pods.create.field-type": (b) => ({ ...copy(b), args: 42 }),
  "pods.create.name-required": (b) => {
    const d = copy(b);
    delete d.name;
    return d;
  },
  "pods.create.name-min-length": (b) => ({ ...copy(b), name: "" }),
  "pods.create.image-required": (b) => {
    const d = copy(b);
    delete d.image;
    return d;
  },
  "pods.create.disk-minimum": (b) => ({ ...copy(b), disk: 0 }),
  "pods.create.port-format": (b) => ({ ...copy(b), ports: [["8888"], ["http/8888"], ["70000/tcp"]][variant(b, 3)] }),
  "pods.create.env-string-values": (b) => ({ ...copy(b), env: { ...(b.env ?? {}), PORT: 8888 } }),
  "pods.create.cloud-enum": (b) => ({ ...copy(b), cloud: "PRIVATE" }),
  "pods.create.gpu-id-required": (b, c) => {
    const d = asGpuPod(copy(b), c);
    if (d) delete d.gpu.id;
    return d;
  },
  "pods.create.gpu-count-minimum": (b, c) => {
    const d = asGpuPod(copy(b), c);
    if (d) d.gpu.count = 0;
    return d;
  },
  "pods.create.cpu-id-required": (b, c) => {
    const d = asCpuPod(copy(b), c);
    if (d) delete d.cpu.id;
    return d;
  },
  "pods.create.cpu-id-min-length": (b, c) => {
    const d = asCpuPod(copy(b), c);
    if (d) d.cpu.id = "";
    return d;
  },
  "pods.create.vcpu-count-required": (b, c) => {
    const d = asCpuPod(copy(b), c);
    if (d) delete d.cpu.vcpuCount;
    return d;
  },
  "pods.create.vcpu-minimum": (b, c) => {
    const d = asCpuPod(copy(b), c);
    if (d) d.cpu.vcpuCount = 1;
    return d;
  },
  "pods.create.network-max-items": (b, c) => withNetworkMount(copy(b), c, 2),
  "pods.create.persistent-size-minimum": (b, c) => {
    const d = asGpuPod(copy(b), c);
    if (d) d.mounts = { persistent: { size: 5, path: MOUNT_PATH } };
    return d;
  },
  "pods.create.mount-entry-incomplete": (b, c) => {
    const d = asGpuPod(copy(b), c);
    if (d) d.mounts = [{ persistent: { size: 20 } }, { persistent: { path: MOUNT_PATH } }][variant(b, 2)];
    return d;
  },
  "pods.create.gpu-cpu-exclusive": (b, c) => {
    const d = copy(b);
    if (variant(b, 2) === 0) {
      delete d.gpu;
      delete d.cpu;
      return d;
    }
    if (d.gpu === undefined) d.gpu = { id: c.gpuTypes[0]?.id ?? "NVIDIA GeForce RTX 4090" };
    else d.cpu = usableFlavor(c) ?? { id: "cpu3c", vcpuCount: 2 };
    return d;
  },
  "pods.create.persistent-on-cpu": (b, c) => {
    const d = asCpuPod(copy(b), c);
    if (d) d.mounts = { persistent: { size: 20, path: MOUNT_PATH } };
    return d;
  },
  "pods.create.mounts-exclusive": (b, c) => {
    const gpu = asGpuPod(copy(b), c);
    const d = gpu && withNetworkMount(gpu, c, 1);
    if (d) d.mounts.persistent = { size: 20, path: MOUNT_PATH };
    return d;
  },
  "pods.create.network-empty-array": (b) => {
    const d = copy(b);
    d.mounts = { network: [] };
    return d;
  },
  "pods.create.vcpu-power-of-two": (b, c) => {
    const d = asCpuPod(copy(b), c);
    if (d) d.cpu.vcpuCount = [3, 6, 12][variant(b, 3)];
    return d;
  },
  "pods.create.vcpu-valid-for-flavor": (b, c) => {
    for (const f of c.cpuFlavors) {
      const missing = POWERS_OF_TWO.find((n) => !f.vcpuCounts.includes(n));
      if (f.id === "" || missing === undefined) continue;
      const d = asCpuPod(copy(b), c);
      if (d) d.cpu = { id: f.id, vcpuCount: missing };
      return d;
    }
    return undefined;
  },
  "pods.create.unknown-gpu-type": (b, c) => {
    const d = asGpuPod(copy(b), c) ?? copy(b);
    delete d.cpu;
    d.gpu = { id: "NVIDIA GeForce RTX 9999 (no such type)" };
    return d;
  },
  "pods.create.unknown-cpu-flavor": (b, c) => {
    const d = asCpuPod(copy(b), c);
    if (d) d.cpu.id = "cpu-no-such-flavor";
    return d;
  },
  "pods.create.unknown-network-volume": (b) => ({ ...copy(b), mounts: { network: [{ volumeId: "vol-no-such-volume", path: MOUNT_PATH }] } }),
  "pods.create.unknown-registry": (b, c) => (c.registries === undefined ? undefined : { ...copy(b), registry: "reg-no-such-registry" }),
  "pods.create.network-volume-data-center": (b, c) => {
    for (const volume of c.networkVolumes) {
      const other = c.dataCenters.find((dc) => dc.id !== volume.dataCenterId);
      if (other === undefined) continue;
      const d = copy(b);
      d.mounts = { network: [{ volumeId: volume.id, path: MOUNT_PATH }] };
      d.dataCenterIds = [other.id];
      delete d.globalNetworking;
      return d;
    }
    return undefined;
  },
  "pods.create.unknown-data-center": (b, c) => {
    // Keep the volume's data center (or an eligible one for global networking) in the list,
    // so that the unknown id is the only thing wrong with it.
    let named = b.dataCenterIds ?? [];
    const volumeId = b.mounts?.network?.[0]?.volumeId;
    const volumeDc = c.networkVolumes.find((v) => v.id === volumeId)?.dataCenterId;
    const globalDc = c.dataCenters.find((dc) => dc.globalNetwork)?.id;
    if (named.length === 0 && volumeDc !== undefined) named = [volumeDc];
    else if (named.length === 0 && b.globalNetworking === true && globalDc !== undefined) named = [globalDc];
    return { ...copy(b), dataCenterIds: [...named, "XX-NOWHERE-0"] };
  },
  "pods.create.global-networking-nvidia": (b, c) => {
    const other = c.gpuTypes.find((g) => !isNvidia(g));
    const d = other !== undefined ? asGpuPod(copy(b), c, other) : asCpuPod(copy(b), c);
    if (d) d.globalNetworking = true;
    return d;
  },
  "pods.create.global-networking-data-center": (b, c) => {
    const gpu = c.gpuTypes.find(isNvidia);
    const plain = c.dataCenters.find((dc) => !dc.globalNetwork);
    if (gpu === undefined || plain === undefined) return undefined;
    const d = asGpuPod(copy(b), c, gpu);
    if (d === undefined) return undefined;
    if (d.mounts?.network !== undefined) delete d.mounts.network;
    d.dataCenterIds = [plain.id];
    d.globalNetworking = true;
    return d;
  },
};

/** A createPod body that breaks `ruleId`, or undefined when `catalog` offers no way to. */
export function breakRule(ruleId: RuleId, body: CreatePodRequest, catalog: ArbitraryCatalog = sampleCatalog): unknown {
  const breaker = createPodBreakers[ruleId];
  if (breaker === undefined) throw new RangeError(`No createPod breaker for rule "${ruleId}".`);
  return breaker(body, catalog);
}
