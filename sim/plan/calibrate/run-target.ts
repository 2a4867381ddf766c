/**
 * `cpsim plan calibrate --target URL`: measures the endpoint itself. Without --rate a short pilot
 * at 1 job/s finds the mean run time and the workers, and the measurement runs at half of that
 * capacity (busy enough for queueing to show, far from overload), capped by the target's
 * announced rate limits.
 */
import { ScenarioError } from "../scenario.ts";
import type { JobMeasurement } from "./measurement.ts";
import { measureJobs, type MeasureOptions } from "./measure-jobs.ts";
import { workersSeen } from "./observe.ts";
import { mean, sig } from "./sample-stats.ts";

export interface TargetCalibration {
  readonly pilot?: JobMeasurement;
  readonly measurement: JobMeasurement;
  readonly rateReason: string;
}

/** The rate at which the measurement offers `utilisation` of the capacity a pilot saw, within the rate limits. */
export function safeRate(pilot: JobMeasurement, durationS: number, utilisation = 0.5): { perSecond: number; reason: string } {
  const ran = pilot.jobs.filter((j) => j.executionMs !== undefined);
  if (ran.length === 0) throw new ScenarioError(`the pilot at ${pilot.offeredPerSecond} jobs/s saw no job finish; is endpoint ${pilot.endpoint} running? give --rate to measure anyway`);
  const s = mean(ran.map((j) => j.executionMs as number)) / 1000;
  const w = Math.max(1, workersSeen([pilot]).max);
  let perSecond = sig((utilisation * w) / Math.max(s, 0.001), 3);
  let reason = `${utilisation * 100}% of the capacity the pilot saw (${w} workers, mean run time ${sig(s * 1000, 3)} ms)`;
  for (const l of pilot.rateLimits) {
    if (l.windowS === null || !(l.windowS > 0)) continue;
    // A quarter of the window's quota over the measurement's span: two calls a job, /health 5 times a second.
    const span = Math.min(l.windowS, durationS);
    const cap = sig(Math.max(0.01, (l.quota / 4 / span - 5) / 2), 3);
    if (cap < perSecond) {
      perSecond = cap;
      reason += `, capped at ${cap}/s by the "${l.name}" rate limit (${l.quota} per ${l.windowS} s: a quarter of it over ${span} s)`;
    }
  }
  return { perSecond, reason };
}

export async function calibrateTarget(o: Omit<MeasureOptions, "perSecond"> & { readonly perSecond?: number; readonly pilotS?: number }): Promise<TargetCalibration> {
  if (o.perSecond !== undefined) {
    const measurement = await measureJobs({ ...o, perSecond: o.perSecond });
    return { measurement, rateReason: "given with --rate" };
  }
  const pilot = await measureJobs({ ...o, perSecond: 1, durationS: o.pilotS ?? Math.min(20, Math.max(5, o.durationS / 6)), seed: (o.seed + 1) >>> 0 });
  const { perSecond, reason } = safeRate(pilot, o.durationS);
  o.onProgress?.(`pilot: measuring at ${perSecond} jobs/s: ${reason}`);
  const measurement = await measureJobs({ ...o, perSecond });
  return { pilot, measurement, rateReason: reason };
}
