/**
 * Fitting a run-time distribution to measured durations: maximum-likelihood fits of the
 * exponential, lognormal, gamma and Weibull families, each judged by the Kolmogorov–Smirnov
 * statistic and ranked by AIC; the empirical distribution when no family fits.
 * The distribution functions (gamma CDF, normal quantile) come from jstat, a kept library;
 * the MLEs are the textbook closed forms and two one-dimensional Newton solves (gamma's and
 * Weibull's shape), which no kept JavaScript library offers.
 */
import jStat from "jstat";
import type { Distribution } from "../scenario.ts";

export type Family = "exponential" | "lognormal" | "gamma" | "weibull";
export const FAMILIES: readonly Family[] = ["exponential", "lognormal", "gamma", "weibull"];

export interface FamilyFit {
  readonly family: Family;
  readonly dist: Distribution;
  readonly logLikelihood: number;
  readonly aic: number;
  /** Kolmogorov–Smirnov distance between the sample and the fitted CDF. */
  readonly ks: number;
  /** Its asymptotic p-value (parameters estimated from the same sample: an optimistic p). */
  readonly ksP: number;
}

/** Digamma ψ(x), x > 0: the recurrence up to 6, then the asymptotic series. */
function digamma(x: number): number {
  let r = 0;
  while (x < 6) {
    r -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  return r + Math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))));
}

/** Trigamma ψ'(x), x > 0. */
function trigamma(x: number): number {
  let r = 0;
  while (x < 6) {
    r += 1 / (x * x);
    x += 1;
  }
  const f = 1 / (x * x);
  return r + 1 / x + f / 2 + (f / x) * (1 / 6 - f * (1 / 30 - f * (1 / 42 - f / 30)));
}

/** Kolmogorov's limiting distribution: P(K > t). */
export function ksPValue(d: number, n: number): number {
  const sn = Math.sqrt(n);
  const t = (sn + 0.12 + 0.11 / sn) * d;
  if (t < 0.2) return 1;
  let sum = 0;
  for (let k = 1; k <= 100; k++) {
    const term = 2 * (k % 2 === 1 ? 1 : -1) * Math.exp(-2 * k * k * t * t);
    sum += term;
    if (Math.abs(term) < 1e-12) break;
  }
  return Math.min(1, Math.max(0, sum));
}

/** The KS distance of a sorted sample from a CDF. */
export function ksDistance(sorted: readonly number[], cdf: (x: number) => number): number {
  const n = sorted.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(sorted[i]);
    d = Math.max(d, f - i / n, (i + 1) / n - f);
  }
  return d;
}

/** The CDF of a fitted family's distribution. */
export function cdfOf(d: Distribution): (x: number) => number {
  switch (d.dist) {
    case "exponential":
      return (x) => jStat.exponential.cdf(x, 1 / d.mean);
    case "lognormal": {
      const s2 = Math.log(1 + d.cv * d.cv);
      const mu = Math.log(d.mean) - s2 / 2;
      return (x) => (x <= 0 ? 0 : jStat.lognormal.cdf(x, mu, Math.sqrt(s2)));
    }
    case "gamma": {
      const k = 1 / (d.cv * d.cv);
      return (x) => (x <= 0 ? 0 : jStat.gamma.cdf(x, k, d.mean / k));
    }
    case "weibull":
      return (x) => (x <= 0 ? 0 : jStat.weibull.cdf(x, d.scale, d.shape));
    case "constant":
      return (x) => (x >= d.value ? 1 : 0);
    case "uniform":
      return (x) => (x <= d.min ? 0 : x >= d.max ? 1 : (x - d.min) / (d.max - d.min));
    case "empirical": {
      const q = d.quantiles;
      return (x) => {
        if (x <= q[0]) return 0;
        if (x >= q[q.length - 1]) return 1;
        let lo = 0;
        let hi = q.length - 1;
        while (hi - lo > 1) {
          const mid = (lo + hi) >> 1;
          if (q[mid] <= x) lo = mid;
          else hi = mid;
        }
        const w = q[hi] - q[lo];
        return (lo + (w > 0 ? (x - q[lo]) / w : 1)) / (q.length - 1);
      };
    }
  }
}

/** The quantile function of a distribution, for Q-Q plots. */
export function quantileOf(d: Distribution, p: number): number {
  switch (d.dist) {
    case "exponential":
      return -d.mean * Math.log(1 - p);
    case "lognormal": {
      const s2 = Math.log(1 + d.cv * d.cv);
      return Math.exp(Math.log(d.mean) - s2 / 2 + Math.sqrt(s2) * jStat.normal.inv(p, 0, 1));
    }
    case "gamma": {
      const k = 1 / (d.cv * d.cv);
      return jStat.gamma.inv(p, k, d.mean / k);
    }
    case "weibull":
      return d.scale * Math.pow(-Math.log(1 - p), 1 / d.shape);
    case "constant":
      return d.value;
    case "uniform":
      return d.min + (d.max - d.min) * p;
    case "empirical": {
      const x = p * (d.quantiles.length - 1);
      const i = Math.min(d.quantiles.length - 2, Math.floor(x));
      return d.quantiles[i] + (d.quantiles[i + 1] - d.quantiles[i]) * (x - i);
    }
  }
}

