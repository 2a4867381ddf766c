/** What the scheduler is asked to place: a GPU pod or a CPU pod, with every constraint it must honour. */
import type { CloudChoice } from "../gpu-pool.ts";

export interface PlacementCommon {
  /** SECURE, COMMUNITY, or ALL (GraphQL's cloudType) for either. */
  readonly cloud: CloudChoice;
  /** Preferred data centers: the pod must land in one of them; empty means any. */
  readonly dataCenterIds: readonly string[];
  /** Needs an NVIDIA GPU and a data center whose catalog entry has globalNetwork. */
  readonly globalNetworking: boolean;
  /** The data center of the network volume the pod mounts: the pod must land there. */
  readonly networkVolumeDataCenterId?: string | null;
}

export interface GpuPlacementRequest extends PlacementCommon {
  readonly kind: "gpu";
  /** GPU types in order of preference; the first with a fitting host wins. */
  readonly gpuTypeIds: readonly string[];
  readonly gpuCount: number;
  /** Host CUDA versions the pod accepts; empty or absent means any (including AMD hosts without CUDA). */
  readonly allowedCudaVersions?: readonly string[];
  /** GraphQL minVcpuCount / minMemoryInGb: the pod's share of the host must reach them. */
  readonly minVcpuCount?: number;
  readonly minMemoryInGb?: number;
}

export interface CpuPlacementRequest extends PlacementCommon {
  readonly kind: "cpu";
  readonly cpuFlavorId: string;
  readonly vcpuCount: number;
}

export type PlacementRequest = GpuPlacementRequest | CpuPlacementRequest;
