/**
 * The catalog the generators draw from: GPU types, CPU flavors, network volumes and data
 * centers, as ids with the few facts createPod checks. The conformance suite builds one from a
 * target's own catalog reads; `sampleCatalog` is a small fixed one for tests, chosen so that
 * every rule can be broken (an AMD GPU, a flavor lacking a power of two, data centers with and
 * without global networking, volumes in both).
 */
import type { CreatePodContext } from "./validate-create-pod.ts";

export interface ArbitraryCatalog {
  readonly gpuTypes: readonly { readonly id: string; readonly manufacturer: string }[];
  readonly cpuFlavors: readonly { readonly id: string; readonly vcpuCounts: readonly number[] }[];
  readonly networkVolumes: readonly { readonly id: string; readonly dataCenterId: string }[];
  readonly dataCenters: readonly { readonly id: string; readonly globalNetwork: boolean }[];
  /** The caller's container registry credentials; without them `registry` is not checked. */
  readonly registries?: readonly { readonly id: string }[];
}

export const sampleCatalog: ArbitraryCatalog = {
  gpuTypes: [
    { id: "NVIDIA GeForce RTX 4090", manufacturer: "Nvidia" },
    { id: "NVIDIA A100 80GB PCIe", manufacturer: "Nvidia" },
    { id: "AMD Instinct MI300X OAM", manufacturer: "AMD" },
  ],
  cpuFlavors: [
    { id: "cpu3c", vcpuCounts: [2, 4, 8, 16, 32] },
    { id: "cpu5g", vcpuCounts: [2, 4, 8] },
  ],
  networkVolumes: [
    { id: "vol-eu-ro-1", dataCenterId: "EU-RO-1" },
    { id: "vol-us-ks-2", dataCenterId: "US-KS-2" },
    { id: "vol-us-tx-3", dataCenterId: "US-TX-3" },
  ],
  dataCenters: [
    { id: "EU-RO-1", globalNetwork: true },
    { id: "US-KS-2", globalNetwork: false },
    { id: "US-TX-3", globalNetwork: true },
    { id: "CA-MTL-1", globalNetwork: false },
  ],
  registries: [{ id: "reg-sample-ghcr" }],
};

/** The lookups validateCreatePod needs, answered from a catalog. */
export function catalogContext(catalog: ArbitraryCatalog): CreatePodContext {
  const index = <T extends { readonly id: string }>(list: readonly T[]) => new Map(list.map((x) => [x.id, x]));
  const gpus = index(catalog.gpuTypes);
  const flavors = index(catalog.cpuFlavors);
  const volumes = index(catalog.networkVolumes);
  const dataCenters = index(catalog.dataCenters);
  const registries = catalog.registries === undefined ? undefined : index(catalog.registries);
  return {
    gpuType: (id) => gpus.get(id),
    cpuFlavor: (id) => flavors.get(id),
    networkVolume: (id) => volumes.get(id),
    dataCenter: (id) => dataCenters.get(id),
    ...(registries === undefined ? {} : { registry: (id: string) => registries.get(id) }),
  };
}

export const isNvidia = (gpu: { readonly manufacturer: string }): boolean => gpu.manufacturer.toLowerCase() === "nvidia";
