/**
 * Workers and scaling: a worker leases GPUs from the pool (or waits THROTTLED for them), boots
 * through a seeded cold start, takes queued jobs, and stops after its idle timeout above the
 * endpoint's minimum. The autoscaler is the platform's: RequestCount keeps ceil((queued +
 * running) / scalerValue) workers; QueueDelay adds one worker whenever the oldest queued job has
 * waited scalerValue seconds (and one at once when there are none).
 */
import type { Engine, EventKind, Micros } from "../../core/index.ts";
import type { GpuPool } from "../gpu-pool.ts";
import type { EndpointState } from "./endpoint-state.ts";
import { IN_PROGRESS, IN_QUEUE } from "./job-status.ts";
import type { ModelCore } from "./model-core.ts";
import { US } from "./model-core.ts";
import { W_IDLE, W_INITIALIZING, W_RUNNING, W_STOPPED, W_THROTTLED, Worker } from "./worker.ts";

export class WorkerScaling {
  private readonly workers: Worker[];
  private readonly endpoints: EndpointState[];
  private readonly engine: Engine;
  private readonly pool: GpuPool;
  private readonly observer: ModelCore["observer"];
  private readonly kindReady: EventKind;
  private readonly kindIdle: EventKind;
  private readonly kindScale: EventKind;
  private readonly freeWorkers: number[] = [];
  /** Workers waiting for GPUs, oldest first. */
  private throttled: number[] = [];
  private unthrottling = false;
  private unthrottleAgain = false;
  private workerSerial = 0;

  constructor(private readonly m: ModelCore) {
    this.workers = m.workers;
    this.endpoints = m.endpoints;
    this.engine = m.engine;
    this.pool = m.pool;
    this.observer = m.observer;
    this.kindReady = m.kinds.ready;
    this.kindIdle = m.kinds.idle;
    this.kindScale = m.kinds.scale;
  }

  /** Workers waiting for GPUs now. */
  get throttledWaiting(): number {
    return this.throttled.length;
  }

  /** A fresh or recycled worker record, listed among the endpoint's workers; the caller sets its state. */
  allocWorker(e: EndpointState): Worker {
    let index = this.freeWorkers.pop();
    let w: Worker;
    if (index === undefined) {
      index = this.workers.length;
      w = new Worker(index, e.index, this.workerSerial++);
      this.workers.push(w);
    } else {
      w = this.workers[index];
      w.endpoint = e.index;
      w.serial = this.workerSerial++;
      w.id = undefined;
      w.job = -1;
      w.readyHandle = -1;
      w.idleHandle = -1;
    }
    e.workers.push(index);
    return w;
  }

  addWorker(e: EndpointState): void {
    // A pull-mode endpoint's workers are outside processes (see ExternalJobs.take).
    if (e.executor?.pull === true) return;
    const w = this.allocWorker(e);
    const index = w.index;
    w.state = W_THROTTLED;
    e.workerCounts[W_THROTTLED]++;
    const lease = this.pool.acquire(e.gpuRequest);
    if (lease === undefined) {
      this.throttled.push(index);
      if (this.observer !== undefined) this.observer.placementFailed(e.index, this.engine.now);
      this.workersChanged(e);
    } else {
      this.coldStart(e, w, lease);
    }
    // Idle workers above the minimum now need their idle timeout.
    if (e.workers.length > e.config.workersMin) for (const i of e.idle) this.scheduleIdleCheck(e, this.workers[i]);
  }

  private coldStart(e: EndpointState, w: Worker, lease: NonNullable<Worker["lease"]>): void {
    e.workerCounts[W_THROTTLED]--;
    e.workerCounts[W_INITIALIZING]++;
    w.state = W_INITIALIZING;
    w.lease = lease;
    const { mean, cv } = e.config.coldStartMs;
    const delay = mean > 0 ? Math.round(e.coldStartRng.lognormalMeanCv(mean, cv) * US) : 0;
    w.readyHandle = this.engine.after(delay, this.kindReady, w.index);
    if (this.observer !== undefined) {
      this.observer.coldStart(e.index, lease, delay, this.engine.now);
      this.workersChanged(e);
    }
  }

  private workersChanged(e: EndpointState): void {
    const c = e.workerCounts;
    if (this.observer !== undefined) this.observer.workersChanged(e.index, e.workers.length, c[W_INITIALIZING], c[W_THROTTLED], this.engine.now);
  }

  onReady(index: number): void {
    const w = this.workers[index];
    if (w.state !== W_INITIALIZING) return;
    w.readyHandle = -1;
    const e = this.endpoints[w.endpoint];
    e.workerCounts[W_INITIALIZING]--;
    e.workerCounts[W_IDLE]++;
    w.state = W_IDLE;
    if (this.observer !== undefined) this.workersChanged(e);
    this.releaseWorker(e, w, this.engine.now);
  }

  /** A worker without a job (just booted, finished, or its job was cancelled) takes the next one or idles. */
  releaseWorker(e: EndpointState, w: Worker, now: Micros): void {
    if (e.executor?.pull === true) {
      // An outside worker's job ended: its stand-in goes (the process asks for the next job itself).
      w.job = -1;
      this.stopWorker(e, w);
      return;
    }
    if (w.state === W_RUNNING) {
      e.workerCounts[W_RUNNING]--;
      e.workerCounts[W_IDLE]++;
      w.state = W_IDLE;
    }
    w.job = -1;
    const next = e.queued + e.lowQueued > 0 ? this.m.queues.dequeue(e, now) : -1;
    if (next >= 0) {
      this.m.lifecycle.start(e, w, next, now);
      return;
    }
    w.idleSince = now;
    e.idle.push(w.index);
    if (e.workers.length > e.config.workersMin) this.scheduleIdleCheck(e, w);
    if (e.workerCounts[W_THROTTLED] > 0) this.trimThrottled(e);
  }

