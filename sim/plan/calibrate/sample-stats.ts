/**
 * Small sample statistics for the calibrator: percentiles, seeded bootstrap intervals and the exact
 * Poisson rate interval (jstat's chi-square quantile). simple-statistics would give the
 * percentiles only; a bootstrap over an arbitrary estimator is a loop.
 */
import jStat from "jstat";
import { Rng } from "../../core/index.ts";

/** The p-quantile (0..1) of a sorted sample, linearly interpolated (type 7). */
export function quantileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const x = p * (sorted.length - 1);
  const i = Math.min(sorted.length - 2, Math.floor(x));
  if (sorted.length === 1) return sorted[0];
  return sorted[i] + (sorted[i + 1] - sorted[i]) * (x - i);
}

export function percentiles(xs: readonly number[], ps: readonly number[]): number[] {
  const s = [...xs].sort((a, b) => a - b);
  return ps.map((p) => quantileSorted(s, p));
}

export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

export function cv(xs: readonly number[]): number {
  const m = mean(xs);
  let v = 0;
  for (const x of xs) v += (x - m) ** 2;
  return xs.length > 1 && m > 0 ? Math.sqrt(v / (xs.length - 1)) / m : 0;
}

/** `b` resamples (with replacement) of `xs`, drawn from one seeded stream. */
export function resamples<T>(xs: readonly T[], b: number, seed: number, label: string): T[][] {
  const rng = new Rng(seed, label);
  const out: T[][] = [];
  for (let k = 0; k < b; k++) {
    const r: T[] = new Array(xs.length);
    for (let i = 0; i < xs.length; i++) r[i] = xs[Math.floor(rng.next() * xs.length)];
    out.push(r);
  }
  return out;
}

/** The 95% percentile interval of bootstrap estimates. */
export function interval95(estimates: readonly number[]): [number, number] {
  const s = [...estimates].filter(Number.isFinite).sort((a, b) => a - b);
  return [quantileSorted(s, 0.025), quantileSorted(s, 0.975)];
}

/** The exact 95% interval of a Poisson rate: `n` events in `t` seconds. */
export function poissonRateInterval(n: number, t: number): [number, number] {
  const lo = n === 0 ? 0 : jStat.chisquare.inv(0.025, 2 * n) / 2;
  const hi = jStat.chisquare.inv(0.975, 2 * n + 2) / 2;
  return [lo / t, hi / t];
}

/** Rounds to 4 significant digits for files people read. */
export function sig(x: number, digits = 4): number {
  return Number.isFinite(x) ? Number(x.toPrecision(digits)) : x;
}
