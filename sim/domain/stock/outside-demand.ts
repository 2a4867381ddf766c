/**
 * Outside tenants: the rest of the world renting the same hosts, so that stock moves over time.
 *
 * Each GPU host runs its own loss system. Tenants arrive as a Poisson process, each asks for
 * 1, 2, 4 or 8 GPUs (weighted, sizes above the host's GPU count left out) and holds them for an
 * exponential time; a tenant that does not fit is turned away. The arrival rate is set so that
 * the offered load is `intensity` of the host's GPUs:
 *
 *     rate = intensity * gpus / (mean size * mean hold)
 *
 * Every host draws from its own stream, forked by host id, and every arrival draws the same three
 * numbers (size, hold, next gap) whether or not it fits, so the outside process's randomness is
 * the same whatever the platform does: only what fits changes.
 */
import type { Engine, EventHandle, EventKind, Micros, Rng } from "../../core/index.ts";
import { hours } from "../../core/index.ts";
import { StockOptionError } from "./errors.ts";

export interface OutsideDemandOptions {
  /** Offered load of outside tenants as a fraction of each host's GPUs; 0 switches them off. Default 0.5. */
  readonly outsideIntensity?: number;
  /** Mean time an outside tenant keeps its GPUs, in virtual microseconds. Default 1 hour. */
  readonly outsideMeanHold?: Micros;
  /** Weights of outside lease sizes 1, 2, 4, 8 GPUs (index i asks for 2^i). Default [0.55, 0.25, 0.12, 0.08]. */
  readonly outsideSizeWeights?: readonly number[];
  /** Start in the steady state (hosts already partly taken) instead of empty. Default true. */
  readonly outsideWarmStart?: boolean;
}

export interface ResolvedOutsideOptions {
  readonly outsideIntensity: number;
  readonly outsideMeanHold: Micros;
  readonly outsideSizeWeights: readonly number[];
  readonly outsideWarmStart: boolean;
}

export const DEFAULT_OUTSIDE_OPTIONS: ResolvedOutsideOptions = Object.freeze({
  outsideIntensity: 0.5,
  outsideMeanHold: hours(1),
  outsideSizeWeights: Object.freeze([0.55, 0.25, 0.12, 0.08]),
  outsideWarmStart: true,
});

export function resolveOutsideOptions(options: OutsideDemandOptions): ResolvedOutsideOptions {
  const r = { ...DEFAULT_OUTSIDE_OPTIONS, ...stripUndefined(options) };
  checkIntensity(r.outsideIntensity);
  if (!(Number.isSafeInteger(r.outsideMeanHold) && r.outsideMeanHold >= 1)) {
    throw new StockOptionError("outsideMeanHold", r.outsideMeanHold, "a positive integer number of microseconds");
  }
  const w = r.outsideSizeWeights;
  if (!Array.isArray(w) || w.length === 0 || w.length > 8 || w.some((x) => !(x >= 0 && x < Infinity)) || !(w[0]! > 0)) {
    throw new StockOptionError("outsideSizeWeights", w, "1 to 8 finite non-negative weights, the first (1 GPU) positive");
  }
  return r;
}

