/**
 * A small GpuPool for tests, benchmarks and planners that do not need the real stock: a number of
 * free GPUs per type on one notional host each. Release notifies listeners synchronously, as the
 * real stock does.
 */
import { SimError } from "../../core/index.ts";
import type { GpuLease, GpuPool, GpuRequest } from "../gpu-pool.ts";

export class TestPool implements GpuPool {
  private readonly free = new Map<string, number>();
  private readonly listeners: (() => void)[] = [];
  private readonly out = new Set<GpuLease>();

  constructor(freeByType: Readonly<Record<string, number>>) {
    for (const [type, n] of Object.entries(freeByType)) this.free.set(type, n);
  }

  acquire(request: GpuRequest): GpuLease | undefined {
    for (const type of request.gpuTypeIds) {
      const n = this.free.get(type) ?? 0;
      if (n >= request.count) {
        this.free.set(type, n - request.count);
        const lease: GpuLease = { hostIndex: 0, hostId: `host-${type}`, gpuTypeId: type, count: request.count, dataCenterId: "dc-test", cloud: "SECURE" };
        this.out.add(lease);
        return lease;
      }
    }
    return undefined;
  }

  release(lease: GpuLease): void {
    if (!this.out.delete(lease)) throw new SimError("a GPU lease was released twice", "CPSIM_ERR_LEASE_RELEASED_TWICE");
    this.free.set(lease.gpuTypeId, (this.free.get(lease.gpuTypeId) ?? 0) + lease.count);
    for (const listener of this.listeners) listener();
  }

  onFreed(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** GPUs of a type not leased. */
  available(type: string): number {
    return this.free.get(type) ?? 0;
  }

  /** Takes GPUs away (outside demand), without a lease. */
  take(type: string, n: number): void {
    this.free.set(type, (this.free.get(type) ?? 0) - n);
  }

  /** Gives GPUs back (outside demand ended) and notifies, as a real release does. */
  give(type: string, n: number): void {
    this.free.set(type, (this.free.get(type) ?? 0) + n);
    for (const listener of this.listeners) listener();
  }

  get leases(): number {
    return this.out.size;
  }
}
