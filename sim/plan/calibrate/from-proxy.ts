/**
 * Real traffic as a calibration source: the job timings `cpsim proxy` keeps of the traffic it
 * forwards (its jobs.json, format "cpsim-proxy-jobs/1"), turned into a job measurement of one
 * endpoint. The measured window runs from the first submission the proxy kept to the last; the
 * rate is the traffic's (n − 1 gaps over that span); /health samples before the first submission
 * are the measurement's settle samples (cold starts show there). The proxy sees /health only when
 * the client reads it: without it the workers are bounded below by the jobs seen running at once.
 * Read as a file format, not imported: sim/plan does not depend on conformance/.
 */
import { parseRateLimitPolicyHeader } from "../../../load/rate-limit-watch.ts";
import { ScenarioError } from "../scenario.ts";
import { checkMeasurement, type HealthSample, type JobMeasurement, type JobSample } from "./measurement.ts";

export const PROXY_JOBS_FORMAT = "cpsim-proxy-jobs/1";

interface ProxyEndpoint {
  endpoint: string;
  jobs: Array<JobSample & { submitMs: number }>;
  health: HealthSample[];
  rateLimitPolicy?: string;
  errors?: Record<string, number>;
  dropped?: { jobs: number; health: number };
}

interface ProxyJobs {
  format: string;
  target: string;
  startedAt: string;
  endpoints: ProxyEndpoint[];
}

export function isProxyJobs(json: unknown): boolean {
  return typeof json === "object" && json !== null && (json as { format?: unknown }).format === PROXY_JOBS_FORMAT;
}

/** The endpoint `endpoint` of a proxy's jobs.json (default: the one with the most jobs) as a job measurement. */
export function measurementFromProxy(json: unknown, label: string, endpoint?: string): JobMeasurement {
  const log = json as ProxyJobs;
  if (!isProxyJobs(json) || !Array.isArray(log.endpoints)) throw new ScenarioError(`${label}: not a cpsim proxy job log (format "${PROXY_JOBS_FORMAT}"); cpsim proxy writes one as jobs.json beside its report`);
  const seen = log.endpoints.filter((e) => Array.isArray(e.jobs) && Array.isArray(e.health));
  const names = seen.map((e) => `${e.endpoint} (${e.jobs.length} jobs)`).join(", ") || "none";
  const ep = endpoint !== undefined ? seen.find((e) => e.endpoint === endpoint) : [...seen].sort((a, b) => b.jobs.length - a.jobs.length)[0];
  if (ep === undefined) {
    throw new ScenarioError(endpoint !== undefined ? `${label}: the proxy saw no job of endpoint ${endpoint}; it saw ${names}` : `${label}: the proxy saw no job endpoint's traffic`);
  }
  const submitted = [...ep.jobs].sort((a, b) => a.submitMs - b.submitMs);
  if (submitted.length < 2) throw new ScenarioError(`${label}: endpoint ${ep.endpoint}: ${submitted.length} job(s) submitted through the proxy; at least 20 finished ones are needed for a fit`);
  const t0 = submitted[0].submitMs;
  const spanMs = submitted[submitted.length - 1].submitMs - t0;
  // n submissions over the span between the first and the last: n − 1 gaps, so the rate n / durationS is (n − 1) / span.
  const durationS = Math.max(spanMs, 1) / 1000 * (submitted.length / (submitted.length - 1));
  const health = [...ep.health].sort((a, b) => a.tMs - b.tMs).map((h) => ({ ...h, tMs: h.tMs - t0 }));
  const m: JobMeasurement = {
    format: "cpsim-job-measurement/1",
    target: log.target,
    endpoint: ep.endpoint,
    startedAt: new Date(Date.parse(log.startedAt) + t0).toISOString(),
    seed: 0,
    offeredPerSecond: submitted.length / durationS,
    durationS,
    jobs: submitted.map((j) => ({ ...j, submitMs: j.submitMs - t0 })),
    settle: health.filter((h) => h.tMs < 0),
    health: health.filter((h) => h.tMs >= 0),
    rateLimits: parseRateLimitPolicyHeader(ep.rateLimitPolicy).map((p) => ({ name: p.name, quota: p.quota, windowS: p.windowS ?? null })),
    errors: ep.errors ?? {},
  };
  return checkMeasurement(m, `${label} (endpoint ${ep.endpoint})`);
}