  scheduleIdleCheck(e: EndpointState, w: Worker): void {
    if (w.idleHandle >= 0 && this.engine.isPending(w.idleHandle)) return;
    w.idleHandle = this.engine.at(Math.max(this.engine.now, w.idleSince + e.idleTimeoutUs), this.kindIdle, w.index);
  }

  onIdleCheck(index: number, now: Micros): void {
    const w = this.workers[index];
    w.idleHandle = -1;
    if (w.state !== W_IDLE) return;
    const e = this.endpoints[w.endpoint];
    if (e.workers.length <= e.config.workersMin) return;
    if (now >= w.idleSince + e.idleTimeoutUs) this.stopWorker(e, w);
    else this.scheduleIdleCheck(e, w);
  }

  stopWorker(e: EndpointState, w: Worker): void {
    e.workerCounts[w.state]--;
    if (w.state === W_IDLE) e.idle.splice(e.idle.indexOf(w.index), 1);
    if (w.state === W_THROTTLED) this.throttled.splice(this.throttled.indexOf(w.index), 1);
    e.workers.splice(e.workers.indexOf(w.index), 1);
    if (w.idleHandle >= 0) this.engine.cancel(w.idleHandle);
    if (w.readyHandle >= 0) this.engine.cancel(w.readyHandle);
    w.state = W_STOPPED;
    w.idleHandle = -1;
    w.readyHandle = -1;
    this.freeWorkers.push(w.index);
    const lease = w.lease;
    w.lease = undefined;
    if (this.observer !== undefined) {
      this.workersChanged(e);
      if (lease !== undefined) this.observer.leaseReleased(e.index, lease, this.engine.now);
    }
    // Last, because releasing may synchronously hand the GPUs to a throttled worker.
    if (lease !== undefined) this.pool.release(lease);
  }

  /** Throttled workers nobody needs any more (the queue drained) are given up. */
  trimThrottled(e: EndpointState): void {
    const target = Math.max(e.config.workersMin, this.desired(e));
    for (let i = e.workers.length - 1; i >= 0 && e.workers.length > target; i--) {
      const w = this.workers[e.workers[i]];
      if (w.state === W_THROTTLED) this.stopWorker(e, w);
    }
  }

  /** Workers the scaler wants now, before clamping to [min, max]. */
  private desired(e: EndpointState): number {
    const c = e.config;
    const waiting = e.counts[IN_QUEUE];
    if (c.scalerType === "RequestCount") return Math.ceil((waiting + e.counts[IN_PROGRESS]) / c.scalerValue);
    // QueueDelay grows one worker at a time from the scale check; it needs the ones it has while jobs wait.
    return waiting > 0 ? e.workers.length : 0;
  }

  scale(e: EndpointState, now: Micros): void {
    if (e.executor?.pull === true) return;
    const c = e.config;
    if (e.workers.length >= c.workersMax) return;
    if (c.scalerType === "RequestCount") {
      const want = Math.min(c.workersMax, Math.max(c.workersMin, this.desired(e)));
      while (e.workers.length < want) this.addWorker(e);
      return;
    }
    if (e.queued + e.lowQueued === 0) return;
    // The platform's documented QueueDelay rule: with zero workers the first request adds one at once.
    if (e.workers.length === 0) this.addWorker(e);
    if (e.scaleHandle >= 0 || e.workers.length >= c.workersMax) return;
    const oldest = this.m.queues.oldestQueued(e);
    if (oldest < 0) return;
    const at = this.m.jobs.enqueuedAt[oldest] + c.scalerValue * 1_000_000;
    e.scaleHandle = this.engine.at(Math.max(now, at), this.kindScale, e.index);
  }

  /** QueueDelay: add a worker when the oldest queued job has waited longer than scalerValue seconds. */
  onScaleCheck(endpoint: number, now: Micros): void {
    const e = this.endpoints[endpoint];
    e.scaleHandle = -1;
    const oldest = this.m.queues.oldestQueued(e);
    if (oldest < 0 || e.workers.length >= e.config.workersMax) return;
    const delayUs = e.config.scalerValue * 1_000_000;
    if (now - this.m.jobs.enqueuedAt[oldest] >= delayUs) {
      this.addWorker(e);
      // The next worker only if jobs still wait a full delay after this one was added.
      if (e.workers.length < e.config.workersMax) e.scaleHandle = this.engine.at(now + delayUs, this.kindScale, e.index);
    } else {
      this.scale(e, now);
    }
  }

  onGpusFreed(): void {
    if (this.unthrottling) {
      this.unthrottleAgain = true;
      return;
    }
    this.unthrottling = true;
    try {
      do {
        this.unthrottleAgain = false;
        const waiting = this.throttled;
        this.throttled = [];
        for (const index of waiting) {
          const w = this.workers[index];
          if (w.state !== W_THROTTLED) continue;
          const e = this.endpoints[w.endpoint];
          const lease = this.pool.acquire(e.gpuRequest);
          if (lease === undefined) this.throttled.push(index);
          else this.coldStart(e, w, lease);
        }
      } while (this.unthrottleAgain && this.throttled.length > 0);
    } finally {
      this.unthrottling = false;
    }
  }
}
