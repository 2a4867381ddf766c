/**
 * A serverless worker: a container on GPUs leased from the pool, serving one endpoint. Workers
 * are few (at most the endpoints' workersMax), so they are plain objects in a table whose index
 * events carry as their target.
 */
import type { GpuLease } from "../gpu-pool.ts";

export const W_THROTTLED = 0;
export const W_INITIALIZING = 1;
export const W_IDLE = 2;
export const W_RUNNING = 3;
export const W_STOPPED = 4;
export const WORKER_STATE_COUNT = 5;

export class Worker {
  state = W_THROTTLED;
  lease: GpuLease | undefined = undefined;
  /** The job slot while W_RUNNING, else -1. */
  job = -1;
  idleSince = 0;
  readyHandle = -1;
  idleHandle = -1;
  /** Cached workerId string, built on first use. */
  id: string | undefined = undefined;

  constructor(
    readonly index: number,
    public endpoint: number,
    /** Unique for the model's lifetime; the workerId derives from it. */
    public serial: number,
  ) {}
}
