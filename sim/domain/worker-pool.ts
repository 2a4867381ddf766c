/**
 * The pool serverless workers take their machines from: GPU stock for GPU endpoints, CPU stock
 * for CPU endpoints (a request with `cpu` sizes). Pods and workers share both stocks. A CPU lease
 * is handed to the serverless model in the GpuLease shape it knows: `gpuTypeId` names the
 * instance (`cpu3c-2-4`) and `count` is 0 GPUs, so worker views and health read it unchanged.
 */
import type { GpuLease, GpuPool, GpuRequest } from "./gpu-pool.ts";
import { chooseHost } from "./stock/choose-host.ts";
import type { CpuLease, CpuStock, GpuStock } from "./stock/index.ts";

export function workerPool(gpu: GpuStock, cpu: CpuStock): GpuPool {
  // Worker lease → the CPU lease behind it; a lease not in here is a GPU lease.
  const cpuLeases = new Map<GpuLease, CpuLease>();
  return {
    acquire(request: GpuRequest): GpuLease | undefined {
      if (request.cpu === undefined || request.cpu.length === 0) return gpu.acquire(request);
      const dcs = request.dataCenterIds ?? [];
      for (const size of request.cpu) {
        const candidates = cpu.hostsOfFlavor(size.flavorId).filter((h) => dcs.length === 0 || dcs.includes(cpu.catalog.hosts[h]!.dataCenterId));
        const h = chooseHost(candidates, (i) => cpu.freeVcpus(i), size.vcpuCount, (i) => cpu.freeMemory(i) >= size.memoryInGb);
        if (h < 0) continue;
        const inner = cpu.acquireOnHost(h, size.vcpuCount, size.memoryInGb);
        if (inner === undefined) continue;
        const lease: GpuLease = Object.freeze({
          hostIndex: h,
          hostId: inner.hostId,
          gpuTypeId: `${size.flavorId}-${size.vcpuCount}-${size.memoryInGb}`,
          count: 0,
          dataCenterId: inner.dataCenterId,
          cloud: inner.cloud,
        });
        cpuLeases.set(lease, inner);
        return lease;
      }
      return undefined;
    },
    release(lease: GpuLease): void {
      const inner = cpuLeases.get(lease);
      if (inner === undefined) return gpu.release(lease);
      cpuLeases.delete(lease);
      cpu.release(inner);
    },
    onFreed(listener: () => void): void {
      gpu.onFreed(listener);
      cpu.onFreed(listener);
    },
  };
}
