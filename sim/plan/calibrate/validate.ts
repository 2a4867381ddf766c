/**
 * `cpsim plan validate`: a prediction at a measurement's rate and window, and whether each
 * measured percentile (delay and latency, p50/p90/p99) lies in its predicted 95% interval.
 */
import type { LoadedScenario } from "../scenario.ts";
import { measuredPercentiles } from "./calibrate.ts";
import type { JobMeasurement } from "./measurement.ts";
import { predict, type Band, type Prediction } from "./predict.ts";
import { sig } from "./sample-stats.ts";

export interface ValidationRow {
  readonly metric: string;
  readonly measured: number;
  readonly predicted: Band;
  readonly inside: boolean;
  /** (predicted median − measured) / measured. */
  readonly error: number;
}

export interface Validation {
  readonly prediction: Prediction;
  readonly rows: readonly ValidationRow[];
  readonly inside: number;
  readonly total: number;
}

export function validate(loaded: LoadedScenario, m: JobMeasurement, o: { readonly seed: number; readonly runs?: number }): Validation {
  // A measurement that began with no workers (a scaled-to-zero endpoint) is predicted from the same start.
  const first = m.health[0];
  const fromCold = first !== undefined && first.idle + first.running + first.initializing === 0;
  const prediction = predict(loaded, { perSecond: m.offeredPerSecond, windowS: m.durationS, seed: o.seed, fromCold, ...(o.runs !== undefined ? { runs: o.runs } : {}) });
  const measured = measuredPercentiles([m]);
  const rows: ValidationRow[] = [];
  for (const kind of ["delayMs", "latencyMs"] as const) {
    for (const p of ["p50", "p90", "p99"] as const) {
      const band = prediction[kind][p];
      const x = measured[kind][p];
      rows.push({
        metric: `${p} ${kind === "delayMs" ? "delay" : "latency"}`,
        measured: sig(x),
        predicted: band,
        inside: x >= band.lo && x <= band.hi,
        error: x > 0 ? sig((band.median - x) / x, 3) : band.median === 0 ? 0 : Number.POSITIVE_INFINITY,
      });
    }
  }
  return { prediction, rows, inside: rows.filter((r) => r.inside).length, total: rows.length };
}
