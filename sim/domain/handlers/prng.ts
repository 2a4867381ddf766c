// A handler's only randomness is the 32-bit seed the model gives it. These are small, fast,
// well-mixed integer functions over that seed; they need no state outside the closure and give
// the same numbers on every platform because they use only 32-bit integer arithmetic.
import { hashString, mix32 } from "../hash32.ts";

export { hashString, mix32 };

/** mulberry32: a generator of floats in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max] from a generator. */
export function intBetween(rng: () => number, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}
