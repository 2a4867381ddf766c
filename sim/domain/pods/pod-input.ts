/**
 * The normalized requests the registry applies. sim/api validates first (schemas, the spec's
 * rules, ids that must exist) and hands over these shapes; the registry re-checks only what it
 * needs to stay consistent and answers `bad-request` if something slipped through.
 *
 * The create input is the REST CreatePodRequest with the GraphQL extras (cloud ALL, CUDA
 * versions, minimum vCPUs and memory, the template id); GraphQL's volumeInGb/volumeMountPath
 * arrive as a persistent mount.
 */
import type { CloudChoice } from "../gpu-pool.ts";

export interface PersistentMountInput {
  readonly size: number;
  readonly path: string;
}

export interface NetworkMountInput {
  readonly volumeId: string;
  readonly path: string;
}

export interface MountsInput {
  readonly persistent?: PersistentMountInput;
  readonly network?: readonly NetworkMountInput[];
}

export interface PodCreateInput {
  readonly name: string;
  readonly image: string;
  /** Default "". */
  readonly args?: string;
  /** Container disk in GB; default the registry's defaultDisk (50). */
  readonly disk?: number;
  /** `port/protocol` entries; default []. */
  readonly ports?: readonly string[];
  /** Default {}. */
  readonly env?: Readonly<Record<string, string>>;
  /** Default null. */
  readonly registry?: string | null;
  /** Exactly one of gpu and cpu. */
  readonly gpu?: { readonly id: string; readonly count?: number };
  readonly cpu?: { readonly id: string; readonly vcpuCount: number };
  readonly mounts?: MountsInput;
  /** Default SECURE (the REST default); GraphQL sends ALL. */
  readonly cloud?: CloudChoice;
  /** Preferred data centers; empty or absent = any. */
  readonly dataCenterIds?: readonly string[];
  /** Default false. */
  readonly globalNetworking?: boolean;
  /** GraphQL allowedCudaVersions; empty or absent = any. */
  readonly allowedCudaVersions?: readonly string[];
  /** GraphQL minVcpuCount / minMemoryInGb (GPU pods). */
  readonly minVcpuCount?: number;
  readonly minMemoryInGb?: number;
  /** The template the pod was created from; default null. */
  readonly template?: string | null;
}

/** PATCH of a pod: the mutable fields of choices.md, each optional. */
export interface PodUpdateInput {
  readonly name?: string;
  readonly image?: string;
  readonly args?: string;
  readonly disk?: number;
  readonly ports?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly registry?: string | null;
  readonly mounts?: MountsInput;
  readonly locked?: boolean;
  readonly globalNetworking?: boolean;
}
