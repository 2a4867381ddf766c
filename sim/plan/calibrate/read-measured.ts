/**
 * What `--measured` names: a job measurement (measurement.json of `cpsim plan calibrate
 * --target`), a `cpsim proxy` job log (its jobs.json), or the proxy's report folder or
 * report.json, beside which the proxy writes jobs.json.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { ScenarioError } from "../scenario.ts";
import { isProxyJobs, measurementFromProxy } from "./from-proxy.ts";
import { checkMeasurement, type JobMeasurement } from "./measurement.ts";

const PROXY_JOBS_FILE = "jobs.json";

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new ScenarioError(`${path}: not a readable measurement (${(err as Error).message}); make one with cpsim plan calibrate --target URL, or put cpsim proxy in front of the target (its jobs.json)`);
  }
}

const isProxyReport = (json: unknown) => typeof json === "object" && json !== null && Array.isArray((json as { rules?: unknown }).rules) && (json as { tool?: { name?: unknown } }).tool?.name === "cpsim";

/** The measurement `path` names; `endpoint` picks one of a proxy log's endpoints (default the busiest). */
export function readMeasured(path: string, endpoint?: string): JobMeasurement {
  return readMeasuredWithSource(path, endpoint).measurement;
}

/** The measurement and how a calibration's provenance names it (the file read, and for a proxy's log, the endpoint). */
export function readMeasuredWithSource(path: string, endpoint?: string): { measurement: JobMeasurement; source: string } {
  let file = path;
  if (existsSync(path) && statSync(path).isDirectory()) {
    file = join(path, PROXY_JOBS_FILE);
    if (!existsSync(file)) throw new ScenarioError(`${path} is a folder without ${PROXY_JOBS_FILE}: give a measurement file, or the report folder of a cpsim proxy that saw job traffic`);
  }
  let json = readJson(file);
  if (isProxyReport(json)) {
    const beside = join(dirname(file), PROXY_JOBS_FILE);
    if (!existsSync(beside)) throw new ScenarioError(`${file} is a proxy's conformance report without ${PROXY_JOBS_FILE} beside it: the job timings are there (a cpsim proxy of this version writes it)`);
    file = beside;
    json = readJson(file);
  }
  if (isProxyJobs(json)) {
    const measurement = measurementFromProxy(json, file, endpoint);
    return { measurement, source: `${file} (cpsim proxy traffic of endpoint ${measurement.endpoint})` };
  }
  return { measurement: checkMeasurement(json, file), source: file };
}
