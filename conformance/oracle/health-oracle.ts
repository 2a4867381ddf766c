/**
 * The health oracle: which values of an endpoint's health counters the spec allows, given what
 * the suite knows of its own jobs. Each job counts as the platform model counts it: a model job
 * (shadow-models.ts) in each state the job may have been in during the read gives its
 * contribution to every counter (a COMPLETED job adds one to jobs.completed, a running one to
 * jobs.inProgress and workers.running, a retried one to jobs.retried), and the job adds the least
 * of those. Other users may share the endpoint and expire or purge nothing of the suite's, so the
 * set of allowed values of a counter is "at least the sum" (a lenient reading: no upper bound is
 * safe on a shared endpoint in general). A counter that drops below it went backwards past the
 * suite's own jobs, or never counted them. The sum moves as the jobs do: after a cancel, a retry,
 * or with nothing sent, it is computed again from the states the model says the jobs may then be
 * in. Where the caller knows nothing else adds to the counters (a baseline read before its jobs),
 * each job counter is also at most the baseline plus the most each job may add: the model counts
 * a job once, so one counted twice shows.
 */
import { JOB_STATUSES, type Health, type JobStatus } from "../../sim/domain/serverless/index.ts";
import type { Profile } from "../options.ts";
import { memo } from "./memo.ts";
import { JobModel } from "./shadow-models.ts";

/** One of the suite's jobs at a health read. */
export interface HealthJob {
  /** The states it may have been in while health was computed. */
  readonly possible: readonly string[];
  /** Its shadow's health (it carries what states do not: a retry). */
  readonly shadow?: Health;
  /** Whether it read the same state just before and just after (its shadow's health is then exact). */
  readonly steady?: boolean;
}

/**
 * The values one counter may read, by its name in the answer ("jobs.completed",
 * "workers.idle + workers.running"): at least `floor`, and at most `ceiling` when one is known.
 */
export interface CounterBound {
  readonly counter: string;
  readonly floor: number;
  readonly ceiling?: number;
}

/** A health answer's body, as far as the bounds read it. */
export type HealthBody = { readonly jobs?: Readonly<Record<string, unknown>>; readonly workers?: Readonly<Record<string, unknown>> };

export interface HealthOracle {
  /**
   * The values each counter may read, given the suite's jobs. With `baseline` (health read
   * before any of those jobs, where nothing but them can add to the counters), each job counter
   * is also at most its baseline plus the most the jobs may add: a job counted twice breaks it.
   */
  bounds(jobs: readonly HealthJob[], baseline?: HealthBody): readonly CounterBound[];
}

type Counts = Readonly<Record<string, number>>;

function countsOf(h: Health): Counts {
  return { ...Object.fromEntries(Object.entries(h.jobs).map(([k, v]) => [`jobs.${k}`, v])), "workers.running": h.workers.running };
}

/** What one job in `status` adds to each counter in the model (a job never retried). */
const contribution = memo((status: string): Counts =>
  (JOB_STATUSES as readonly string[]).includes(status) ? countsOf(JobModel.inStatus(status as JobStatus, 1).health()) : {},
);

const JOB_COUNTERS = ["jobs.completed", "jobs.failed", "jobs.inProgress", "jobs.inQueue"];
const ALL_COUNTERS = [...JOB_COUNTERS, "jobs.retried", "workers.running"];

export function modelHealthOracle(profile: Profile): HealthOracle {
  return {
    bounds(jobs, baseline) {
      const least = new Map<string, number>();
      const most = new Map<string, number>();
      const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
      for (const job of jobs) {
        const byState = job.possible.map(contribution);
        const exact = job.shadow && job.steady ? [countsOf(job.shadow)] : byState;
        const any = job.shadow ? [...byState, countsOf(job.shadow)] : byState;
        for (const counter of ALL_COUNTERS) {
          add(least, counter, exact.length ? Math.min(...exact.map((c) => c[counter] ?? 0)) : 0);
          // A job whose states are unknown (an illegal move) may add one to any counter.
          add(most, counter, any.length ? Math.max(...any.map((c) => c[counter] ?? 0)) : 1);
        }
      }
      const at = (m: Map<string, number>, k: string) => m.get(k) ?? 0;
      const bound = (counter: string): CounterBound => ({
        counter,
        floor: at(least, counter),
        ...(baseline ? { ceiling: counterValue(baseline, counter) + at(most, counter) } : {}),
      });
      const bounds: CounterBound[] = JOB_COUNTERS.map(bound);
      // What `retried` counts and which workers count as running are the emulator's readings
      // (the spec names the counters only): strict holds them to the model's, lenient asks only
      // that a busy worker be counted as a worker. Workers serve every user of an endpoint: no ceiling.
      if (profile === "strict") bounds.push(bound("jobs.retried"), { counter: "workers.running", floor: at(least, "workers.running") });
      else bounds.push({ counter: "workers.idle + workers.running", floor: Math.min(at(least, "workers.running"), 1) });
      return bounds;
    },
  };
}

/** A counter's value in a health answer, by its name in a CounterBound (a sum of names added up). */
export function counterValue(body: HealthBody, counter: string): number {
  return counter.split(" + ").reduce((total, name) => {
    const [group, key] = name.split(".") as ["jobs" | "workers", string];
    const v = body[group]?.[key];
    return total + (typeof v === "number" ? v : 0);
  }, 0);
}
