/**
 * The health oracle: which values of an endpoint's health counters the spec allows, given what
 * the suite knows of its own jobs. Each job counts as the platform model counts it: a model job
 * (shadow-models.ts) in each state the job may have been in during the read gives its
 * contribution to every counter (a COMPLETED job adds one to jobs.completed, a running one to
 * jobs.inProgress and workers.running, a retried one to jobs.retried), and the job adds the least
 * of those. Other users may share the endpoint and expire or purge nothing of the suite's, so the
 * set of allowed values of a counter is "at least the sum" (a lenient reading: no upper bound is
 * safe on a shared endpoint). A counter that drops below it went backwards past the suite's own
 * jobs, or never counted them. The sum moves as the jobs do: after a cancel, a retry, or with
 * nothing sent, it is computed again from the states the model says the jobs may then be in.
 */
import { JOB_STATUSES, type Health, type JobStatus } from "../../sim/domain/serverless/index.ts";
import type { Profile } from "../options.ts";
import { memo } from "./memo.ts";
import { JobModel } from "./shadow-models.ts";

/** One of the suite's jobs at a health read. */
export interface HealthJob {
  /** The states it may have been in while health was computed. */
  readonly possible: readonly string[];
  /** Its shadow's health when its state is known (it carries what states do not: a retry). */
  readonly shadow?: Health;
}

/** A bound on one counter, by its name in the answer ("jobs.completed", "workers.idle + workers.running"). */
export interface CounterFloor {
  readonly counter: string;
  readonly floor: number;
}

export interface HealthOracle {
  /** The least each counter may read, given the suite's jobs. */
  floors(jobs: readonly HealthJob[]): readonly CounterFloor[];
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

export function modelHealthOracle(profile: Profile): HealthOracle {
  return {
    floors(jobs) {
      const sum = new Map<string, number>();
      for (const job of jobs) {
        const each = job.shadow && job.possible.length === 1 ? [countsOf(job.shadow)] : job.possible.map(contribution);
        for (const counter of [...JOB_COUNTERS, "jobs.retried", "workers.running"]) {
          const least = each.length ? Math.min(...each.map((c) => c[counter] ?? 0)) : 0;
          sum.set(counter, (sum.get(counter) ?? 0) + least);
        }
      }
      const at = (k: string) => sum.get(k) ?? 0;
      const floors: CounterFloor[] = JOB_COUNTERS.map((counter) => ({ counter, floor: at(counter) }));
      // What `retried` counts and which workers count as running are the emulator's readings
      // (the spec names the counters only): strict holds them to the model's, lenient asks only
      // that a busy worker be counted as a worker.
      if (profile === "strict") floors.push({ counter: "jobs.retried", floor: at("jobs.retried") }, { counter: "workers.running", floor: at("workers.running") });
      else floors.push({ counter: "workers.idle + workers.running", floor: Math.min(at("workers.running"), 1) });
      return floors;
    },
  };
}

/** A counter's value in a health answer, by its name in a CounterFloor (a sum of names added up). */
export function counterValue(body: { readonly jobs?: Readonly<Record<string, unknown>>; readonly workers?: Readonly<Record<string, unknown>> }, counter: string): number {
  return counter.split(" + ").reduce((total, name) => {
    const [group, key] = name.split(".") as ["jobs" | "workers", string];
    const v = body[group]?.[key];
    return total + (typeof v === "number" ? v : 0);
  }, 0);
}
