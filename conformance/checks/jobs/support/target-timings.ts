/**
 * What the job rules have measured of the target's timing in this run (issue 32, issue 31 item
 * 6), so that a rule's waits follow the target rather than fixed sleeps: how long a submitted job
 * waited before a rule saw it IN_PROGRESS (a worker's pick-up, a cold start included, and the
 * poll's granularity), and how long a status read took. Each is the largest seen so far, shared by
 * every rule of the run (keyed by the run's options, like the target's clock); before any sample,
 * a default that a correct target meets.
 *
 * Real time only: where the suite moves the clock (the control API) nothing here is read.
 */
import type { CheckContext } from "../../../check.ts";

interface Timings {
  pickupMs?: number;
  readMs?: number;
  /** The last status reads' round trips (at most RECENT_READS), for a typical one. */
  recentReads: number[];
}

const RECENT_READS = 64;

const byRun = new WeakMap<object, Timings>();

function timings(ctx: CheckContext): Timings {
  let t = byRun.get(ctx.options);
  if (!t) byRun.set(ctx.options, (t = { recentReads: [] }));
  return t;
}

/** Before any job was seen picked up: a cold start of a few seconds. */
export const DEFAULT_PICKUP_MS = 5_000;
/** Before any status read was timed. */
const DEFAULT_READ_MS = 250;

/** Notes that a job submitted `ms` earlier was seen IN_PROGRESS. */
export function notePickup(ctx: CheckContext, ms: number): void {
  const t = timings(ctx);
  t.pickupMs = Math.max(t.pickupMs ?? 0, ms);
}

/** Notes a status read's round trip. */
export function noteRead(ctx: CheckContext, ms: number): void {
  const t = timings(ctx);
  t.readMs = Math.max(t.readMs ?? 0, ms);
  t.recentReads.push(ms);
  if (t.recentReads.length > RECENT_READS) t.recentReads.shift();
}

/** A status read's round trip as most of the recent ones took (the 90th percentile), to size a set-up by; a set-up it was too short for is tried again, longer. */
export function typicalReadMs(ctx: CheckContext): number {
  const reads = [...timings(ctx).recentReads].sort((a, b) => a - b);
  return reads.length ? reads[Math.min(reads.length - 1, Math.floor(reads.length * 0.9))]! : DEFAULT_READ_MS;
}

/** The longest pick-up seen in this run (the default before any). */
export function pickupMs(ctx: CheckContext): number {
  return timings(ctx).pickupMs ?? DEFAULT_PICKUP_MS;
}

/**
 * How long after a moment the target's answers may still not show it: two of the slowest status
 * reads seen, and a second for the target to record a handler's end; at least 1.5 s.
 */
export function settleMs(ctx: CheckContext): number {
  return Math.max(1_500, 2 * (timings(ctx).readMs ?? DEFAULT_READ_MS) + 1_000);
}
