/**
 * What capacity calibration needs of the job traffic the proxy saw, per job endpoint: when each
 * run and runsync request arrived, each job's delayTime and executionTime from the answer that
 * showed it final, /health's worker and queue counts over time, and the target's RateLimit-Policy.
 * The proxy writes it as jobs.json beside its report; `cpsim plan calibrate --measured
 * DIR/jobs.json` fits a scenario from it. Memory is bounded: a number of jobs and of /health
 * samples per endpoint (the oldest go first, so what is kept is the latest stretch of the
 * traffic, without holes) and of endpoints; nothing of a body is kept but these numbers, and the
 * keys never are.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { HealthSample } from "../../sim/plan/calibrate/measurement.ts";
import type { SeenExchange } from "../passive/answer.ts";
import { BoundedMap } from "../passive/bounded-map.ts";
import { operationOf } from "../passive/classify.ts";
import { FINAL_JOB_STATES } from "../passive/follow-jobs.ts";

export const JOB_TRAFFIC_FORMAT = "cpsim-proxy-jobs/1";
export const JOB_TRAFFIC_FILE = "jobs.json";

export interface TrafficJob {
  /** The input's `op` when it is a string ("job" otherwise): the calibrator fits run times per operation. */
  readonly op: string;
  /** When the run or runsync request reached the proxy, ms from the proxy's start. */
  readonly submitMs: number;
  /** Round trip of a run call, ms (the job entered the queue within it); absent for runsync, whose answer waits for the job. */
  readonly runMs?: number;
  /** The last status seen; UNFINISHED when no answer showed it final. */
  status: string;
  delayMs?: number;
  executionMs?: number;
}

/** A /health answer as the proxy saw it: the calibrator's sample, tMs midway between the request and its answer, from the proxy's start. */
export type TrafficHealth = HealthSample;

export interface EndpointTraffic {
  readonly endpoint: string;
  readonly jobs: readonly TrafficJob[];
  readonly health: readonly TrafficHealth[];
  /** The last RateLimit-Policy header of the endpoint's answers. */
  readonly rateLimitPolicy?: string;
  /** Failed run and runsync calls by HTTP status. */
  readonly errors: Readonly<Record<string, number>>;
  /** Jobs and /health samples let go to keep the bound (the oldest). */
  readonly dropped: { readonly jobs: number; readonly health: number };
}

export interface JobTrafficLog {
  readonly format: typeof JOB_TRAFFIC_FORMAT;
  /** The proxy's serverless target. */
  readonly target: string;
  readonly startedAt: string;
  readonly durationS: number;
  readonly endpoints: readonly EndpointTraffic[];
  /** Endpoints not followed past the bound. */
  readonly endpointsDropped: number;
}

export interface JobTimingBounds {
  readonly jobsPerEndpoint: number;
  readonly healthPerEndpoint: number;
  readonly endpoints: number;
}

/** 50,000 jobs (a little over an hour at 12 jobs/s) and 20,000 /health samples (33 minutes at 10 a second) per endpoint, 16 endpoints: about 10 MB at most. */
export const DEFAULT_JOB_TIMING_BOUNDS: JobTimingBounds = { jobsPerEndpoint: 50_000, healthPerEndpoint: 20_000, endpoints: 16 };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

interface EndpointLog {
  jobs: TrafficJob[];
  /** Jobs not yet seen final, by id: the answers that end them. */
  open: BoundedMap<string, TrafficJob>;
  health: TrafficHealth[];
  rateLimitPolicy?: string;
  errors: Record<string, number>;
  dropped: { jobs: number; health: number };
}

/** Drops the oldest tenth once past the bound: amortised, and the kept stretch stays contiguous. */
function keepBound<T>(xs: T[], bound: number): number {
  if (xs.length <= bound) return 0;
  const n = xs.length - bound + Math.floor(bound / 10);
  xs.splice(0, n);
  return n;
}

export class JobTimings {
  private readonly endpoints = new Map<string, EndpointLog>();
  private endpointsDropped = 0;

  constructor(
    private readonly target: string,
    /** Date.now() of the proxy's start: every time is from it. */
    private readonly startedAt: number,
    private readonly bounds: JobTimingBounds = DEFAULT_JOB_TIMING_BOUNDS,
  ) {}

