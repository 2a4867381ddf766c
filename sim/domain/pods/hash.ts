/**
 * Read-time values (utilization, port mappings, machine ids) come from hashing, never from the
 * engine's Rng: a read must not draw, or reading a pod at time t would shift every later draw.
 * These are 32-bit integer mixes, identical on every platform.
 */
import { hashString, mix32 } from "../hash32.ts";

export { hashString, mix32 };

/** Combines integers into one 32-bit hash (order matters). */
export function hashInts(...values: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) h = mix32((h ^ mix32(v | 0)) + 0x7f4a7c15);
  return h;
}

/** A hash mapped to [0, 1). */
export function unit(hash: number): number {
  return (hash >>> 0) / 4294967296;
}

/** A hash mapped to an integer in [min, max]. */
export function intIn(hash: number, min: number, max: number): number {
  return min + Math.floor(unit(hash) * (max - min + 1));
}

const ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";

/** A stable lowercase alphanumeric string of `length` characters derived from a string. */
export function alnumFrom(s: string, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALNUM[intIn(hashString(s, i), 0, ALNUM.length - 1)];
  return out;
}

/** A stable lowercase hex string of `length` digits derived from a string. */
export function hexFrom(s: string, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += HEX[intIn(hashString(s, 0x1000 + i), 0, 15)];
  return out;
}
