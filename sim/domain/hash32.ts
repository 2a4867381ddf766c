/**
 * 32-bit integer hashing shared by the model's pure read-time values (pod utilization, machine
 * ids) and its job handlers: integer arithmetic only, so every platform gets the same numbers.
 */

/** The MurmurHash3 finaliser: a bijective avalanche of a 32-bit integer. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** FNV-1a over the UTF-16 code units of a string, mixed into `seed`, finalised with mix32. */
export function hashString(s: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}
