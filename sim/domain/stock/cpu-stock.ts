/**
 * CPU stock: vCPUs and memory of every CPU host, taken by CPU pods through leases. A CPU pod of
 * v vCPUs of a flavor takes v vCPUs and v * ramGbPerVcpu GB on one host that serves the flavor.
 * There is no outside demand on CPU hosts: the spec says nothing of CPU scarcity, and the GPU
 * side is where stock-outs matter.
 */
import type { Catalog, CpuFlavor, CpuHost } from "../../catalog/index.ts";
import type { CloudChoice } from "../gpu-pool.ts";
import { LeaseError } from "./errors.ts";
import { stockStatusFor, type StockStatus } from "./stock-status.ts";

export interface CpuLease {
  readonly hostIndex: number;
  readonly hostId: string;
  readonly vcpuCount: number;
  readonly memoryInGb: number;
  readonly dataCenterId: string;
  readonly cloud: "SECURE" | "COMMUNITY";
}

export interface CpuScope {
  readonly cloud?: CloudChoice;
  readonly dataCenterId?: string;
}

export interface CpuAvailability {
  readonly cpuFlavorId: string;
  readonly stockStatus: StockStatus;
}

export class CpuStock {
  readonly catalog: Catalog;
  private readonly totalVcpu: Int32Array;
  private readonly usedVcpu: Int32Array;
  private readonly totalMem: Int32Array;
  private readonly usedMem: Int32Array;
  private readonly hostsByFlavor = new Map<string, number[]>();
  private readonly flavorById = new Map<string, CpuFlavor>();
  /** Live leases; bounded by the vCPUs of all hosts, since every lease holds at least one. */
  private readonly leases = new Set<CpuLease>();
  private readonly listeners: Array<() => void> = [];

  constructor(catalog: Catalog) {
    this.catalog = catalog;
    const n = catalog.hosts.length;
    this.totalVcpu = new Int32Array(n);
    this.usedVcpu = new Int32Array(n);
    this.totalMem = new Int32Array(n);
    this.usedMem = new Int32Array(n);
    for (const f of catalog.cpuFlavors) {
      this.flavorById.set(f.id, f);
      this.hostsByFlavor.set(f.id, []);
    }
    catalog.hosts.forEach((host, i) => {
      if (host.kind !== "cpu") return;
      this.totalVcpu[i] = host.vcpuCount;
      this.totalMem[i] = host.memoryInGb;
      for (const f of host.cpuFlavorIds) this.hostsByFlavor.get(f)?.push(i);
    });
  }

  flavor(cpuFlavorId: string): CpuFlavor | undefined {
    return this.flavorById.get(cpuFlavorId);
  }

  /** CPU host indices serving a flavor, in catalog order. */
  hostsOfFlavor(cpuFlavorId: string): readonly number[] {
    return this.hostsByFlavor.get(cpuFlavorId) ?? [];
  }

  totalVcpus(hostIndex: number): number {
    return this.totalVcpu[hostIndex];
  }

  freeVcpus(hostIndex: number): number {
    return this.totalVcpu[hostIndex] - this.usedVcpu[hostIndex];
  }

  usedVcpus(hostIndex: number): number {
    return this.usedVcpu[hostIndex];
  }

  totalMemory(hostIndex: number): number {
    return this.totalMem[hostIndex];
  }

  freeMemory(hostIndex: number): number {
    return this.totalMem[hostIndex] - this.usedMem[hostIndex];
  }

  usedMemory(hostIndex: number): number {
    return this.usedMem[hostIndex];
  }

  /** Takes vCPUs and memory on one host, or undefined when they are not free. */
  acquireOnHost(hostIndex: number, vcpuCount: number, memoryInGb: number): CpuLease | undefined {
    const host = this.catalog.hosts[hostIndex];
    if (!host || host.kind !== "cpu" || !(vcpuCount >= 1) || !(memoryInGb >= 0)) return undefined;
    if (this.freeVcpus(hostIndex) < vcpuCount || this.freeMemory(hostIndex) < memoryInGb) return undefined;
    this.usedVcpu[hostIndex] += vcpuCount;
    this.usedMem[hostIndex] += memoryInGb;
    const lease: CpuLease = { hostIndex, hostId: host.id, vcpuCount, memoryInGb, dataCenterId: host.dataCenterId, cloud: host.cloud };
    this.leases.add(lease);
    return lease;
  }

  release(lease: CpuLease): void {
    if (!this.leases.delete(lease)) {
      throw new LeaseError(`CPU lease of ${lease.vcpuCount} vCPU(s) on host ${lease.hostId} is not live (released twice, or not granted by this stock)`, lease.hostId);
    }
    this.usedVcpu[lease.hostIndex] -= lease.vcpuCount;
    this.usedMem[lease.hostIndex] -= lease.memoryInGb;
    for (const l of [...this.listeners]) l();
  }

  onFreed(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  liveLeases(): ReadonlySet<CpuLease> {
    return this.leases;
  }

  /** Pods of `vcpuCount` vCPUs of the flavor that could start now, summed over hosts in scope. */
  slots(cpuFlavorId: string, vcpuCount: number, scope: CpuScope = {}): number {
    const flavor = this.flavorById.get(cpuFlavorId);
    if (!flavor || !(vcpuCount >= 1)) return 0;
    const mem = vcpuCount * flavor.ramGbPerVcpu;
    const cloud = scope.cloud ?? "ALL";
    let sum = 0;
    for (const h of this.hostsOfFlavor(cpuFlavorId)) {
      const host = this.catalog.hosts[h] as CpuHost;
      if (cloud !== "ALL" && host.cloud !== cloud) continue;
      if (scope.dataCenterId !== undefined && host.dataCenterId !== scope.dataCenterId) continue;
      if (!flavor.dataCenterIds.includes(host.dataCenterId)) continue;
      sum += Math.min(Math.floor(this.freeVcpus(h) / vcpuCount), Math.floor(this.freeMemory(h) / Math.max(1, mem)));
    }
    return sum;
  }

  /** stockStatus of a flavor at its smallest size (or `vcpuCount`), with the GPU thresholds. */
  stockStatus(cpuFlavorId: string, options: CpuScope & { readonly vcpuCount?: number } = {}): StockStatus {
    const flavor = this.flavorById.get(cpuFlavorId);
    if (!flavor) return "None";
    const vcpu = options.vcpuCount ?? Math.min(...flavor.vcpuCounts);
    return stockStatusFor(this.slots(cpuFlavorId, vcpu, options));
  }

  /** Per data center: each flavor offered there and its stockStatus (REST catalog `cpuAvailability`). */
  cpuAvailability(dataCenterId: string): CpuAvailability[] {
    return this.catalog.cpuFlavors
      .filter((f) => f.dataCenterIds.includes(dataCenterId))
      .map((f) => ({ cpuFlavorId: f.id, stockStatus: this.stockStatus(f.id, { dataCenterId }) }));
  }
}
