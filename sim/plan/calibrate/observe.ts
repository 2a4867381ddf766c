/**
 * What the /health samples and the job records of a measurement show beyond run times: the
 * workers (a fixed pool or a range), cold-start durations, the queueing discipline and the
 * arrival pattern of the measured traffic.
 */
import { ksDistance, ksPValue } from "./distributions.ts";
import type { HealthSample, JobMeasurement, JobSample } from "./measurement.ts";
import { cv, mean, quantileSorted } from "./sample-stats.ts";

const total = (h: HealthSample) => h.idle + h.running + h.initializing;

export interface WorkersSeen {
  readonly min: number;
  readonly max: number;
  /** Seconds during which jobs waited while every worker was up and none initializing: the pool's cap was reached. */
  readonly atCapWithQueueS: number;
  readonly samples: number;
}

export function workersSeen(ms: readonly JobMeasurement[]): WorkersSeen {
  let min = Infinity;
  let max = 0;
  let capS = 0;
  let n = 0;
  for (const m of ms) {
    const all = [...m.settle, ...m.health];
    for (const h of all) max = Math.max(max, total(h));
    for (const h of m.idle ?? []) {
      min = Math.min(min, total(h));
      max = Math.max(max, total(h));
      n++;
    }
    for (let i = 0; i < m.health.length; i++) {
      const h = m.health[i];
      min = Math.min(min, total(h));
      n++;
      if (i > 0 && h.inQueue > 0 && h.initializing === 0) capS += (h.tMs - m.health[i - 1].tMs) / 1000;
    }
  }
  return { min: Number.isFinite(min) ? min : max, max, atCapWithQueueS: capS, samples: n };
}

/**
 * The most jobs seen running at once (each from submission + delayTime for executionTime): a lower
 * bound on the workers when no /health sample was seen (a proxy whose client never read it).
 */
export function runningAtOnce(jobs: readonly JobSample[]): number {
  const edges: Array<[number, number]> = [];
  for (const j of jobs) {
    if (j.delayMs === undefined || j.executionMs === undefined) continue;
    const start = j.submitMs + j.delayMs;
    edges.push([start, 1], [start + j.executionMs, -1]);
  }
  // Ends before starts at the same instant: a worker that finishes one job and takes the next is one worker.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, d] of edges) most = Math.max(most, (now += d));
  return most;
}

/**
 * Cold-start durations: each rise of the initializing count starts that many cold starts, each
 * fall ends the oldest ones (first in, first out), timed at the midpoint between samples. Workers
 * initializing at the first sample are timed from it (a lower bound, said in the note).
 */
export function coldStarts(ms: readonly JobMeasurement[]): { durationsMs: number[]; openAtStart: number } {
  const out: number[] = [];
  let openAtStart = 0;
  for (const m of ms) {
    const all = [...m.settle, ...m.health].sort((a, b) => a.tMs - b.tMs);
    const open: number[] = [];
    let prev: HealthSample | undefined;
    for (const h of all) {
      const at = prev === undefined ? h.tMs : (prev.tMs + h.tMs) / 2;
      const before = prev?.initializing ?? 0;
      if (prev === undefined) openAtStart += h.initializing;
      for (let k = before; k < h.initializing; k++) open.push(at);
      for (let k = h.initializing; k < before && open.length > 0; k++) out.push(at - (open.shift() as number));
      prev = h;
    }
  }
  return { durationsMs: out, openAtStart };
}

export interface Discipline {
  readonly kind: "FIFO" | "not FIFO";
  /** Jobs that certainly started before a job certainly queued before them, per job. */
  readonly overtakesPerJob: number;
  readonly jobs: number;
}

/**
 * FIFO when hardly any job overtakes. A job entered the queue somewhere within its run call's
 * round trip, so an overtake counts only when it is certain: j was sent after i's run call had
 * answered, and j's latest possible start is before i's earliest possible start (20 ms of slack
 * when the round trip was not recorded).
 */
export function discipline(jobs: readonly JobSample[]): Discipline {
  const ran = jobs.filter((j) => j.delayMs !== undefined).sort((a, b) => a.submitMs - b.submitMs);
  const rtt = (j: JobSample) => j.runMs ?? 20;
  let overtakes = 0;
  // Earlier jobs by the time their run call answered: the latest earliest-start among those queued for sure before j.
  const byAnswer = ran.map((j) => ({ answered: j.submitMs + rtt(j), earliestStart: j.submitMs + (j.delayMs as number) })).sort((a, b) => a.answered - b.answered);
  let k = 0;
  let latest = -Infinity;
  for (const j of ran) {
    while (k < byAnswer.length && byAnswer[k].answered < j.submitMs) latest = Math.max(latest, byAnswer[k++].earliestStart);
    if (j.submitMs + rtt(j) + (j.delayMs as number) < latest) overtakes++;
  }
  const per = ran.length === 0 ? 0 : overtakes / ran.length;
  return { kind: per <= 0.01 ? "FIFO" : "not FIFO", overtakesPerJob: per, jobs: ran.length };
}

