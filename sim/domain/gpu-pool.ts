/**
 * The contract between GPU stock (which owns every host's GPUs) and the things that take GPUs
 * from it: pods and serverless workers. Serverless code depends on this interface only, so it
 * can be tested with a small pool and wired to the real stock by the platform.
 */

export type CloudChoice = "SECURE" | "COMMUNITY" | "ALL";

export interface GpuRequest {
  /** GPU type ids in order of preference; the first with a fitting host wins. */
  readonly gpuTypeIds: readonly string[];
  /** GPUs on one host, at least 1. */
  readonly count: number;
  /** Default ALL. */
  readonly cloud?: CloudChoice;
  /** Preferred data centers; empty or absent = any. */
  readonly dataCenterIds?: readonly string[];
  /**
   * A CPU worker instead of GPUs (a CPU serverless endpoint): instance sizes in order of
   * preference; the first with a CPU host in stock wins. Only a pool that holds CPU stock
   * (workerPool) grants it; its lease names the instance in gpuTypeId, with count 0.
   */
  readonly cpu?: readonly CpuInstanceSize[];
}

/** One CPU instance size, as its id `cpu3c-2-4` reads: flavor, vCPUs, memory in GB. */
export interface CpuInstanceSize {
  readonly flavorId: string;
  readonly vcpuCount: number;
  readonly memoryInGb: number;
}

export interface GpuLease {
  readonly hostIndex: number;
  readonly hostId: string;
  readonly gpuTypeId: string;
  readonly count: number;
  readonly dataCenterId: string;
  readonly cloud: "SECURE" | "COMMUNITY";
}

export interface GpuPool {
  /** Takes GPUs for a lease, or returns undefined when nothing fits right now (never throws for "no capacity"). */
  acquire(request: GpuRequest): GpuLease | undefined;
  /** Gives a lease's GPUs back. Releasing a lease twice is a programming error and throws. */
  release(lease: GpuLease): void;
  /** Listeners are called synchronously, inside the engine event that freed GPUs. */
  onFreed(listener: () => void): void;
}
