/**
 * What the calibrator reads: a measurement of one job endpoint at one offered rate (jobs with the
 * delayTime and executionTime the endpoint reported, /health's worker and queue counts over time,
 * the rate limits the target announced). `cpsim plan calibrate --target` makes one; so does the
 * library's measureJobs(); read-measured.ts reads one from a file (or from a proxy's job log). Plain JSON, validated on read with a message saying what is wrong.
 */
import { ScenarioError } from "../scenario.ts";

export interface JobSample {
  /** The input's `op` (or "job"): run times are fitted per operation. */
  readonly op: string;
  /** When the run call was sent, ms from the measurement's start. */
  readonly submitMs: number;
  readonly status: string;
  /** Round trip of the run call, ms: the job entered the queue somewhere in [submitMs, submitMs + runMs]. */
  readonly runMs?: number;
  /** As the endpoint reported them, ms; absent when the job never ran. */
  readonly delayMs?: number;
  readonly executionMs?: number;
}

export interface HealthSample {
  readonly tMs: number;
  readonly idle: number;
  readonly running: number;
  readonly initializing: number;
  readonly throttled: number;
  readonly inQueue: number;
  readonly inProgress: number;
}

export interface RateLimitSeen {
  readonly name: string;
  readonly quota: number;
  readonly windowS: number | null;
}

export interface JobMeasurement {
  readonly format: "cpsim-job-measurement/1";
  readonly target: string;
  readonly endpoint: string;
  readonly startedAt: string;
  readonly seed: number;
  /** The Poisson rate the prober offered, jobs/s. */
  readonly offeredPerSecond: number;
  readonly durationS: number;
  readonly jobs: readonly JobSample[];
  /** Sampled while waiting for the endpoint to settle before the first job (cold starts show here), tMs < 0. */
  readonly settle: readonly HealthSample[];
  readonly health: readonly HealthSample[];
  /**
   * Sampled after the last job ended, until the workers were back to the count the endpoint
   * settled at (or stayed put, or the watch's bound passed): when idle workers stop. Absent in
   * measurements written before it was kept.
   */
  readonly idle?: readonly HealthSample[];
  /** Why the idle watch stopped: "floor" (back to the settled count), "quiet" (no change for a while), "bound" (its time bound), "off". */
  readonly idleWatch?: { readonly stopped: "floor" | "quiet" | "bound" | "off"; readonly boundS: number };
  readonly rateLimits: readonly RateLimitSeen[];
  /** Failed calls by reason (HTTP status or error code). */
  readonly errors: Readonly<Record<string, number>>;
}

export function checkMeasurement(json: unknown, label: string): JobMeasurement {
  const m = json as Partial<JobMeasurement> | null;
  if (m === null || typeof m !== "object" || m.format !== "cpsim-job-measurement/1") {
    throw new ScenarioError(`${label}: not a cpsim job measurement (format "cpsim-job-measurement/1"); cpsim plan calibrate --target URL writes one as measurement.json`);
  }
  if (!Array.isArray(m.jobs) || !Array.isArray(m.health) || !Array.isArray(m.settle)) throw new ScenarioError(`${label}: jobs, settle and health must be arrays`);
  if (m.idle !== undefined && !Array.isArray(m.idle)) throw new ScenarioError(`${label}: idle (the /health samples after the last job) must be an array when present`);
  if (!(typeof m.durationS === "number" && m.durationS > 0)) throw new ScenarioError(`${label}: durationS must be a number above 0`);
  const ran = m.jobs.filter((j) => typeof j.delayMs === "number" && typeof j.executionMs === "number");
  if (ran.length < 20) throw new ScenarioError(`${label}: ${ran.length} jobs with delayTime and executionTime; at least 20 are needed for a fit: measure longer or at a higher rate`);
  return m as JobMeasurement;
}
