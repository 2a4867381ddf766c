/**
 * Seeded random streams. Each stream is seedrandom's alea generator (about 6 ns a draw, passes
 * BigCrush) seeded from the root seed and the stream's full label path, so a subsystem that forks
 * its own stream by label draws the same numbers however many other streams exist or are added.
 *
 * Alea's recurrence is stepped inline on this object's fields rather than through seedrandom's
 * closure: it is the same arithmetic (a test checks the draws are identical to seedrandom.alea),
 * but a class with a stable shape lets V8 inline `next()` into the callers on the hot path.
 */
import seedrandom from "seedrandom";
import { InvalidParameterError } from "./errors.ts";
import { logGamma } from "./log-gamma.ts";
import {
  finite,
  nonEmpty,
  nonNegative,
  positive,
  probability,
  safeInteger,
} from "./validate.ts";

const TWO_POW_32 = 4294967296;
const TWO_POW_MINUS_32 = 2.3283064365386963e-10;
const TWO_POW_MINUS_53 = 1.1102230246251565e-16;
const TWO_PI = 2 * Math.PI;
/** Below this mean the Poisson sampler inverts the CDF; above it, it uses PTRS rejection. */
const POISSON_INVERSION_MAX = 30;
/** hex() builds ids, not payloads; a bound keeps a typo from allocating gigabytes. */
const HEX_MAX = 1_000_000;

export class Rng {
  readonly seed: string;
  /** Full label path from the root stream, segments joined by "/"; "" for the root. */
  readonly label: string;
  // Every numeric field gets a number at its declaration: ES2022 class fields start as undefined,
  // and a field that has held undefined makes V8 box each later double store in a new object.
  // NaN (not a small integer) makes these double fields from the first.
  private s0 = Number.NaN;
  private s1 = Number.NaN;
  private s2 = Number.NaN;
  /**
   * Alea's carry, kept pre-scaled by 2^-32 (exact, a power of two) so that the field always holds
   * a fraction: an integer field that later receives a large value makes V8 change the object's
   * shape mid-run, which deoptimises every hot caller.
   */
  private carry = Number.NaN;
  /** Box-Muller yields normals in pairs; the second is kept for the next call (NaN: a double field). */
  private spare = Number.NaN;
  private hasSpare = false;

  constructor(seed: string | number, label = "") {
    if (typeof seed === "number") finite("seed", seed);
    else if (typeof seed !== "string") throw new InvalidParameterError("seed", seed, "a string or a number");
    if (typeof label !== "string" || (label !== "" && label.split("/").some((part) => part === ""))) {
      throw new InvalidParameterError("label", label, 'a path of non-empty segments joined by "/"');
    }
    this.seed = String(seed);
    this.label = label;
    // The root stream is exactly seedrandom.alea(seed); forks add the label path after a NUL,
    // which no label may contain, so no two paths share a key.
    const key = label === "" ? this.seed : `${this.seed}\u0000${label}`;
    const state = seedrandom.alea(key, { state: true }).state();
    this.s0 = state.s0;
    this.s1 = state.s1;
    this.s2 = state.s2;
    this.carry = state.c * TWO_POW_MINUS_32;
  }

  /** An independent stream for (root seed, this label path + label); draws nothing from this one. */
  fork(label: string): Rng {
    if (typeof label !== "string" || label === "" || label.includes("/") || label.includes("\u0000")) {
      throw new InvalidParameterError("fork.label", label, 'a non-empty string without "/"');
    }
    return new Rng(this.seed, this.label === "" ? label : `${this.label}/${label}`);
  }

  /** Uniform in [0, 1) with 32 bits of resolution. */
  next(): number {
    const t = 2091639 * this.s0 + this.carry;
    const c = t | 0;
    // 2^-32 as a literal: a module-level const costs a context load and a TDZ check per draw.
    this.carry = c * 2.3283064365386963e-10;
    this.s0 = this.s1;
    this.s1 = this.s2;
    return (this.s2 = t - c);
  }

  /** Uniform in [0, 1) with 53 bits of resolution, for tails where 32 bits would truncate. */
  private next53(): number {
    return this.next() + ((this.next() * 0x200000) | 0) * TWO_POW_MINUS_53;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    safeInteger("int.min", min);
    safeInteger("int.max", max);
    if (max < min) throw new InvalidParameterError("int.max", max, `>= int.min (${min})`);
    const span = max - min + 1;
    if (span <= TWO_POW_32) {
      // Rejection keeps every value exactly equally likely: a draw is an integer in [0, 2^32).
      const limit = span * Math.floor(TWO_POW_32 / span);
      let x = this.next() * TWO_POW_32;
      while (x >= limit) x = this.next() * TWO_POW_32;
      return min + (x % span);
    }
    // Spans above 2^32 are rare (ids, not indices); a 53-bit draw leaves a bias below 2^-20.
    return min + Math.floor(this.next53() * span);
  }

  uniform(min: number, max: number): number {
    finite("uniform.min", min);
    finite("uniform.max", max);
    if (max < min) throw new InvalidParameterError("uniform.max", max, `>= uniform.min (${min})`);
    return min + (max - min) * this.next();
  }

