/**
 * The three rate-limit windows of the spec, in the order the headers list them. By default windows
 * are fixed and aligned to multiples of their length in virtual time (window k of the minute covers
 * [60k s, 60(k+1) s)), so every account's windows reset at the same instants and a reset time is
 * a pure function of the clock: no per-account timer, no drift between runs. The other modes
 * (RATE_WINDOW_MODES) are as pure: they read the clock and the requests counted, nothing else.
 */
export const WINDOW_NAMES = ["minute", "hour", "day"] as const;
export type WindowName = (typeof WINDOW_NAMES)[number];

/** Window lengths in seconds, index-aligned with WINDOW_NAMES. */
export const WINDOW_SECONDS: readonly number[] = [60, 3600, 86400];

/** Window lengths in microseconds of virtual time. */
export const WINDOW_MICROS: readonly number[] = WINDOW_SECONDS.map((s) => s * 1_000_000);

/** Per-window quotas, shaped like the catalog's `rateLimits`. */
export interface Quotas {
  readonly minute: number;
  readonly hour: number;
  readonly day: number;
}

/**
 * How a window counts: the specification fixes the three windows and their lengths, not whether
 * they are fixed or sliding. The first is the emulator's default.
 * - fixed-aligned: fixed windows aligned to multiples of their length (every account resets together);
 * - fixed-anchored: a fixed window opens at an account's first request after the last one closed;
 * - sliding: the last w seconds, in buckets; `t` until some quota comes back (the oldest counted
 *   bucket leaves), so `r` never rises before `t` runs out, as with fixed windows;
 * - sliding-whole: the same sliding count, but `t` until the whole quota is back (the newest counted
 *   bucket leaves), so `r` rises a bucket at a time before `t` runs out;
 * - sliding-weighted: the current aligned window plus the previous one at a falling weight
 *   (weighted-counts.ts): `r` rises a little at a time, `t` until the current window ends.
 */
export const RATE_WINDOW_MODES = ["fixed-aligned", "fixed-anchored", "sliding", "sliding-whole", "sliding-weighted"] as const;
export type RateWindowMode = (typeof RATE_WINDOW_MODES)[number];
