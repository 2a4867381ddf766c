/**
 * A sliding window approximated from two fixed ones, as Cloudflare's and Upstash's limiters keep
 * it: the requests of the current aligned window, plus those of the previous one at the weight of
 * the part of it still inside the last `len` (falling from 1 to 0 as the current window passes),
 * rounded up. So `r` rises a little at a time while the previous window's weight falls; `t` is
 * the end of the current window (where its count becomes the previous one's: the whole quota is
 * back only a window later); a denied request waits until the weight has fallen enough, or into
 * the next window (up to two windows, for a quota the current window alone spent). Bounded: three
 * numbers per slot.
 */
import type { Micros } from "../../core/index.ts";
import type { WindowCounts } from "./window-counts.ts";

export class WeightedCounts implements WindowCounts {
  private readonly index: Float64Array;
  private readonly current: Float64Array;
  private readonly previous: Float64Array;

  constructor(slots: number) {
    this.index = new Float64Array(slots).fill(-2);
    this.current = new Float64Array(slots);
    this.previous = new Float64Array(slots);
  }

  /** The counts as they stand at `now`: the current window's and the previous one's. Pure. */
  private view(slot: number, len: number, now: Micros): { k: number; cur: number; prev: number } {
    const k = Math.floor(now / len);
    const i = this.index[slot]!;
    if (i === k) return { k, cur: this.current[slot]!, prev: this.previous[slot]! };
    if (i === k - 1) return { k, cur: 0, prev: this.current[slot]! };
    return { k, cur: 0, prev: 0 };
  }

  used(slot: number, len: number, now: Micros): number {
    const { k, cur, prev } = this.view(slot, len, now);
    // Less a hair, so the moment roomMicros computes (a float) counts as room.
    return cur + Math.ceil((prev * ((k + 1) * len - now)) / len - 1e-9);
  }

  add(slot: number, len: number, now: Micros, cost: number): void {
    const { k, cur, prev } = this.view(slot, len, now);
    this.index[slot] = k;
    this.previous[slot] = prev;
    this.current[slot] = cur + cost;
  }

  resetMicros(_slot: number, len: number, now: Micros): number {
    return (Math.floor(now / len) + 1) * len - now;
  }

  /** ceil(y) <= m exactly when y <= m for a whole m: the first moment the weighted count leaves room. */
  roomMicros(slot: number, len: number, now: Micros, cost: number, quota: number): number {
    const { k, cur, prev } = this.view(slot, len, now);
    const left = (k + 1) * len - now;
    const inThis = quota - cost - cur;
    if (inThis >= 0) return prev === 0 ? 0 : Math.max(0, left - (len * inThis) / prev);
    const inNext = quota - cost;
    if (inNext < 0) return 2 * len;
    return left + Math.max(0, len - (len * inNext) / cur);
  }
}
