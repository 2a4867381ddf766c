/**
 * The Universal Scalability Law, X(N) = λN / (1 + σ(N−1) + κN(N−1)), fitted to throughput measured
 * at several concurrencies. N/X is linear in (1/λ, σ/λ, κ/λ), so the fit is a 3-parameter linear
 * least squares (with 0 ≤ σ ≤ 1, κ ≥ 0 by refitting on the boundary), then Gauss–Newton steps on the
 * throughput residuals themselves. Small enough to keep here; ml-levenberg-marquardt would need a
 * starting point, which is this linear fit anyway.
 *
 * Several measurements at one concurrency (the rounds of an interleaved sweep) are one level: its
 * median, with its spread (the median absolute deviation, scaled to a standard deviation, and the
 * range). Each level weighs 1 / (its median's variance) ≈ n / (1.2533 · sd)², the sd floored at 2% of
 * the median so that a level measured once, or alike every round, is not taken as exact; with one
 * measurement per level this is least squares on relative residuals.
 */
import { quantileSorted, sig } from "./sample-stats.ts";

export interface UslPoint {
  readonly concurrency: number;
  readonly throughput: number;
}

/** One concurrency's measurements summarized. */
export interface UslLevel extends UslPoint {
  /** Measurements at this concurrency (rounds). */
  readonly n: number;
  readonly min: number;
  readonly max: number;
  /** 1.4826 × the median absolute deviation over the median: the relative spread of one measurement. */
  readonly relSpread: number;
  /** Least-squares weight, 1 / variance of the median (relative to the others). */
  readonly weight: number;
}

/** Groups measurements by concurrency into levels (median, spread, weight), in increasing concurrency. */
export function uslLevels(points: readonly UslPoint[]): UslLevel[] {
  const by = new Map<number, number[]>();
  for (const p of points) if (p.concurrency >= 1 && p.throughput > 0) by.set(p.concurrency, [...(by.get(p.concurrency) ?? []), p.throughput]);
  return [...by.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([concurrency, xs]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      const median = quantileSorted(sorted, 0.5);
      const mad = quantileSorted([...xs.map((x) => Math.abs(x - median))].sort((a, b) => a - b), 0.5);
      const sd = Math.max(1.4826 * mad, 0.02 * median);
      return { concurrency, throughput: median, n: xs.length, min: sorted[0], max: sorted[sorted.length - 1], relSpread: (1.4826 * mad) / median, weight: xs.length / (1.2533 * sd) ** 2 };
    });
}

export interface UslFit {
  readonly lambda: number;
  readonly sigma: number;
  readonly kappa: number;
  /** Concurrency at the peak, √((1−σ)/κ); Infinity when κ = 0. */
  readonly peakConcurrency: number;
  readonly peakThroughput: number;
  /** One per concurrency: the median of its measurements, their spread, the fitted value and the residual. */
  readonly points: ReadonlyArray<UslPoint & { readonly fitted: number; readonly residual: number; readonly n: number; readonly min: number; readonly max: number; readonly relSpread: number }>;
  /** Root mean square of the residuals relative to the measured throughput. */
  readonly relativeRmse: number;
}

export function uslThroughput(f: Pick<UslFit, "lambda" | "sigma" | "kappa">, n: number): number {
  return (f.lambda * n) / (1 + f.sigma * (n - 1) + f.kappa * n * (n - 1));
}

