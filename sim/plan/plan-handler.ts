/**
 * The handler of a planner endpoint: each job runs for a draw from the endpoint's execution-time
 * distribution and fails with its failure probability. Pure in (input, seed) as handlers must be:
 * the uniforms come from the job's seed. A trace row's duration (`{ durationMs }`) wins over the draw.
 */
import { mix32 } from "../domain/hash32.ts";
import type { HandlerPlan, JobHandler } from "../domain/handlers/index.ts";
import type { Distribution } from "./scenario.ts";

const TWO32 = 4294967296;
const OK: HandlerPlan = Object.freeze({ kind: "complete", durationMs: 0, output: null });

/** A uniform in (0, 1) from a 32-bit seed and a salt. */
function unit(seed: number, salt: number): number {
  return (mix32((seed ^ salt) >>> 0) + 0.5) / TWO32;
}

/** A duration in ms from uniforms in (0, 1). */
export function drawMs(d: Distribution, u1: number, u2: number): number {
  switch (d.dist) {
    case "constant":
      return d.value;
    case "exponential":
      return -d.mean * Math.log(u1);
    case "uniform":
      return d.min + (Math.max(d.min, d.max) - d.min) * u1;
    case "lognormal": {
      if (d.cv === 0) return d.mean;
      const sigma2 = Math.log(1 + d.cv * d.cv);
      const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      return Math.exp(Math.log(d.mean) - sigma2 / 2 + Math.sqrt(sigma2) * z);
    }
    case "weibull":
      return d.scale * Math.pow(-Math.log(u1), 1 / d.shape);
    case "empirical":
      return empiricalAt(d.quantiles, u1);
    case "gamma": {
      // Two uniforms seed a short stream for Marsaglia and Tsang's rejection method.
      let k = 0;
      return gammaDraw(1 / (d.cv * d.cv), d.mean * d.cv * d.cv, () => unit((Math.floor(u1 * TWO32) ^ Math.floor(u2 * 65536)) >>> 0, 0x9e3779b9 + 0x85ebca6b * ++k));
    }
  }
}

/** The value at probability u of equally spaced quantiles (min at 0, max at 1), linearly interpolated. */
export function empiricalAt(q: readonly number[], u: number): number {
  const x = u * (q.length - 1);
  const i = Math.min(q.length - 2, Math.floor(x));
  return q[i] + (q[i + 1] - q[i]) * (x - i);
}

/** A gamma(shape, scale) draw from uniforms in (0, 1) (Marsaglia and Tsang; shape < 1 boosted). */
export function gammaDraw(shape: number, scale: number, next: () => number): number {
  if (shape < 1) return gammaDraw(shape + 1, scale, next) * Math.pow(next(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (let tries = 0; tries < 1000; tries++) {
    const z = Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next());
    const v0 = 1 + c * z;
    if (v0 <= 0) continue;
    const v = v0 * v0 * v0;
    const u = next();
    if (Math.log(u) < 0.5 * z * z + d - d * v + d * Math.log(v)) return d * v * scale;
  }
  return shape * scale;
}

/** The mean of a distribution, ms. */
export function meanMs(d: Distribution): number {
  switch (d.dist) {
    case "constant":
      return d.value;
    case "exponential":
    case "lognormal":
      return d.mean;
    case "uniform":
      return (d.min + Math.max(d.min, d.max)) / 2;
    case "gamma":
      return d.mean;
    case "weibull":
      return d.scale * Math.exp(logGamma(1 + 1 / d.shape));
    case "empirical": {
      // The mean of the piecewise-linear quantile function: the trapezoid rule.
      const q = d.quantiles;
      let sum = 0;
      for (let i = 1; i < q.length; i++) sum += (q[i - 1] + q[i]) / 2;
      return sum / (q.length - 1);
    }
  }
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7). */
export function logGamma(x: number): number {
  const g = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  x -= 1;
  let a = g[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += g[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** A sampler for one distribution, chosen once: the per-job path has no switch. */
function sampler(d: Distribution): (seed: number) => number {
  switch (d.dist) {
    case "constant":
      return () => d.value;
    case "exponential": {
      const mean = d.mean;
      return (seed) => -mean * Math.log(unit(seed, 0x2545f491));
    }
    case "empirical": {
      const q = [...d.quantiles].sort((a, b) => a - b);
      return (seed) => empiricalAt(q, unit(seed, 0x2545f491));
    }
    default:
      return (seed) => drawMs(d, unit(seed, 0x2545f491), unit(seed, 0x68e31da4));
  }
}

export function planHandler(name: string, execution: Distribution, failureProbability: number): JobHandler {
  const draw = sampler(execution);
  return {
    name,
    streaming: false,
    plan(input, ctx): HandlerPlan {
      const traced = input === null || typeof input !== "object" ? undefined : (input as { durationMs?: unknown }).durationMs;
      const ms = typeof traced === "number" ? traced : draw(ctx.seed);
      // Durations are whole milliseconds, as handlers' are.
      const durationMs = Math.max(0, Math.round(ms));
      if (failureProbability > 0 && unit(ctx.seed, 0x1b873593) < failureProbability) return { kind: "fail", durationMs, error: "simulated failure" };
      return durationMs === 0 ? OK : { kind: "complete", durationMs, output: null };
    },
  };
}
