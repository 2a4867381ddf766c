/**
 * No pod sits on a host that does not fit it: the host still satisfies every constraint the pod
 * was placed under (GPU type and count or CPU flavor and vCPUs, cloud, data center, CUDA versions,
 * global networking, the network volume's data center), and what the pod holds is on that host
 * and of its size.
 */
import type { Catalog } from "../../catalog/index.ts";
import type { PodRegistry } from "../pods/index.ts";
import { misfit, type PlacementRequest } from "../scheduler/index.ts";

export interface PodHostFitState {
  readonly pods: PodRegistry;
  readonly catalog: Catalog;
}

export const podHostFit = {
  id: "pods.host-fits",
  title: "no pod on a host that does not fit it",
  check(state: PodHostFitState): string[] {
    const out: string[] = [];
    for (const pod of state.pods.all()) {
      const host = state.catalog.hosts[pod.hostIndex];
      if (!host || host.id !== pod.hostId) {
        out.push(`pod ${pod.id}: host index ${pod.hostIndex} is not host ${pod.hostId}`);
        continue;
      }
      if (host.dataCenterId !== pod.dataCenterId) out.push(`pod ${pod.id}: dataCenterId ${pod.dataCenterId}, host is in ${host.dataCenterId}`);
      if (host.cloud !== pod.cloud) out.push(`pod ${pod.id}: cloud ${pod.cloud}, host is ${host.cloud}`);
      const common = {
        cloud: pod.cloud,
        dataCenterIds: [pod.dataCenterId],
        globalNetworking: pod.globalAddress !== null,
        networkVolumeDataCenterId: pod.networkVolumeDataCenterId,
      };
      const request: PlacementRequest = pod.gpu
        ? { kind: "gpu", ...common, gpuTypeIds: [pod.gpu.id], gpuCount: pod.gpu.count, allowedCudaVersions: pod.allowedCudaVersions }
        : { kind: "cpu", ...common, cpuFlavorId: pod.cpu!.id, vcpuCount: pod.cpu!.vcpuCount };
      const why = misfit(request, host, state.catalog);
      if (why !== undefined) out.push(`pod ${pod.id} on ${host.id}: ${why}`);
      if (pod.gpuLease && (pod.gpuLease.hostIndex !== pod.hostIndex || pod.gpuLease.count !== pod.gpu?.count)) {
        out.push(`pod ${pod.id}: holds ${pod.gpuLease.count} GPUs on ${pod.gpuLease.hostId}, expected ${pod.gpu?.count ?? 0} on ${pod.hostId}`);
      }
      if (pod.cpuLease && (pod.cpuLease.hostIndex !== pod.hostIndex || pod.cpuLease.vcpuCount !== pod.cpu?.vcpuCount || pod.cpuLease.memoryInGb !== pod.cpu?.memory)) {
        out.push(`pod ${pod.id}: holds ${pod.cpuLease.vcpuCount} vCPUs on ${pod.cpuLease.hostId}, expected ${pod.cpu?.vcpuCount ?? 0} on ${pod.hostId}`);
      }
    }
    return out;
  },
};
