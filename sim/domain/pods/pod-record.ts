/**
 * A pod as the registry keeps it. Everything a view needs is on the record (prices, display
 * names, the host's ids), so podRestView and podGraphqlView are functions of (pod, now) alone.
 * Callers get it read-only; only the registry changes it.
 */
import type { EventHandle, Micros, Rng } from "../../core/index.ts";
import type { GpuLease } from "../gpu-pool.ts";
import type { CpuLease } from "../stock/index.ts";
import type { PodStatus } from "./pod-status.ts";

export interface PodMounts {
  readonly persistent?: { readonly size: number; readonly path: string };
  readonly network?: readonly { readonly volumeId: string; readonly path: string }[];
}

export interface PodGpu {
  readonly id: string;
  readonly count: number;
  readonly displayName: string;
}

export interface PodCpu {
  readonly id: string;
  readonly vcpuCount: number;
  /** GB, vcpuCount x the flavor's ramGbPerVcpu. */
  readonly memory: number;
}

export interface PodGlobalAddress {
  readonly ip: string;
  readonly internalDns: string;
}

export interface PodRecord {
  /** Index in the registry's table; the target of the pod's engine events. */
  readonly slot: number;
  readonly id: string;
  readonly accountId: string;
  /** A 32-bit seed drawn at create: read-time values (utilization, ports) hash it. */
  readonly seed: number;
  readonly name: string;
  readonly image: string;
  readonly args: string;
  readonly disk: number;
  readonly ports: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly registry: string | null;
  readonly mounts: PodMounts;
  /** Exactly one of gpu and cpu is set. */
  readonly gpu: PodGpu | null;
  readonly cpu: PodCpu | null;
  readonly cloud: "SECURE" | "COMMUNITY";
  readonly dataCenterId: string;
  readonly hostIndex: number;
  readonly hostId: string;
  /** GraphQL machineId and machine.podHostId, derived from the host and the pod. */
  readonly machineId: string;
  readonly podHostId: string;
  /** The pod's share of its host. */
  readonly vcpuCount: number;
  readonly memoryInGb: number;
  readonly template: string | null;
  /** The CUDA versions the pod accepted at create (empty = any); kept so fit can be re-checked. */
  readonly allowedCudaVersions: readonly string[];
  /** The data center of its network volume at create, or null. */
  readonly networkVolumeDataCenterId: string | null;
  /** USD per hour of the GPUs (price of the host's cloud x count) or of the vCPUs, fixed at placement. */
  readonly computePricePerHour: number;
  /** USD per GB-hour of storage, from the registry's options. */
  readonly storagePricePerGbHour: number;
  readonly locked: boolean;
  readonly globalAddress: PodGlobalAddress | null;
  readonly status: PodStatus;
  readonly createdAt: Micros;
  /** When the current container became RUNNING; null when not RUNNING. */
  readonly startedAt: Micros | null;
  readonly lastStatusChange: Micros;
  /** The verb of the last change, GraphQL's lastStatusChange prefix ("Rented by User" ...). */
  readonly lastStatusVerb: string;
  /** Container starts so far; changes docker ids and public port mappings per start. */
  readonly starts: number;
  readonly gpuLease: GpuLease | undefined;
  readonly cpuLease: CpuLease | undefined;
  /** The pending automatic transition (or, once TERMINATED, the drop). */
  readonly event: EventHandle | undefined;
  /** The pod's own stream (delays, failures), forked by pod id. */
  readonly rng: Rng;
  readonly terminatedAt: Micros | null;
  /** The wall-clock instant of virtual time 0 (ms since 1970), for dates in views. */
  readonly epochMs: number;
  /** Runtime utilization is constant within buckets of this length. */
  readonly runtimeBucket: Micros;
}

export type MutablePod = { -readonly [K in keyof PodRecord]: PodRecord[K] };