interface Moments {
  readonly n: number;
  readonly mean: number;
  readonly meanLog: number;
  readonly varLog: number;
}

function moments(xs: readonly number[]): Moments {
  const n = xs.length;
  let s = 0;
  let sl = 0;
  for (const x of xs) {
    s += x;
    sl += Math.log(x);
  }
  const meanLog = sl / n;
  let v = 0;
  for (const x of xs) v += (Math.log(x) - meanLog) ** 2;
  return { n, mean: s / n, meanLog, varLog: v / n };
}

/** MLE of one family's parameters and its log-likelihood; durations must be > 0. */
export function mle(family: Family, xs: readonly number[]): { dist: Distribution; logLikelihood: number } {
  const m = moments(xs);
  const n = m.n;
  switch (family) {
    case "exponential":
      return { dist: { dist: "exponential", mean: m.mean }, logLikelihood: -n * Math.log(m.mean) - n };
    case "lognormal": {
      const s2 = Math.max(m.varLog, 1e-12);
      const mean = Math.exp(m.meanLog + s2 / 2);
      const cv = Math.sqrt(Math.exp(s2) - 1);
      const ll = -n * m.meanLog - (n / 2) * Math.log(2 * Math.PI * s2) - n / 2;
      return { dist: { dist: "lognormal", mean, cv: Math.min(cv, 10) }, logLikelihood: ll };
    }
    case "gamma": {
      // Newton on log k − ψ(k) = log(mean) − mean(log x), from Minka's starting point.
      const s = Math.max(Math.log(m.mean) - m.meanLog, 1e-9);
      let k = (3 - s + Math.sqrt((s - 3) ** 2 + 24 * s)) / (12 * s);
      for (let i = 0; i < 50; i++) {
        const next = k - (Math.log(k) - digamma(k) - s) / (1 / k - trigamma(k));
        if (!(next > 0)) break;
        if (Math.abs(next - k) < 1e-10 * k) {
          k = next;
          break;
        }
        k = next;
      }
      // Capped at cv 0.01: a sample with (almost) no spread drove k to 1e9, and jstat's gamma CDF
      // then took seconds a point (26 s for 40 equal run times); no family fits such a sample anyway.
      k = Math.min(k, 1e4);
      const theta = m.mean / k;
      const ll = n * ((k - 1) * m.meanLog - m.mean / theta - k * Math.log(theta) - jStat.gammaln(k));
      return { dist: { dist: "gamma", mean: m.mean, cv: Math.min(1 / Math.sqrt(k), 10) }, logLikelihood: ll };
    }
    case "weibull": {
      // Newton on the shape's profile equation, from the lognormal moment guess.
      const logs = xs.map(Math.log);
      let k = Math.min(50, Math.max(0.1, 1.2 / Math.sqrt(Math.max(m.varLog, 1e-9))));
      const g = (kk: number) => {
        let a = 0;
        let b = 0;
        let c = 0;
        for (const l of logs) {
          const w = Math.exp(kk * (l - m.meanLog));
          a += w;
          b += w * (l - m.meanLog);
          c += w * (l - m.meanLog) ** 2;
        }
        const f = b / a - 1 / kk - 0;
        const df = c / a - (b / a) ** 2 + 1 / (kk * kk);
        return { f, df, a };
      };
      for (let i = 0; i < 100; i++) {
        const { f, df } = g(k);
        let next = k - f / df;
        if (!(next > 0)) next = k / 2;
        if (Math.abs(next - k) < 1e-10 * k) {
          k = next;
          break;
        }
        k = next;
      }
      k = Math.min(100, Math.max(0.05, k));
      const { a } = g(k);
      // scale^k = mean(x^k), computed around exp(meanLog) to keep it finite.
      const scale = Math.exp(m.meanLog) * Math.pow(a / n, 1 / k);
      let ll = 0;
      for (const l of logs) ll += Math.log(k / scale) + (k - 1) * (l - Math.log(scale)) - Math.exp(k * (l - Math.log(scale)));
      return { dist: { dist: "weibull", shape: k, scale }, logLikelihood: ll };
    }
  }
}

/** Every family fitted and judged, best (lowest AIC) first. */
export function fitFamilies(xs: readonly number[]): FamilyFit[] {
  const positive = xs.map((x) => Math.max(x, 0.5)).sort((a, b) => a - b);
  return FAMILIES.map((family) => {
    const { dist, logLikelihood } = mle(family, positive);
    const params = family === "exponential" ? 1 : 2;
    const ks = ksDistance(positive, cdfOf(dist));
    return { family, dist, logLikelihood, aic: 2 * params - 2 * logLikelihood, ks, ksP: ksPValue(ks, positive.length) };
  }).sort((a, b) => a.aic - b.aic);
}

/** `points` equally spaced quantiles of a sample (min to max): the empirical distribution as a scenario writes it. */
export function empiricalOf(xs: readonly number[], points = 101): Distribution {
  const s = [...xs].sort((a, b) => a - b);
  const q = Array.from({ length: points }, (_, i) => {
    const x = (i / (points - 1)) * (s.length - 1);
    const j = Math.min(s.length - 2, Math.floor(x));
    return s.length === 1 ? s[0] : s[j] + (s[j + 1] - s[j]) * (x - j);
  });
  return { dist: "empirical", quantiles: q.map((v) => Math.round(v * 1000) / 1000) };
}
