// Own code, not hdr-histogram-js: that library costs ~400 ns per value in JS (~100 ns in WASM),
// and the planner records 2-3 values per job at millions of jobs per second; this one costs ~10 ns.
/**
 * A log-linear histogram of non-negative integers (microseconds): values below 2048 are exact,
 * larger ones fall in buckets at most 1/1024 of their value wide; a percentile is reported as its
 * bucket's midpoint, within ±0.05% of the true value (RESOLUTION / 2). Count, sum, min and max are
 * exact, and a percentile is never above the max nor below the min.
 */

const SUB_BITS = 10;
const HALF = 1 << SUB_BITS; // 1024
const FULL = HALF << 1; // 2048
/** Buckets up to 2^52 µs (142 years). */
const BUCKETS = FULL + (52 - SUB_BITS) * HALF;
/** Relative width of a bucket: percentiles are exact to this fraction of their value. */
export const RESOLUTION = 1 / HALF;

export class LogHistogram {
  // Counts per bucket stay far below 2^32 (a run is bounded by its events); half the memory of floats.
  private readonly counts = new Uint32Array(BUCKETS);
  count = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;

  record(v: number): void {
    if (v < 0) v = 0;
    let idx: number;
    if (v < FULL) {
      idx = v | 0;
    } else {
      const e = v < 2147483648 ? 31 - Math.clz32(v) : Math.floor(Math.log2(v));
      const shift = e - SUB_BITS;
      const sub = v < 2147483648 ? v >>> shift : Math.floor(v / 2 ** shift);
      idx = FULL + (shift - 1) * HALF + (sub - HALF);
      if (idx >= BUCKETS) idx = BUCKETS - 1;
    }
    this.counts[idx]++;
    this.count++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }

  /** A copy with the same counts. */
  clone(): LogHistogram {
    const h = new LogHistogram();
    h.counts.set(this.counts);
    h.count = this.count;
    h.sum = this.sum;
    h.min = this.min;
    h.max = this.max;
    return h;
  }

  /** The midpoint of a bucket (exact values below 2048). */
  private static middle(idx: number): number {
    if (idx < FULL) return idx;
    const shift = Math.floor((idx - FULL) / HALF) + 1;
    return LogHistogram.lower(idx) + (2 ** shift - 1) / 2;
  }

  /** The lower bound of a bucket. */
  private static lower(idx: number): number {
    if (idx < FULL) return idx;
    const shift = Math.floor((idx - FULL) / HALF) + 1;
    const sub = ((idx - FULL) % HALF) + HALF;
    return sub * 2 ** shift;
  }

  /** Values at the given percentiles (0..100), clamped to [min, max]; 0 when empty. */
  percentiles(ps: readonly number[]): number[] {
    if (this.count === 0) return ps.map(() => 0);
    const out: number[] = [];
    // The 100th percentile is the max, exactly.
    const targets = ps.map((p) => (p >= 100 ? Infinity : Math.max(1, Math.ceil((p / 100) * this.count))));
    let seen = 0;
    let k = 0;
    const order = targets.map((t, i) => [t, i] as const).sort((a, b) => a[0] - b[0]);
    for (let idx = 0; idx < BUCKETS && k < order.length; idx++) {
      seen += this.counts[idx];
      while (k < order.length && seen >= order[k][0]) {
        out[order[k][1]] = Math.min(this.max, Math.max(this.min, LogHistogram.middle(idx)));
        k++;
      }
    }
    for (; k < order.length; k++) out[order[k][1]] = this.max;
    return out;
  }

  get mean(): number {
    return this.count === 0 ? 0 : this.sum / this.count;
  }

  /**
   * Coarse counts for charts: bins [2^(i/4), 2^((i+1)/4)) of the value in ms (bin 0 holds values
   * below 1 ms), as [binIndex, count] pairs of non-empty bins.
   */
  coarse(): Array<[number, number]> {
    const bins = new Map<number, number>();
    for (let idx = 0; idx < BUCKETS; idx++) {
      const c = this.counts[idx];
      if (c === 0) continue;
      const ms = LogHistogram.lower(idx) / 1000;
      const bin = ms < 1 ? 0 : 1 + Math.floor(Math.log2(ms) * 4);
      bins.set(bin, (bins.get(bin) ?? 0) + c);
    }
    return [...bins.entries()].sort((a, b) => a[0] - b[0]);
  }
}

/** The lower edge in ms of a coarse bin (see LogHistogram.coarse). */
export function coarseBinMs(bin: number): number {
  return bin === 0 ? 0 : 2 ** ((bin - 1) / 4);
}