  private log(endpoint: string): EndpointLog | undefined {
    let l = this.endpoints.get(endpoint);
    if (l === undefined) {
      if (this.endpoints.size >= this.bounds.endpoints) {
        this.endpointsDropped++;
        return undefined;
      }
      l = { jobs: [], open: new BoundedMap(this.bounds.jobsPerEndpoint), health: [], errors: {}, dropped: { jobs: 0, health: 0 } };
      this.endpoints.set(endpoint, l);
    }
    return l;
  }

  /** One exchange the proxy saw; anything but a job endpoint's answer is passed over. */
  see(x: SeenExchange): void {
    const op = operationOf(x);
    const a = x.answer;
    if (op.kind !== "job" || a === undefined) return;
    if (op.op !== "run" && op.op !== "runsync" && op.op !== "health" && op.jobId === undefined) return;
    const l = this.log(op.endpointId);
    if (l === undefined) return;
    const policy = a.headers["ratelimit-policy"];
    if (policy !== undefined) l.rateLimitPolicy = policy.slice(0, 1000);
    const body = isObj(a.json) ? a.json : undefined;
    if (op.op === "health") {
      if (a.status !== 200 || body === undefined) return;
      const w = isObj(body.workers) ? body.workers : {};
      const j = isObj(body.jobs) ? body.jobs : {};
      l.health.push({
        tMs: Math.round((x.sentAt + x.answeredAt) / 2 - this.startedAt),
        idle: num(w.idle), running: num(w.running), initializing: num(w.initializing), throttled: num(w.throttled),
        inQueue: num(j.inQueue), inProgress: num(j.inProgress),
      });
      l.dropped.health += keepBound(l.health, this.bounds.healthPerEndpoint);
      return;
    }
    if (op.op === "run" || op.op === "runsync") {
      if (a.status < 200 || a.status >= 300 || body === undefined || typeof body.id !== "string") {
        const k = `${op.op} ${a.status}`;
        l.errors[k] = (l.errors[k] ?? 0) + 1;
        return;
      }
      const input = isObj(x.request.json) && isObj(x.request.json.input) ? x.request.json.input : undefined;
      const job: TrafficJob = {
        op: typeof input?.op === "string" ? input.op.slice(0, 64) : "job",
        submitMs: x.sentAt - this.startedAt,
        ...(op.op === "run" ? { runMs: x.answeredAt - x.sentAt } : {}),
        status: "UNFINISHED",
      };
      l.jobs.push(job);
      l.dropped.jobs += keepBound(l.jobs, this.bounds.jobsPerEndpoint);
      l.open.set(body.id, job);
      this.final(l, body.id, body);
      return;
    }
    if (body !== undefined && a.status >= 200 && a.status < 300) this.final(l, op.jobId as string, body);
  }

  /** An answer showing job `id` final ends it: its delayTime and executionTime are the job's. */
  private final(l: EndpointLog, id: string, body: Record<string, unknown>): void {
    const status = body.status;
    if (typeof status !== "string" || !FINAL_JOB_STATES.has(status)) return;
    const job = l.open.get(id);
    if (job === undefined) return;
    l.open.delete(id);
    job.status = status;
    if (typeof body.delayTime === "number") job.delayMs = body.delayTime;
    if (typeof body.executionTime === "number") job.executionMs = body.executionTime;
  }

  /** What was seen so far, as jobs.json holds it. */
  snapshot(now: number = Date.now()): JobTrafficLog {
    return {
      format: JOB_TRAFFIC_FORMAT,
      target: this.target,
      startedAt: new Date(this.startedAt).toISOString(),
      durationS: Math.max(0, now - this.startedAt) / 1000,
      endpoints: [...this.endpoints].map(([endpoint, l]) => ({
        endpoint,
        jobs: l.jobs.map((j) => ({ ...j })),
        health: [...l.health],
        ...(l.rateLimitPolicy !== undefined ? { rateLimitPolicy: l.rateLimitPolicy } : {}),
        errors: { ...l.errors },
        dropped: { ...l.dropped },
      })),
      endpointsDropped: this.endpointsDropped,
    };
  }
}

/** Writes `dir`/jobs.json, beside and renamed over as the report files are: a kill mid-write leaves the previous one whole. */
export async function writeJobTraffic(dir: string, log: JobTrafficLog): Promise<string> {
  const path = join(resolve(dir), JOB_TRAFFIC_FILE);
  await mkdir(resolve(dir), { recursive: true });
  await writeFile(`${path}.partial`, JSON.stringify(log) + "\n", "utf8");
  await rename(`${path}.partial`, path);
  return path;
}