function checkIntensity(x: number): void {
  if (!(x >= 0 && x <= 100)) throw new StockOptionError("outsideIntensity", x, "a number in [0, 100]");
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** What the outside process may see and change of the stock. */
export interface OutsideHosts {
  readonly hostIds: readonly string[];
  readonly total: Int32Array;
  /** Outside-used GPUs per host; this process is its only writer. */
  readonly used: Int32Array;
  free(hostIndex: number): number;
  /** Called after outside tenants gave GPUs back. */
  freed(): void;
}

export class OutsideDemand {
  private readonly streams: Array<Rng | undefined>;
  private readonly sizes: number[][];
  private readonly weights: number[][];
  private readonly meanSize: Float64Array;
  private readonly arrival: Array<EventHandle | undefined>;
  private readonly arriveKind: EventKind;
  private readonly departKind: EventKind;
  /** Lease table: one slot per live outside lease; a lease holds at least one GPU, so slots <= GPUs. */
  private readonly leaseHost: Int32Array;
  private readonly leaseCount: Int32Array;
  private readonly freeSlots: Int32Array;
  private freeTop: number;
  private current: number;

  constructor(
    private readonly engine: Engine,
    rng: Rng,
    private readonly options: ResolvedOutsideOptions,
    private readonly hosts: OutsideHosts,
  ) {
    const n = hosts.total.length;
    let gpus = 0;
    for (let h = 0; h < n; h++) gpus += hosts.total[h];
    this.leaseHost = new Int32Array(gpus);
    this.leaseCount = new Int32Array(gpus);
    this.freeSlots = new Int32Array(gpus);
    for (let i = 0; i < gpus; i++) this.freeSlots[i] = gpus - 1 - i;
    this.freeTop = gpus;
    this.streams = [];
    this.sizes = [];
    this.weights = [];
    this.meanSize = new Float64Array(n);
    this.arrival = new Array<EventHandle | undefined>(n).fill(undefined);
    for (let h = 0; h < n; h++) {
      const total = hosts.total[h];
      const sizes: number[] = [];
      const weights: number[] = [];
      options.outsideSizeWeights.forEach((w, i) => {
        if (2 ** i <= total && w > 0) {
          sizes.push(2 ** i);
          weights.push(w);
        }
      });
      this.sizes.push(sizes);
      this.weights.push(weights);
      const wsum = weights.reduce((a, b) => a + b, 0);
      this.meanSize[h] = wsum > 0 ? sizes.reduce((a, s, i) => a + s * weights[i]!, 0) / wsum : 0;
      // Forked by id (encoded: fork labels may not hold "/"), so adding a host shifts no other host's draws.
      this.streams.push(total > 0 ? rng.fork(`host:${encodeURIComponent(hosts.hostIds[h]!)}`) : undefined);
    }
    this.arriveKind = engine.defineKind("stock.outside.arrive", (h) => this.arrive(h));
    this.departKind = engine.defineKind("stock.outside.depart", (slot) => this.depart(slot));
    this.current = options.outsideIntensity;
    if (this.current > 0 && options.outsideWarmStart) this.warmStart();
    this.scheduleArrivals();
  }

  get intensity(): number {
    return this.current;
  }

  setIntensity(intensity: number): void {
    checkIntensity(intensity);
    for (let h = 0; h < this.arrival.length; h++) {
      const handle = this.arrival[h];
      if (handle !== undefined) this.engine.cancel(handle);
      this.arrival[h] = undefined;
    }
    this.current = intensity;
    this.scheduleArrivals();
  }

  leases(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let i = 0; i < this.leaseCount.length; i++) if (this.leaseCount[i] > 0) out.push([this.leaseHost[i], this.leaseCount[i]]);
    return out;
  }

  /** Mean time between arrivals on a host, in microseconds; Infinity when the host gets none. */
  private meanGap(h: number): number {
    const total = this.hosts.total[h];
    if (this.current <= 0 || total <= 0 || this.meanSize[h] <= 0) return Infinity;
    return (this.options.outsideMeanHold * this.meanSize[h]) / (this.current * total);
  }

  /** The M/G/inf steady state: Poisson(rate * mean hold) tenants, each with an exponential residual hold. */
  private warmStart(): void {
    for (let h = 0; h < this.hosts.total.length; h++) {
      const rng = this.streams[h];
      const gap = this.meanGap(h);
      if (!rng || gap === Infinity) continue;
      const count = rng.poisson(this.options.outsideMeanHold / gap);
      for (let i = 0; i < count; i++) {
        const size = rng.weightedChoice(this.sizes[h]!, this.weights[h]!);
        const hold = rng.exponential(this.options.outsideMeanHold);
        this.tryTake(h, size, hold);
      }
    }
  }

  private scheduleArrivals(): void {
    for (let h = 0; h < this.hosts.total.length; h++) {
      const rng = this.streams[h];
      const gap = this.meanGap(h);
      if (!rng || gap === Infinity) continue;
      this.arrival[h] = this.engine.after(toMicros(rng.exponential(gap)), this.arriveKind, h);
    }
  }

  private arrive(h: number): void {
    const rng = this.streams[h]!;
    const size = rng.weightedChoice(this.sizes[h]!, this.weights[h]!);
    const hold = rng.exponential(this.options.outsideMeanHold);
    const gap = rng.exponential(this.meanGap(h));
    this.tryTake(h, size, hold);
    this.arrival[h] = this.engine.after(toMicros(gap), this.arriveKind, h);
  }

  private tryTake(h: number, size: number, hold: number): void {
    if (this.hosts.free(h) < size || this.freeTop === 0) return;
    const slot = this.freeSlots[--this.freeTop];
    this.leaseHost[slot] = h;
    this.leaseCount[slot] = size;
    this.hosts.used[h] += size;
    this.engine.after(toMicros(hold), this.departKind, slot);
  }

  private depart(slot: number): void {
    const h = this.leaseHost[slot];
    this.hosts.used[h] -= this.leaseCount[slot];
    this.leaseCount[slot] = 0;
    this.freeSlots[this.freeTop++] = slot;
    this.hosts.freed();
  }
}

/** About 31 years: a far tail (or a tiny intensity) must not push an event past the clock's range. */
const MAX_DELAY: Micros = 1e15;

/** At least one microsecond, so an event never lands at the instant that drew it. */
function toMicros(x: number): Micros {
  return Math.max(1, Math.round(Math.min(x, MAX_DELAY)));
}
