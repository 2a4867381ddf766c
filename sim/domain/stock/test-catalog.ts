/**
 * A small hand-made catalog for the tests of stock, scheduler and pods: few enough hosts that a
 * test can reason about each one, with every constraint the scheduler knows represented
 * (two clouds, a data center without global networking, an AMD type without CUDA, CPU hosts).
 * Not used outside tests.
 */
import type { Catalog, CpuFlavor, DataCenter, GpuType, Host } from "../../catalog/index.ts";

function gpuType(id: string, o: Partial<GpuType> = {}): GpuType {
  return {
    id,
    displayName: id.replace(/^NVIDIA (GeForce )?/, ""),
    manufacturer: "Nvidia",
    memoryInGb: 24,
    cudaCores: 10000,
    maxGpuCount: 8,
    secureCloud: true,
    communityCloud: true,
    securePrice: 0.69,
    communityPrice: 0.34,
    secureSpotPrice: 0.5,
    communitySpotPrice: 0.2,
    oneWeekPrice: 0.64,
    oneMonthPrice: 0.6,
    threeMonthPrice: 0.55,
    ...o,
  };
}

function dc(id: string, globalNetwork: boolean, cudaVersions: string[]): DataCenter {
  return { id, name: id, region: "Test", location: "Testland", globalNetwork, cudaVersions, networkVolumeTypes: ["standard"], compliance: [] };
}

let seq = 0;
function gpuHost(dataCenterId: string, cloud: "SECURE" | "COMMUNITY", gpuTypeId: string, gpuCount: number, cudaVersion: string | null): Host {
  seq++;
  return { id: `h${seq}`, kind: "gpu", dataCenterId, cloud, gpuTypeId, gpuCount, cudaVersion, vcpuCount: 16 * gpuCount, memoryInGb: 62 * gpuCount };
}

export const RTX4090 = "NVIDIA GeForce RTX 4090";
export const A100 = "NVIDIA A100 80GB PCIe";
export const MI300X = "AMD Instinct MI300X OAM";
export const L4 = "NVIDIA L4";

export function smallCatalog(): Catalog {
  seq = 0;
  const gpuTypes: GpuType[] = [
    gpuType(RTX4090),
    gpuType(A100, { memoryInGb: 80, securePrice: 1.64, communityPrice: 1.19, secureSpotPrice: 1.2, communitySpotPrice: 0.9 }),
    gpuType(MI300X, {
      manufacturer: "AMD",
      memoryInGb: 192,
      cudaCores: 0,
      communityCloud: false,
      securePrice: 2.49,
      communityPrice: null,
      communitySpotPrice: null,
      secureSpotPrice: null,
    }),
    // A type without hosts: every view of it reads None.
    gpuType(L4, { maxGpuCount: 4, communityCloud: false, communityPrice: null, communitySpotPrice: null }),
  ];
  const dataCenters = [dc("US-TX-3", true, ["12.4", "12.8"]), dc("EU-RO-1", true, ["12.1", "12.4"]), dc("CA-MTL-1", false, ["11.8", "12.4"])];
  const hosts: Host[] = [
    gpuHost("US-TX-3", "SECURE", RTX4090, 8, "12.8"),
    gpuHost("US-TX-3", "COMMUNITY", RTX4090, 4, "12.4"),
    gpuHost("EU-RO-1", "SECURE", RTX4090, 2, "12.1"),
    gpuHost("CA-MTL-1", "COMMUNITY", RTX4090, 8, "11.8"),
    gpuHost("US-TX-3", "SECURE", A100, 8, "12.4"),
    gpuHost("CA-MTL-1", "SECURE", A100, 4, "12.4"),
    gpuHost("EU-RO-1", "COMMUNITY", A100, 1, "12.4"),
    gpuHost("US-TX-3", "SECURE", MI300X, 8, null),
    { id: "c1", kind: "cpu", dataCenterId: "US-TX-3", cloud: "SECURE", cpuFlavorIds: ["cpu3c", "cpu3m"], vcpuCount: 16, memoryInGb: 64 },
    { id: "c2", kind: "cpu", dataCenterId: "EU-RO-1", cloud: "SECURE", cpuFlavorIds: ["cpu3c"], vcpuCount: 8, memoryInGb: 32 },
  ];
  const cpuFlavors: CpuFlavor[] = [
    { id: "cpu3c", name: "Compute", group: "Compute-Optimized", ramGbPerVcpu: 2, vcpuCounts: [2, 4, 8], pricePerVcpuHour: 0.03, dataCenterIds: ["US-TX-3", "EU-RO-1"] },
    { id: "cpu3m", name: "Memory", group: "Memory-Optimized", ramGbPerVcpu: 8, vcpuCounts: [2, 4, 8], pricePerVcpuHour: 0.05, dataCenterIds: ["US-TX-3"] },
  ];
  return {
    gpuTypes,
    dataCenters,
    hosts,
    cpuFlavors,
    accounts: [
      { id: "acct-a", name: "A", keys: [{ key: "key_a_full_0000000", access: "exempt", name: "a" }], rateLimits: null },
      { id: "acct-b", name: "B", keys: [{ key: "key_b_full_0000000", access: "exempt", name: "b" }], rateLimits: null },
    ],
    networkVolumes: [
      { id: "vol-tx", accountId: "acct-a", name: "tx", size: 100, dataCenterId: "US-TX-3" },
      { id: "vol-ca", accountId: "acct-a", name: "ca", size: 50, dataCenterId: "CA-MTL-1" },
    ],
    templates: [],
    registries: [],
    endpoints: [],
  };
}
