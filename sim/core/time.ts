/**
 * Virtual time. The clock counts integer microseconds so that every comparison is exact and a run
 * replays byte for byte; a double holds integers exactly up to 2^53 us, about 285 years.
 */
import { TimeOverflowError } from "./errors.ts";

/** Virtual time or a duration, in integer microseconds. */
export type Micros = number;

export const US_PER_MS = 1000;
export const US_PER_S = 1_000_000;

/** Returns t unchanged if it is a non-negative safe integer, else throws TimeOverflowError. */
export function checkTime(t: number): Micros {
  if (!Number.isSafeInteger(t) || t < 0) throw new TimeOverflowError(t);
  // Normalise -0 so that it never leaks into keys or logs.
  return t === 0 ? 0 : t;
}

export function ms(n: number): Micros {
  return checkTime(Math.round(n * US_PER_MS));
}

export function seconds(n: number): Micros {
  return checkTime(Math.round(n * US_PER_S));
}

export function minutes(n: number): Micros {
  return checkTime(Math.round(n * 60 * US_PER_S));
}

export function hours(n: number): Micros {
  return checkTime(Math.round(n * 3600 * US_PER_S));
}
