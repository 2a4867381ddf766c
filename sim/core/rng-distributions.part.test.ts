/**
 * Statistical checks of every distribution, on seeded samples (so they are deterministic): the
 * sample mean and variance lie within a 99.9% interval of the true values, and Poisson,
 * exponential and friends pass a goodness-of-fit test at the 0.1% level.
 */
import t from "tap";
import type { Test } from "tap";
import { logGamma } from "./log-gamma.ts";
import { Rng } from "./rng.ts";

const N = 200_000;
/** Two-sided 99.9% normal quantile. */
const Z = 3.2905;
const root = new Rng("cpsim-distribution-tests");

function sample(label: string, draw: (rng: Rng) => number, n = N): Float64Array {
  const rng = root.fork(label);
  const xs = new Float64Array(n);
  for (let i = 0; i < n; i++) xs[i] = draw(rng);
  return xs;
}

/**
 * Sample mean and unbiased variance against the truth. The variance's standard error uses the
 * fourth central moment mu4: Var(s^2) ~ (mu4 - sigma^4 (n - 3) / (n - 1)) / n.
 */
function checkMoments(t: Test, xs: Float64Array, mean: number, variance: number, mu4: number): void {
  const n = xs.length;
  let sum = 0;
  for (const x of xs) sum += x;
  const m = sum / n;
  let ss = 0;
  for (const x of xs) ss += (x - m) * (x - m);
  const v = ss / (n - 1);
  const seMean = Math.sqrt(variance / n);
  const seVar = Math.sqrt((mu4 - (variance * variance * (n - 3)) / (n - 1)) / n);
  t.ok(Math.abs(m - mean) <= Z * seMean, `mean ${m.toFixed(5)} within ${(Z * seMean).toFixed(5)} of ${mean}`);
  t.ok(Math.abs(v - variance) <= Z * seVar, `variance ${v.toFixed(5)} within ${(Z * seVar).toFixed(5)} of ${variance}`);
}

/** One-sample Kolmogorov-Smirnov statistic against a continuous CDF, tested at the 0.1% level. */
function checkKs(t: Test, xs: Float64Array, cdf: (x: number) => number): void {
  const sorted = Float64Array.from(xs).sort();
  const n = sorted.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(sorted[i]);
    d = Math.max(d, (i + 1) / n - f, f - i / n);
  }
  const critical = 1.9495 / Math.sqrt(n); // sqrt(-ln(0.001 / 2) / 2)
  t.ok(d < critical, `KS D=${d.toFixed(5)} < ${critical.toFixed(5)}`);
}

/** Pearson chi-square over integer outcomes, bins with expected count < 5 merged into the tails. */
function checkChiSquare(t: Test, xs: Float64Array, pmf: (k: number) => number, lo: number, hi: number): void {
  const n = xs.length;
  const counts = new Map<number, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  const bins: Array<{ observed: number; expected: number }> = [];
  let pending = { observed: 0, expected: 0 };
  let accounted = 0;
  for (let k = lo; k <= hi; k++) {
    pending.observed += counts.get(k) ?? 0;
    pending.expected += n * pmf(k);
    accounted += counts.get(k) ?? 0;
    if (pending.expected >= 5) {
      bins.push(pending);
      pending = { observed: 0, expected: 0 };
    }
  }
  // The last bin also takes a short final run and everything outside [lo, hi]: its expected count
  // is whatever the other bins leave of n.
  const last = bins[bins.length - 1];
  last.observed += pending.observed + (n - accounted);
  last.expected = n - bins.slice(0, -1).reduce((s, b) => s + b.expected, 0);
  let chi2 = 0;
  for (const b of bins) chi2 += ((b.observed - b.expected) ** 2) / b.expected;
  const df = bins.length - 1;
  // Wilson-Hilferty approximation of the 99.9% quantile of chi-square(df).
  const z = 3.0902;
  const critical = df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
  t.ok(chi2 < critical, `chi-square ${chi2.toFixed(2)} < ${critical.toFixed(2)} with ${df} df`);
}

