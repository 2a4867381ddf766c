/**
 * GPU stock: every GPU host's GPUs, split into free, used by the platform (pods and serverless
 * workers, through leases) and used by outside tenants (a seeded process that makes stock move
 * over time). It is the GpuPool that serverless workers take GPUs from, and the source of every
 * stock view: free counts, stockStatus, availableGpuCounts and lowestPrice.
 *
 * Host indices are indices into `catalog.hosts` (CPU hosts simply have no GPUs), so a host index
 * means the same thing to the stock, the scheduler and the pods.
 */
import type { Engine, Rng } from "../../core/index.ts";
import type { Catalog, GpuHost, GpuType } from "../../catalog/index.ts";
import type { CloudChoice, GpuLease, GpuPool, GpuRequest } from "../gpu-pool.ts";
import { chooseHost } from "./choose-host.ts";
import { LeaseError } from "./errors.ts";
import { OutsideDemand, resolveOutsideOptions, type OutsideDemandOptions } from "./outside-demand.ts";
import { gpuCountSteps, stockStatusFor, type StockStatus } from "./stock-status.ts";

export type GpuStockOptions = OutsideDemandOptions;

/** Which hosts a view counts: a cloud (default ALL) and optionally one data center. */
export interface StockScope {
  readonly cloud?: CloudChoice;
  readonly dataCenterId?: string;
}

/** GraphQL `lowestPrice`: prices are USD per GPU per hour; null where the offer does not exist. */
export interface LowestPrice {
  readonly uninterruptablePrice: number | null;
  readonly minimumBidPrice: number | null;
  readonly stockStatus: StockStatus;
  readonly availableGpuCounts: number[];
}

export interface GpuAvailability {
  readonly gpuTypeId: string;
  readonly displayName: string;
  readonly stockStatus: StockStatus;
}

export interface GpuStockTotals {
  readonly total: number;
  readonly platformUsed: number;
  readonly outsideUsed: number;
  readonly free: number;
}

export type FreedListener = () => void;

export class GpuStock implements GpuPool {
  readonly catalog: Catalog;
  /** GPUs per host (0 on CPU hosts), indexed like catalog.hosts. */
  private readonly totalGpus: Int32Array;
  private readonly platformGpus: Int32Array;
  private readonly outsideGpus: Int32Array;
  private readonly hostsByType = new Map<string, number[]>();
  private readonly typeById = new Map<string, GpuType>();
  private readonly hostIndexById = new Map<string, number>();
  /** Live platform leases; bounded by the number of GPUs, since every lease holds at least one. */
  private readonly leases = new Set<GpuLease>();
  private readonly listeners: FreedListener[] = [];
  private readonly outside: OutsideDemand;

  constructor(engine: Engine, catalog: Catalog, rng: Rng, options: GpuStockOptions = {}) {
    this.catalog = catalog;
    const n = catalog.hosts.length;
    this.totalGpus = new Int32Array(n);
    this.platformGpus = new Int32Array(n);
    this.outsideGpus = new Int32Array(n);
    for (const type of catalog.gpuTypes) {
      this.typeById.set(type.id, type);
      this.hostsByType.set(type.id, []);
    }
    catalog.hosts.forEach((host, i) => {
      this.hostIndexById.set(host.id, i);
      if (host.kind !== "gpu") return;
      this.totalGpus[i] = host.gpuCount;
      let list = this.hostsByType.get(host.gpuTypeId);
      if (!list) this.hostsByType.set(host.gpuTypeId, (list = []));
      list.push(i);
    });
    this.outside = new OutsideDemand(engine, rng.fork("outside"), resolveOutsideOptions(options), {
      hostIds: catalog.hosts.map((h) => h.id),
      total: this.totalGpus,
      used: this.outsideGpus,
      free: (h) => this.free(h),
      freed: () => this.notify(),
    });
  }

  // ---- GpuPool ----

  acquire(request: GpuRequest): GpuLease | undefined {
    const cloud = request.cloud ?? "ALL";
    const dcs = request.dataCenterIds ?? [];
    const count = request.count;
    if (!(Number.isSafeInteger(count) && count >= 1)) return undefined;
    for (const typeId of request.gpuTypeIds) {
      const candidates = this.hostsByType.get(typeId);
      if (!candidates) continue;
      const h = chooseHost(candidates, (i) => this.free(i), count, (i) => {
        const host = this.catalog.hosts[i] as GpuHost;
        return (cloud === "ALL" || host.cloud === cloud) && (dcs.length === 0 || dcs.includes(host.dataCenterId));
      });
      if (h >= 0) return this.take(h, count);
    }
    return undefined;
  }

