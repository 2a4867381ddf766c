// Own code: no maintained package among the project's libraries gives Student t quantiles or Erlang C,
// and both are a few lines of textbook numerics.
/** Confidence intervals across seeds (Student t) and the queueing formulas the planner checks against. */

/** A figure across K seeds: the mean and its 95% interval, null when K < 2 (no interval from one value). */
export interface Estimate {
  readonly mean: number;
  readonly lo: number | null;
  readonly hi: number | null;
  readonly n: number;
}

/** ln Γ(x), Lanczos approximation (g = 7, 9 terms), accurate to ~1e-15 for x > 0. */
function lnGamma(x: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Regularized incomplete beta I_x(a, b) by Lentz's continued fraction. */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  const front = Math.exp(a * Math.log(x) + b * Math.log(1 - x) - (lnGamma(a) + lnGamma(b) - lnGamma(a + b))) / a;
  const tiny = 1e-300;
  let f = 1;
  let c = 1;
  let d = 0;
  for (let i = 0; i <= 400; i++) {
    const m = Math.floor(i / 2);
    let num: number;
    if (i === 0) num = 1;
    else if (i % 2 === 0) num = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    else num = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    d = 1 / d;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    const cd = c * d;
    f *= cd;
    if (Math.abs(1 - cd) < 1e-14) break;
  }
  return front * (f - 1);
}

/** P(T <= t) for Student's t with `df` degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  const x = df / (df + t * t);
  const tail = 0.5 * incompleteBeta(x, df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The t with P(T <= t) = p, by bisection (p in (0.5, 1)). */
export function studentTQuantile(p: number, df: number): number {
  let lo = 0;
  let hi = 1;
  while (studentTCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
    if (hi - lo < 1e-12) break;
  }
  return (lo + hi) / 2;
}

/** The mean of `xs` with its 95% Student t interval; no interval for fewer than 2 values. */
export function estimate(xs: readonly number[]): Estimate {
  const n = xs.length;
  if (n === 0) return { mean: 0, lo: null, hi: null, n: 0 };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean: tidy(mean), lo: null, hi: null, n };
  const variance = xs.reduce((a, x) => a + (x - mean) * (x - mean), 0) / (n - 1);
  const half = studentTQuantile(0.975, n - 1) * Math.sqrt(variance / n);
  // A figure that cannot be negative (counts, times, money) gets no negative lower bound.
  const floor = xs.every((x) => x >= 0) ? 0 : -Infinity;
  return { mean: tidy(mean), lo: tidy(Math.max(floor, mean - half)), hi: tidy(mean + half), n };
}

/** Rounded to 9 significant digits: figures stay readable and JSON stays stable. */
export function tidy(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  return Number(x.toPrecision(9));
}

/** Erlang C: the probability that an arrival waits in an M/M/c queue with offered load a = λ/μ. */
export function erlangC(c: number, a: number): number {
  if (a >= c) return 1;
  // Erlang B by its stable recurrence, then C from B.
  let b = 1;
  for (let k = 1; k <= c; k++) b = (a * b) / (k + a * b);
  const rho = a / c;
  return b / (1 - rho + rho * b);
}

/** Mean wait in queue of M/M/c, seconds (λ, μ per second); Infinity when unstable. */
export function erlangCMeanWait(c: number, lambda: number, mu: number): number {
  if (lambda >= c * mu) return Infinity;
  return erlangC(c, lambda / mu) / (c * mu - lambda);
}

/** The p-quantile (0..1) of the M/M/c wait, seconds: P(Wq > t) = C e^{-(cμ-λ)t}. */
export function erlangCWaitQuantile(c: number, lambda: number, mu: number, p: number): number {
  if (lambda >= c * mu) return Infinity;
  const C = erlangC(c, lambda / mu);
  if (1 - p >= C) return 0;
  return Math.log(C / (1 - p)) / (c * mu - lambda);
}