function normalCdf(x: number): number {
  // Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7: far below the KS tolerance here.
  const z = Math.abs(x) / Math.SQRT2;
  const k = 1 / (1 + 0.3275911 * z);
  const erf =
    1 - k * (0.254829592 + k * (-0.284496736 + k * (1.421413741 + k * (-1.453152027 + k * 1.061405429)))) * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

function lognormalCentralMoments(mu: number, sigma: number): { mean: number; variance: number; mu4: number } {
  const raw = (k: number): number => Math.exp(k * mu + (k * k * sigma * sigma) / 2);
  const [m1, m2, m3, m4] = [raw(1), raw(2), raw(3), raw(4)];
  return { mean: m1, variance: m2 - m1 * m1, mu4: m4 - 4 * m1 * m3 + 6 * m1 * m1 * m2 - 3 * m1 ** 4 };
}

t.test("next: uniform on [0, 1)", (t) => {
  const xs = sample("next", (r) => r.next());
  checkMoments(t, xs, 0.5, 1 / 12, 1 / 80);
  checkKs(t, xs, (x) => x);
  t.end();
});

t.test("uniform(min, max)", (t) => {
  const xs = sample("uniform", (r) => r.uniform(2, 5));
  checkMoments(t, xs, 3.5, 9 / 12, 81 / 80);
  checkKs(t, xs, (x) => (x - 2) / 3);
  t.end();
});

t.test("int(min, max): discrete uniform, inclusive", (t) => {
  const xs = sample("int", (r) => r.int(1, 6));
  const k = 6;
  checkMoments(t, xs, 3.5, (k * k - 1) / 12, ((k * k - 1) * (3 * k * k - 7)) / 240);
  checkChiSquare(t, xs, (v) => (v >= 1 && v <= 6 ? 1 / 6 : 0), 1, 6);
  t.end();
});

t.test("bernoulli(p)", (t) => {
  const p = 0.3;
  const xs = sample("bernoulli", (r) => (r.bernoulli(p) ? 1 : 0));
  checkMoments(t, xs, p, p * (1 - p), p * (1 - p) * (1 - 3 * p + 3 * p * p));
  checkChiSquare(t, xs, (v) => (v === 1 ? p : v === 0 ? 1 - p : 0), 0, 1);
  t.end();
});

t.test("exponential(mean): moments and KS", (t) => {
  const mean = 2.5;
  const xs = sample("exponential", (r) => r.exponential(mean));
  checkMoments(t, xs, mean, mean ** 2, 9 * mean ** 4);
  checkKs(t, xs, (x) => 1 - Math.exp(-x / mean));
  t.end();
});

t.test("normal(mean, sd): moments and KS", (t) => {
  const xs = sample("normal", (r) => r.normal(-1, 3));
  checkMoments(t, xs, -1, 9, 3 * 81);
  checkKs(t, xs, (x) => normalCdf((x + 1) / 3));
  t.end();
});

t.test("lognormal(mu, sigma): moments and KS", (t) => {
  const mu = 0.2;
  const sigma = 0.5;
  const xs = sample("lognormal", (r) => r.lognormal(mu, sigma));
  const m = lognormalCentralMoments(mu, sigma);
  checkMoments(t, xs, m.mean, m.variance, m.mu4);
  checkKs(t, xs, (x) => normalCdf((Math.log(x) - mu) / sigma));
  t.end();
});

t.test("lognormalMeanCv(mean, cv): the requested mean and coefficient of variation", (t) => {
  const mean = 10;
  const cv = 0.5;
  const xs = sample("lognormalMeanCv", (r) => r.lognormalMeanCv(mean, cv));
  const sigma = Math.sqrt(Math.log1p(cv * cv));
  const m = lognormalCentralMoments(Math.log(mean) - (sigma * sigma) / 2, sigma);
  t.ok(Math.abs(m.mean - mean) < 1e-9 && Math.abs(m.variance - (cv * mean) ** 2) < 1e-9, "parameterisation");
  checkMoments(t, xs, m.mean, m.variance, m.mu4);
  t.end();
});

for (const lambda of [0.7, 4, 29.5, 30, 100, 2500]) {
  t.test(`poisson(${lambda}): moments and chi-square (${lambda < 30 ? "inversion" : "PTRS"})`, (t) => {
    const xs = sample(`poisson-${lambda}`, (r) => r.poisson(lambda));
    for (const x of xs) if (!Number.isInteger(x) || x < 0) t.fail(`non-count ${x}`);
    checkMoments(t, xs, lambda, lambda, lambda * (1 + 3 * lambda));
    const pmf = (k: number): number => (k < 0 ? 0 : Math.exp(-lambda + k * Math.log(lambda) - logGamma(k + 1)));
    const spread = Math.ceil(8 * Math.sqrt(lambda) + 10);
    checkChiSquare(t, xs, pmf, Math.max(0, Math.floor(lambda) - spread), Math.ceil(lambda) + spread);
    t.end();
  });
}

t.test("weightedChoice: frequencies follow the weights", (t) => {
  const weights = [1, 0, 2, 7];
  const total = 10;
  const xs = sample("weighted", (r) => r.weightedChoice([0, 1, 2, 3], weights));
  const p = (k: number): number => (weights[k] ?? 0) / total;
  const mean = [0, 1, 2, 3].reduce((s, k) => s + k * p(k), 0);
  const variance = [0, 1, 2, 3].reduce((s, k) => s + (k - mean) ** 2 * p(k), 0);
  const mu4 = [0, 1, 2, 3].reduce((s, k) => s + (k - mean) ** 4 * p(k), 0);
  checkMoments(t, xs, mean, variance, mu4);
  checkChiSquare(t, xs, p, 0, 3);
  t.end();
});

t.test("pick: uniform over the items", (t) => {
  const items = [10, 20, 30, 40, 50];
  const xs = sample("pick", (r) => r.pick(items));
  checkChiSquare(t, xs, (v) => (items.includes(v) ? 1 / 5 : 0), 10, 50);
  t.end();
});

t.test("logGamma matches known values", (t) => {
  t.ok(Math.abs(logGamma(1)) < 1e-13);
  t.ok(Math.abs(logGamma(2)) < 1e-13);
  t.ok(Math.abs(logGamma(0.5) - Math.log(Math.sqrt(Math.PI))) < 1e-13);
  t.ok(Math.abs(logGamma(11) - Math.log(3628800)) < 1e-12);
  t.ok(Math.abs(logGamma(0.1) - 2.252712651734206) < 1e-12);
  t.ok(Math.abs(logGamma(171) - 706.5730622457874) / 706.57 < 1e-14);
  t.end();
});