export interface ArrivalsSeen {
  readonly jobs: number;
  readonly durationS: number;
  readonly perSecond: number;
  /** Coefficient of variation of the gaps between submissions (1 for Poisson). */
  readonly gapCv: number;
  /** KS p-value of the gaps against an exponential of their mean. */
  readonly poissonP: number;
}

export function arrivals(m: JobMeasurement): ArrivalsSeen {
  const t = m.jobs.map((j) => j.submitMs).sort((a, b) => a - b);
  const gaps = t.slice(1).map((x, i) => x - t[i]).filter((g) => g >= 0).sort((a, b) => a - b);
  const g = mean(gaps);
  const ks = gaps.length > 1 ? ksDistance(gaps, (x) => 1 - Math.exp(-x / g)) : 1;
  return { jobs: t.length, durationS: m.durationS, perSecond: t.length / m.durationS, gapCv: cv(gaps), poissonP: gaps.length > 1 ? ksPValue(ks, gaps.length) : 0 };
}

export interface IdleTimeoutSeen {
  /** Workers that stopped after the last scale-up (the last rise of the worker count). */
  readonly stops: number;
  /** One estimate per stop that could be timed, ms. */
  readonly estimatesMs: readonly number[];
  /** Median of the estimates; undefined when no stop was timed. */
  readonly valueMs?: number;
  /** From the sampling resolution of every timed stop: [earliest possible, latest possible]. */
  readonly intervalMs?: readonly [number, number];
  /** The fewest workers seen from the last scale-up to the end of the idle watch. */
  readonly floor: number;
  readonly samples: number;
}

/**
 * How long a worker stays idle before it stops, from /health's counts after the last scale-up
 * (the measurement and its idle watch). A worker that stops at d was idle all through [d − T, d],
 * and so was every worker that stopped before it, or it had stopped: counting the stopped ones as
 * idle, the k-th stop at d had at least k idle since d − T. So T ≤ d − s_k, s_k the last time before
 * d that fewer than k were (idle or stopped): an upper bound in general, and T itself when the
 * platform hands a job to the worker idle the shortest (a stack of idle workers, as the emulator
 * does): its longest-idle worker then really has been idle since s_k. Each of d and s_k is known
 * to within its sampling gap.
 */
export function idleTimeoutSeen(m: JobMeasurement): IdleTimeoutSeen {
  const all = [...m.health, ...(m.idle ?? [])].sort((a, b) => a.tMs - b.tMs);
  let from = 0;
  for (let i = 1; i < all.length; i++) if (total(all[i]) > total(all[i - 1])) from = i;
  const seg = all.slice(from);
  const estimates: number[] = [];
  let lo = Infinity;
  let hi = -Infinity;
  let stops = 0;
  // adjusted[i]: idle workers at sample i plus those stopped since the segment began.
  const adjusted: number[] = [];
  for (let i = 0; i < seg.length; i++) {
    const fell = i > 0 ? Math.max(0, total(seg[i - 1]) - total(seg[i])) : 0;
    for (let j = 0; j < fell; j++) {
      const k = stops + j + 1;
      // Before sample i: the last sample with fewer than k (idle or stopped).
      let last = -1;
      for (let q = i - 1; q >= 0; q--) if (adjusted[q] < k) { last = q; break; }
      if (last < 0 || last + 1 >= seg.length) continue;
      const sLo = seg[last].tMs;
      const sHi = seg[last + 1].tMs;
      const dLo = seg[i - 1].tMs;
      const dHi = seg[i].tMs;
      estimates.push((dLo + dHi) / 2 - (sLo + sHi) / 2);
      lo = Math.min(lo, Math.max(0, dLo - sHi));
      hi = Math.max(hi, dHi - sLo);
    }
    stops += fell;
    adjusted.push(seg[i].idle + stops);
  }
  const sorted = [...estimates].sort((a, b) => a - b);
  const floor = seg.length > 0 ? Math.min(...seg.map(total)) : 0;
  return {
    stops,
    estimatesMs: estimates,
    ...(estimates.length > 0 ? { valueMs: quantileSorted(sorted, 0.5), intervalMs: [lo, hi] as const } : {}),
    floor,
    samples: seg.length,
  };
}
