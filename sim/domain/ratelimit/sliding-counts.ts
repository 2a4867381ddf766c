/**
 * A sliding window over the last `len` of virtual time, kept as SLIDING_BUCKETS buckets per window
 * (one second each for the minute, one minute for the hour, 24 minutes for the day), as real
 * services keep one: a request counts until its bucket leaves the window, and the count rises
 * back a bucket at a time rather than all at once. Bounded: two numbers per bucket, whatever the
 * quota.
 *
 * The `RateLimit` header's `t` ("seconds until reset") reads one of two ways, both legal: when the
 * oldest counted bucket leaves, the moment some quota comes back (`r` never rises before `t` runs
 * out), or when the newest leaves, the moment the whole quota is back (`r` rises a bucket at a
 * time before `t`, and `t` starts again from `w` with every request). A denied request's wait is
 * until enough has left for it to fit, either way.
 */
import type { Micros } from "../../core/index.ts";
import type { WindowCounts } from "./window-counts.ts";

export const SLIDING_BUCKETS = 60;
const B = SLIDING_BUCKETS;

/** Which bucket's leaving the `t` of a sliding window names. */
export type SlidingReset = "oldest" | "newest";

export class SlidingCounts implements WindowCounts {
  /** Per slot and bucket (slot * B + j % B): the bucket index held there, and its count. */
  private readonly bucket: Float64Array;
  private readonly count: Float64Array;

  constructor(
    slots: number,
    private readonly reset: SlidingReset = "oldest",
  ) {
    this.bucket = new Float64Array(slots * B).fill(-1);
    this.count = new Float64Array(slots * B);
  }

  /** The live buckets at `now`, oldest first: [bucket index, count]. */
  private live(slot: number, len: number, now: Micros): [number, number][] {
    const k = Math.floor(now / (len / B));
    const out: [number, number][] = [];
    for (let j = k - B + 1; j <= k; j++) {
      const at = slot * B + (((j % B) + B) % B);
      if (this.bucket[at] === j && this.count[at]! > 0) out.push([j, this.count[at]!]);
    }
    return out;
  }

  used(slot: number, len: number, now: Micros): number {
    return this.live(slot, len, now).reduce((sum, [, n]) => sum + n, 0);
  }

  add(slot: number, len: number, now: Micros, cost: number): void {
    const k = Math.floor(now / (len / B));
    const at = slot * B + (k % B);
    if (this.bucket[at] !== k) {
      this.bucket[at] = k;
      this.count[at] = 0;
    }
    this.count[at]! += cost;
  }

  /** When bucket `j` leaves the window, from `now`. */
  private leaves(j: number, len: number, now: Micros): number {
    return (j + B) * (len / B) - now;
  }

  resetMicros(slot: number, len: number, now: Micros): number {
    const buckets = this.live(slot, len, now);
    if (buckets.length === 0) return len;
    return this.leaves(buckets[this.reset === "oldest" ? 0 : buckets.length - 1]![0], len, now);
  }

  roomMicros(slot: number, len: number, now: Micros, cost: number, quota: number): number {
    const buckets = this.live(slot, len, now);
    let used = buckets.reduce((sum, [, n]) => sum + n, 0);
    for (const [j, n] of buckets) {
      used -= n;
      if (used + cost <= quota) return this.leaves(j, len, now);
    }
    return len;
  }
}