  release(lease: GpuLease): void {
    if (!this.leases.delete(lease)) {
      throw new LeaseError(`lease of ${lease.count} GPU(s) on host ${lease.hostId} is not live (released twice, or not granted by this stock)`, lease.hostId);
    }
    this.platformGpus[lease.hostIndex] -= lease.count;
    this.notify();
  }

  /** Returns a function that removes the listener. */
  onFreed(listener: FreedListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Takes `count` GPUs on one given host (a stopped pod resuming on its machine), or undefined when they are not free. */
  acquireOnHost(hostIndex: number, count: number): GpuLease | undefined {
    if (!(hostIndex >= 0 && hostIndex < this.totalGpus.length) || !(Number.isSafeInteger(count) && count >= 1)) return undefined;
    if (this.free(hostIndex) < count) return undefined;
    return this.take(hostIndex, count);
  }

  // ---- per host ----

  get hostCount(): number {
    return this.totalGpus.length;
  }

  hostIndexOf(hostId: string): number | undefined {
    return this.hostIndexById.get(hostId);
  }

  total(hostIndex: number): number {
    return this.totalGpus[hostIndex];
  }

  free(hostIndex: number): number {
    return this.totalGpus[hostIndex] - this.platformGpus[hostIndex] - this.outsideGpus[hostIndex];
  }

  platformUsed(hostIndex: number): number {
    return this.platformGpus[hostIndex];
  }

  outsideUsed(hostIndex: number): number {
    return this.outsideGpus[hostIndex];
  }

  /** Live platform leases, for invariant checkers. */
  liveLeases(): ReadonlySet<GpuLease> {
    return this.leases;
  }

  /** Live outside-tenant leases as [hostIndex, count] pairs, for invariant checkers. */
  outsideLeases(): Array<[number, number]> {
    return this.outside.leases();
  }

  /** GPU host indices of one type, in catalog order. */
  hostsOfType(gpuTypeId: string): readonly number[] {
    return this.hostsByType.get(gpuTypeId) ?? [];
  }

  gpuType(gpuTypeId: string): GpuType | undefined {
    return this.typeById.get(gpuTypeId);
  }

  // ---- outside demand ----

  /** Changes the outside tenants' offered load from now on (0 stops new arrivals; running leases end as drawn). */
  setOutsideIntensity(intensity: number): void {
    this.outside.setIntensity(intensity);
  }

  get outsideIntensity(): number {
    return this.outside.intensity;
  }

  // ---- views (pure reads: no draws, no events) ----

  freeGpus(gpuTypeId: string, scope: StockScope = {}): number {
    let sum = 0;
    for (const h of this.hostsInScope(gpuTypeId, scope)) sum += this.free(h);
    return sum;
  }

  /** Places where a pod of `gpuCount` GPUs could start now: the sum of floor(free / gpuCount). */
  slots(gpuTypeId: string, gpuCount: number, scope: StockScope = {}): number {
    if (!(gpuCount >= 1)) return 0;
    let sum = 0;
    for (const h of this.hostsInScope(gpuTypeId, scope)) sum += Math.floor(this.free(h) / gpuCount);
    return sum;
  }

  stockStatus(gpuTypeId: string, options: StockScope & { readonly gpuCount?: number } = {}): StockStatus {
    const gpuCount = options.gpuCount ?? 1;
    const type = this.typeById.get(gpuTypeId);
    if (!type || gpuCount > type.maxGpuCount) return "None";
    return stockStatusFor(this.slots(gpuTypeId, gpuCount, options));
  }

  /** Counts n in 1, 2, 4, ... up to the type's maxGpuCount such that some host in scope has n free. */
  availableGpuCounts(gpuTypeId: string, scope: StockScope = {}): number[] {
    const type = this.typeById.get(gpuTypeId);
    if (!type) return [];
    let most = 0;
    for (const h of this.hostsInScope(gpuTypeId, scope)) most = Math.max(most, this.free(h));
    return gpuCountSteps(type.maxGpuCount).filter((n) => n <= most);
  }

  /**
   * GraphQL `lowestPrice(input: {gpuCount, secureCloud?})`. `secureCloud` true reads the secure
   * cloud, false the community cloud, absent both. The price is the lowest per-GPU price among
   * the clouds in scope that can place `gpuCount` GPUs now; when none can, the lowest list price
   * among the clouds that offer the type (so a price is shown beside stockStatus None). Undefined
   * for an unknown GPU type.
   */
  lowestPrice(gpuTypeId: string, input: { readonly gpuCount?: number; readonly secureCloud?: boolean | null } = {}): LowestPrice | undefined {
    const type = this.typeById.get(gpuTypeId);
    if (!type) return undefined;
    const gpuCount = input.gpuCount ?? 1;
    const clouds: Array<"SECURE" | "COMMUNITY"> =
      input.secureCloud === true ? ["SECURE"] : input.secureCloud === false ? ["COMMUNITY"] : ["SECURE", "COMMUNITY"];
    const offers = clouds
      .map((cloud) => ({
        cloud,
        price: cloud === "SECURE" ? type.securePrice : type.communityPrice,
        spot: cloud === "SECURE" ? type.secureSpotPrice : type.communitySpotPrice,
        slots: gpuCount <= type.maxGpuCount ? this.slots(gpuTypeId, gpuCount, { cloud }) : 0,
      }))
      .filter((o) => o.price !== null);
    const inStock = offers.filter((o) => o.slots > 0);
    const pool = inStock.length > 0 ? inStock : offers;
    const min = (values: Array<number | null>): number | null => {
      const present = values.filter((v): v is number => v !== null);
      return present.length === 0 ? null : Math.min(...present);
    };
    const countSet = new Set<number>();
    for (const o of offers) for (const n of this.availableGpuCounts(gpuTypeId, { cloud: o.cloud })) countSet.add(n);
    return {
      uninterruptablePrice: min(pool.map((o) => o.price)),
      minimumBidPrice: min(pool.map((o) => o.spot)),
      stockStatus: stockStatusFor(offers.reduce((s, o) => s + o.slots, 0)),
      availableGpuCounts: [...countSet].sort((a, b) => a - b),
    };
  }

  /** Per data center: each GPU type with hosts there and its stockStatus for one GPU (GraphQL `dataCenters { gpuAvailability }`). */
  gpuAvailability(dataCenterId: string, cloud: CloudChoice = "ALL"): GpuAvailability[] {
    const out: GpuAvailability[] = [];
    for (const type of this.catalog.gpuTypes) {
      const hosts = this.hostsInScope(type.id, { cloud, dataCenterId });
      if (hosts.length === 0) continue;
      out.push({ gpuTypeId: type.id, displayName: type.displayName, stockStatus: this.stockStatus(type.id, { cloud, dataCenterId }) });
    }
    return out;
  }

  totals(): GpuStockTotals {
    let total = 0;
    let platformUsed = 0;
    let outsideUsed = 0;
    for (let h = 0; h < this.totalGpus.length; h++) {
      total += this.totalGpus[h];
      platformUsed += this.platformGpus[h];
      outsideUsed += this.outsideGpus[h];
    }
    return { total, platformUsed, outsideUsed, free: total - platformUsed - outsideUsed };
  }

  // ---- internals ----

  private hostsInScope(gpuTypeId: string, scope: StockScope): number[] {
    const cloud = scope.cloud ?? "ALL";
    const dc = scope.dataCenterId;
    const hosts = this.hostsByType.get(gpuTypeId) ?? [];
    return hosts.filter((h) => {
      const host = this.catalog.hosts[h] as GpuHost;
      return (cloud === "ALL" || host.cloud === cloud) && (dc === undefined || host.dataCenterId === dc);
    });
  }

  private take(hostIndex: number, count: number): GpuLease {
    const host = this.catalog.hosts[hostIndex] as GpuHost;
    this.platformGpus[hostIndex] += count;
    const lease: GpuLease = {
      hostIndex,
      hostId: host.id,
      gpuTypeId: host.gpuTypeId,
      count,
      dataCenterId: host.dataCenterId,
      cloud: host.cloud,
    };
    this.leases.add(lease);
    return lease;
  }

  private notify(): void {
    // A copy, so a listener that unsubscribes (or subscribes) while being called changes nothing this round.
    for (const listener of [...this.listeners]) listener();
  }
}
