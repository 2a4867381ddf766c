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
  }
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
  }
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
