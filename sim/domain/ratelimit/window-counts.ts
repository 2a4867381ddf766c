/**
 * How a window counts requests, one strategy per rate-limit window mode (windows.ts's
 * RATE_WINDOW_MODES; the sliding ones are in sliding-counts.ts). Each keeps its state in typed arrays indexed by slot (account × window),
 * sized once, and answers from the clock alone: the same requests at the same instants give the
 * same counts, resets and waits. `len` is the window's length in microseconds.
 */
import type { Micros } from "../../core/index.ts";

export interface WindowCounts {
  /** Requests the window counts at `now`. Pure. */
  used(slot: number, len: number, now: Micros): number;
  /** Counts `cost` more at `now`. */
  add(slot: number, len: number, now: Micros, cost: number): void;
  /** Microseconds until the window "resets" as the `RateLimit` header's `t` says it (0 < reset <= len). Pure. */
  resetMicros(slot: number, len: number, now: Micros): number;
  /** Microseconds until `cost` more fits under `quota` (the Retry-After of a denied request). Pure. */
  roomMicros(slot: number, len: number, now: Micros, cost: number, quota: number): number;
}

/** Windows aligned to multiples of their length in virtual time: window k of the minute is [60k s, 60(k+1) s). */
export class AlignedCounts implements WindowCounts {
  private readonly index: Float64Array;
  private readonly count: Float64Array;
  constructor(slots: number) {
    this.index = new Float64Array(slots).fill(-1);
    this.count = new Float64Array(slots);
  }
  used(slot: number, len: number, now: Micros): number {
    return this.index[slot] === Math.floor(now / len) ? this.count[slot]! : 0;
  }
  add(slot: number, len: number, now: Micros, cost: number): void {
    const k = Math.floor(now / len);
    if (this.index[slot] !== k) {
      this.index[slot] = k;
      this.count[slot] = 0;
    }
    this.count[slot]! += cost;
  }
  resetMicros(_slot: number, len: number, now: Micros): number {
    return (Math.floor(now / len) + 1) * len - now;
  }
  roomMicros(slot: number, len: number, now: Micros): number {
    return this.resetMicros(slot, len, now);
  }
}

/** A window opens at the first request counted after the previous one closed, and closes `len` later. */
export class AnchoredCounts implements WindowCounts {
  private readonly start: Float64Array;
  private readonly count: Float64Array;
  constructor(slots: number) {
    this.start = new Float64Array(slots).fill(-1);
    this.count = new Float64Array(slots);
  }
  private open(slot: number, len: number, now: Micros): boolean {
    const s = this.start[slot]!;
    return s >= 0 && now < s + len;
  }
  used(slot: number, len: number, now: Micros): number {
    return this.open(slot, len, now) ? this.count[slot]! : 0;
  }
  add(slot: number, len: number, now: Micros, cost: number): void {
    if (!this.open(slot, len, now)) {
      this.start[slot] = now;
      this.count[slot] = 0;
    }
    this.count[slot]! += cost;
  }
  /** Until the open window closes; with none open, a whole window (one would open with the next request). */
  resetMicros(slot: number, len: number, now: Micros): number {
    return this.open(slot, len, now) ? this.start[slot]! + len - now : len;
  }
  roomMicros(slot: number, len: number, now: Micros): number {
    return this.resetMicros(slot, len, now);
  }
}
