/**
 * Whether a host can ever hold a request, free capacity aside: the static half of placement.
 * The scheduler filters with it, and the invariant "no pod on a host that does not fit it"
 * re-checks every placed pod with it, so both read the constraints from one place.
 */
import type { Catalog, GpuHost, Host } from "../../catalog/index.ts";
import { catalogIndex } from "./catalog-index.ts";
import type { PlacementRequest } from "./placement-request.ts";

/** The first reason `host` cannot hold `request`, or undefined when it can. */
export function misfit(request: PlacementRequest, host: Host, catalog: Catalog): string | undefined {
  const index = catalogIndex(catalog);
  if (request.cloud !== "ALL" && host.cloud !== request.cloud) return `cloud ${host.cloud}, not ${request.cloud}`;
  if (request.dataCenterIds.length > 0 && !request.dataCenterIds.includes(host.dataCenterId)) {
    return `data center ${host.dataCenterId} not among ${request.dataCenterIds.join(", ")}`;
  }
  const volumeDc = request.networkVolumeDataCenterId;
  if (volumeDc != null && host.dataCenterId !== volumeDc) return `data center ${host.dataCenterId}, the network volume is in ${volumeDc}`;
  const dc = index.dataCenter.get(host.dataCenterId);
  if (request.kind === "gpu") {
    if (host.kind !== "gpu") return "not a GPU host";
    if (!request.gpuTypeIds.includes(host.gpuTypeId)) return `GPU type ${host.gpuTypeId}`;
    if (!(Number.isSafeInteger(request.gpuCount) && request.gpuCount >= 1)) return `GPU count ${request.gpuCount}`;
    if (host.gpuCount < request.gpuCount) return `${host.gpuCount} GPUs, fewer than ${request.gpuCount}`;
    const cuda = request.allowedCudaVersions ?? [];
    if (cuda.length > 0 && (host.cudaVersion === null || !cuda.includes(host.cudaVersion))) {
      return `CUDA ${host.cudaVersion ?? "none"} not among ${cuda.join(", ")}`;
    }
    if (request.globalNetworking) {
      if (index.gpuType.get(host.gpuTypeId)?.manufacturer !== "Nvidia") return "global networking needs an NVIDIA GPU";
      if (!dc?.globalNetwork) return `data center ${host.dataCenterId} has no global networking`;
    }
    const share = gpuShare(host, request.gpuCount);
    if (request.minVcpuCount !== undefined && share.vcpuCount < request.minVcpuCount) return `${share.vcpuCount} vCPUs, fewer than ${request.minVcpuCount}`;
    if (request.minMemoryInGb !== undefined && share.memoryInGb < request.minMemoryInGb) return `${share.memoryInGb} GB, less than ${request.minMemoryInGb}`;
    return undefined;
  }
  if (host.kind !== "cpu") return "not a CPU host";
  if (request.globalNetworking) return "global networking needs an NVIDIA GPU";
  const flavor = index.cpuFlavor.get(request.cpuFlavorId);
  if (!flavor) return `unknown CPU flavor ${request.cpuFlavorId}`;
  if (!host.cpuFlavorIds.includes(flavor.id)) return `does not serve flavor ${flavor.id}`;
  if (!flavor.dataCenterIds.includes(host.dataCenterId)) return `flavor ${flavor.id} is not offered in ${host.dataCenterId}`;
  if (!(flavor.vcpuCounts as readonly number[]).includes(request.vcpuCount)) return `flavor ${flavor.id} has no ${request.vcpuCount}-vCPU size`;
  if (host.vcpuCount < request.vcpuCount) return `${host.vcpuCount} vCPUs, fewer than ${request.vcpuCount}`;
  if (host.memoryInGb < request.vcpuCount * flavor.ramGbPerVcpu) return `${host.memoryInGb} GB, less than ${request.vcpuCount * flavor.ramGbPerVcpu}`;
  return undefined;
}

/** A GPU pod's share of its host's vCPUs and memory: the host's per-GPU share times the pod's GPUs. */
export function gpuShare(host: GpuHost, gpuCount: number): { vcpuCount: number; memoryInGb: number } {
  return {
    vcpuCount: Math.floor(host.vcpuCount / host.gpuCount) * gpuCount,
    memoryInGb: Math.floor(host.memoryInGb / host.gpuCount) * gpuCount,
  };
}
