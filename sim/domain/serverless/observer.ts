/**
 * Observation hooks for planners and metrics collectors: called synchronously inside the engine
 * event that changes something, with plain numbers only (no per-call objects), so that a
 * collector can integrate queue lengths, worker counts and GPU leases exactly. Observers must not
 * call back into the model: they watch, they never steer, so the model stays deterministic.
 */
import type { GpuLease } from "../gpu-pool.ts";
import type { JobStatus, TransitionCause } from "./job-status.ts";

export interface ServerlessObserver {
  /** A job entered the endpoint's queue (submission or retry); `startJob` may follow in the same event. */
  jobQueued(endpoint: number, now: number): void;
  /** A queued job started on a worker, `enqueuedAt` being when it entered the queue. */
  jobStarted(endpoint: number, enqueuedAt: number, now: number): void;
  /**
   * A queued or running job reached a final state. `startedAt` is -1 for a job that never ran
   * (cancelled in the queue).
   */
  jobEnded(endpoint: number, status: JobStatus, enqueuedAt: number, startedAt: number, now: number): void;
  /** A queued or running job was removed unfinished: its lifetime (ttl) ended, or the queue was purged. */
  jobDropped(endpoint: number, wasRunning: boolean, enqueuedAt: number, cause: TransitionCause, now: number): void;
  /** The endpoint's workers changed: all of them (throttled included), the initializing ones and the throttled ones. */
  workersChanged(endpoint: number, total: number, initializing: number, throttled: number, now: number): void;
  /** A worker got GPUs and begins a cold start of `delayUs`. */
  coldStart(endpoint: number, lease: GpuLease, delayUs: number, now: number): void;
  /** A stopped worker gave its GPUs back. */
  leaseReleased(endpoint: number, lease: GpuLease, now: number): void;
  /** A new worker found no GPUs of the endpoint's types and waits, throttled. */
  placementFailed(endpoint: number, now: number): void;
}