/** Least squares of y on the given columns (normal equations; columns few and well scaled). */
function lsq(cols: number[][], y: number[]): number[] | undefined {
  const k = cols.length;
  const a = Array.from({ length: k }, (_, i) => Array.from({ length: k + 1 }, (_, j) => (j < k ? dot(cols[i], cols[j]) : dot(cols[i], y))));
  for (let i = 0; i < k; i++) {
    let piv = i;
    for (let r = i + 1; r < k; r++) if (Math.abs(a[r][i]) > Math.abs(a[piv][i])) piv = r;
    [a[i], a[piv]] = [a[piv], a[i]];
    if (Math.abs(a[i][i]) < 1e-300) return undefined;
    for (let r = 0; r < k; r++) {
      if (r === i) continue;
      const f = a[r][i] / a[i][i];
      for (let c = i; c <= k; c++) a[r][c] -= f * a[i][c];
    }
  }
  return a.map((row, i) => row[k] / row[i]);
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function sse(ps: readonly UslLevel[], f: { lambda: number; sigma: number; kappa: number }): number {
  return ps.reduce((s, p) => s + p.weight * (p.throughput - uslThroughput(f, p.concurrency)) ** 2, 0);
}

export function fitUsl(points: readonly UslPoint[]): UslFit {
  const ps = uslLevels(points);
  if (ps.length < 3) throw new RangeError("the USL fit needs throughput at 3 or more different concurrencies (cpsim load --sweep-connections 1,2,4,8,16)");
  // Rows scaled by √weight; on N/X the weight of X carries over as w·X⁴/N² (delta method).
  const rw = ps.map((p) => Math.sqrt(p.weight) * p.throughput ** 2 / p.concurrency);
  const n = ps.map((p) => p.concurrency);
  const y = ps.map((p, i) => rw[i] * (p.concurrency / p.throughput));
  const one = n.map((_, i) => rw[i]);
  const c1 = n.map((x, i) => rw[i] * (x - 1));
  const c2 = n.map((x, i) => rw[i] * x * (x - 1));
  // Every combination of σ, κ free or held at 0; the best admissible one.
  let best: { lambda: number; sigma: number; kappa: number } | undefined;
  for (const [useS, useK] of [[true, true], [true, false], [false, true], [false, false]] as const) {
    const cols = [one, ...(useS ? [c1] : []), ...(useK ? [c2] : [])];
    const b = lsq(cols, y);
    if (b === undefined || !(b[0] > 0)) continue;
    const sigma = useS ? b[1] / b[0] : 0;
    const kappa = useK ? b[useS ? 2 : 1] / b[0] : 0;
    if (sigma < 0 || sigma > 1 || kappa < 0) continue;
    const f = { lambda: 1 / b[0], sigma, kappa };
    if (best === undefined || sse(ps, f) < sse(ps, best)) best = f;
  }
  let f = best ?? { lambda: ps[0].throughput / ps[0].concurrency, sigma: 0, kappa: 0 };
  // Gauss–Newton on the throughput residuals, keeping σ, κ ≥ 0 and only steps that help.
  for (let it = 0; it < 50; it++) {
    const J: number[][] = [[], [], []];
    const r: number[] = [];
    for (const p of ps) {
      const N = p.concurrency;
      const D = 1 + f.sigma * (N - 1) + f.kappa * N * (N - 1);
      const X = (f.lambda * N) / D;
      const w = Math.sqrt(p.weight);
      r.push(w * (p.throughput - X));
      J[0].push((w * N) / D);
      J[1].push((w * -X * (N - 1)) / D);
      J[2].push((w * -X * N * (N - 1)) / D);
    }
    const step = lsq(J, r);
    if (step === undefined) break;
    let t = 1;
    let improved = false;
    for (let h = 0; h < 20; h++, t /= 2) {
      const g = { lambda: f.lambda + t * step[0], sigma: Math.min(1, Math.max(0, f.sigma + t * step[1])), kappa: Math.max(0, f.kappa + t * step[2]) };
      if (g.lambda > 0 && sse(ps, g) < sse(ps, f)) {
        f = g;
        improved = true;
        break;
      }
    }
    if (!improved) break;
  }
  const peakN = f.kappa > 0 ? Math.sqrt(Math.max(0, 1 - f.sigma) / f.kappa) : Number.POSITIVE_INFINITY;
  const pts = ps.map((p) => {
    const fitted = uslThroughput(f, p.concurrency);
    return { concurrency: p.concurrency, throughput: sig(p.throughput, 6), n: p.n, min: sig(p.min, 6), max: sig(p.max, 6), relSpread: sig(p.relSpread, 3), fitted: sig(fitted), residual: sig(p.throughput - fitted) };
  });
  const rel = Math.sqrt(pts.reduce((s, p) => s + (p.residual / p.throughput) ** 2, 0) / pts.length);
  return {
    lambda: sig(f.lambda, 6),
    sigma: sig(f.sigma, 6),
    kappa: sig(f.kappa, 6),
    peakConcurrency: Number.isFinite(peakN) ? sig(peakN) : peakN,
    peakThroughput: sig(Number.isFinite(peakN) ? uslThroughput(f, Math.max(1, peakN)) : f.lambda / Math.max(f.sigma, 1e-12)),
    points: pts,
    relativeRmse: sig(rel, 3),
  };
}