  bernoulli(p: number): boolean {
    probability("bernoulli.p", p);
    return this.next() < p;
  }

  /** Exponential with the given mean. 1 - u lies in (0, 1], so the logarithm is finite. */
  exponential(mean: number): number {
    if (!(mean > 0 && mean < Infinity)) positive("exponential.mean", mean);
    return -mean * Math.log(1 - this.next());
  }

  normal(mean: number, sd: number): number {
    finite("normal.mean", mean);
    nonNegative("normal.sd", sd);
    return mean + sd * this.standardNormal();
  }

  /** e^X with X ~ normal(mu, sigma). */
  lognormal(mu: number, sigma: number): number {
    finite("lognormal.mu", mu);
    nonNegative("lognormal.sigma", sigma);
    return Math.exp(mu + sigma * this.standardNormal());
  }

  /** A lognormal with the given mean and coefficient of variation (sd / mean). */
  lognormalMeanCv(mean: number, cv: number): number {
    positive("lognormalMeanCv.mean", mean);
    nonNegative("lognormalMeanCv.cv", cv);
    const sigma2 = Math.log1p(cv * cv);
    return Math.exp(Math.log(mean) - sigma2 / 2 + Math.sqrt(sigma2) * this.standardNormal());
  }

  poisson(lambda: number): number {
    nonNegative("poisson.lambda", lambda);
    if (lambda === 0) return 0;
    return lambda < POISSON_INVERSION_MAX ? this.poissonInversion(lambda) : this.poissonPtrs(lambda);
  }

  weightedChoice<T>(items: readonly T[], weights: readonly number[]): T {
    nonEmpty("weightedChoice.items", items);
    if (!Array.isArray(weights) || weights.length !== items.length) {
      throw new InvalidParameterError(
        "weightedChoice.weights",
        weights,
        `an array of the same length as items (${items.length})`,
      );
    }
    let total = 0;
    for (let i = 0; i < weights.length; i++) total += nonNegative(`weightedChoice.weights[${i}]`, weights[i]);
    if (!(total > 0 && total < Infinity)) {
      throw new InvalidParameterError("weightedChoice.weights", weights, "weights with a finite positive sum");
    }
    let x = this.next() * total;
    let last = 0;
    for (let i = 0; i < weights.length; i++) {
      if (weights[i] === 0) continue;
      last = i;
      if (x < weights[i]) return items[i];
      x -= weights[i];
    }
    // Rounding in the running subtraction can step past the end; the last positive weight wins.
    return items[last];
  }

  pick<T>(items: readonly T[]): T {
    nonEmpty("pick.items", items);
    return items[this.int(0, items.length - 1)];
  }

  /** n random lowercase hex characters, for ids. */
  hex(n: number): string {
    if (!Number.isSafeInteger(n) || n < 0 || n > HEX_MAX) {
      throw new InvalidParameterError("hex.n", n, `an integer in [0, ${HEX_MAX}]`);
    }
    let out = "";
    while (out.length < n) {
      out += (this.next() * TWO_POW_32).toString(16).padStart(8, "0");
    }
    return out.length === n ? out : out.slice(0, n);
  }

  private standardNormal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    // The radius uses 53 bits so that the tails reach about 8.6 sd instead of 6.7.
    const r = Math.sqrt(-2 * Math.log(1 - this.next53()));
    const theta = TWO_PI * this.next();
    this.spare = r * Math.sin(theta);
    this.hasSpare = true;
    return r * Math.cos(theta);
  }

  /** Sequential search of the CDF: one draw, O(lambda) steps, exact for small means. */
  private poissonInversion(lambda: number): number {
    let p = Math.exp(-lambda);
    let cdf = p;
    const u = this.next();
    let k = 0;
    // The bound only matters if rounding keeps the CDF below u; it is far past any real tail.
    const bound = 10 * lambda + 100;
    while (u > cdf && k < bound) {
      k++;
      p *= lambda / k;
      cdf += p;
    }
    return k;
  }

  /**
   * Hörmann's PTRS (transformed rejection with squeeze), exact for lambda >= 10 and about 1.1
   * iterations per sample. W. Hörmann, "The transformed rejection method for generating Poisson
   * random variables", Insurance: Mathematics and Economics 12 (1993).
   */
  private poissonPtrs(lambda: number): number {
    const slam = Math.sqrt(lambda);
    const loglam = Math.log(lambda);
    const b = 0.931 + 2.53 * slam;
    const a = -0.059 + 0.02483 * b;
    const invAlpha = 1.1239 + 1.1328 / (b - 3.4);
    const vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
      const u = this.next() - 0.5;
      const v = this.next();
      const us = 0.5 - Math.abs(u);
      const k = Math.floor(((2 * a) / us + b) * u + lambda + 0.43);
      if (us >= 0.07 && v <= vr) return k;
      if (k < 0 || (us < 0.013 && v > us)) continue;
      if (
        Math.log(v) + Math.log(invAlpha) - Math.log(a / (us * us) + b) <=
        -lambda + k * loglam - logGamma(k + 1)
      ) {
        return k;
      }
    }
  }
}
