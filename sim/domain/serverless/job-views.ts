/**
 * What reads return, changing nothing a later event depends on: a job's view (status, times,
 * output or error, its worker's id), its stream since the last read, an endpoint's workers and
 * health (expired-but-unswept jobs subtracted, so health is exact without a sweep), and the sizes
 * and contents of every collection for stats and invariant checkers.
 */
import type { Engine } from "../../core/index.ts";
import type { EndpointState } from "./endpoint-state.ts";
import { formatWorkerId } from "./job-id.ts";
import { COMPLETED, FAILED, FREE, IN_PROGRESS, IN_QUEUE, STATUS_NAMES, TIMED_OUT, isFinalCode } from "./job-status.ts";
import type { JobStatus } from "./job-status.ts";
import { F_EXPLICIT_TIMEOUT, F_RETRIED, F_STARTED, F_STREAMED } from "./job-table.ts";
import type { JobTable } from "./job-table.ts";
import { US } from "./model-core.ts";
import type { ModelCore } from "./model-core.ts";
import { flattenStream } from "./stream-chunks.ts";
import type { Health, JobView, StreamChunk } from "./types.ts";
import { W_IDLE, W_INITIALIZING, W_RUNNING, W_STOPPED, W_THROTTLED } from "./worker.ts";
import type { Worker } from "./worker.ts";

export interface ServerlessStats {
  /** Jobs in the table, expired-but-unswept included. */
  readonly heldJobs: number;
  readonly tableCapacity: number;
  readonly tableBytes: number;
  readonly queueEntries: number;
  readonly expiryEntries: number;
  readonly listeners: number;
  readonly streams: number;
  readonly webhooks: number;
  readonly workers: number;
  readonly workerTable: number;
  readonly throttledWaiting: number;
}

export interface InspectedJob {
  readonly key: number;
  readonly id: string;
  readonly endpointId: string;
  readonly status: JobStatus;
  /** Past its expiry, waiting for the sweep: invisible to every operation. */
  readonly expired: boolean;
  readonly retried: boolean;
  /** Live entries for this job across its endpoint's queues (1 exactly when IN_QUEUE). */
  readonly queueEntries: number;
  /** Workers whose current job this is (1 exactly when IN_PROGRESS). */
  readonly workersRunningIt: number;
  readonly finishPending: boolean;
}

/** One worker as the REST workers list shows it. */
export interface WorkerView {
  readonly id: string;
  readonly status: "THROTTLED" | "INITIALIZING" | "IDLE" | "RUNNING";
  /** The GPUs it holds (none while throttled). */
  readonly gpuTypeId: string | null;
  readonly gpuCount: number;
  readonly dataCenterId: string | null;
  /** The job it runs, while RUNNING. */
  readonly jobId: string | null;
}

export interface ServerlessInspection {
  readonly now: number;
  readonly jobs: readonly InspectedJob[];
  readonly endpoints: readonly {
    readonly endpointId: string;
    readonly health: Health;
    readonly workersMin: number;
    readonly workersMax: number;
    readonly workers: number;
  }[];
}

export class JobViews {
  private readonly jobs: JobTable;
  private readonly endpoints: EndpointState[];
  private readonly workers: Worker[];
  private readonly engine: Engine;

  constructor(private readonly m: ModelCore) {
    this.jobs = m.jobs;
    this.endpoints = m.endpoints;
    this.workers = m.workers;
    this.engine = m.engine;
  }

  view(slot: number): JobView {
    const J = this.jobs;
    const state = J.state[slot];
    const status = STATUS_NAMES[state] as JobStatus;
    const view: {
      id: string;
      status: JobStatus;
      delayTime?: number;
      executionTime?: number;
      input?: unknown;
      output?: unknown;
      error?: string;
      workerId?: string;
      retries: number;
    } = { id: this.m.idOf(slot), status, retries: (J.flags[slot] & F_RETRIED) === 0 ? 0 : J.attempt[slot] };
    const started = (J.flags[slot] & F_STARTED) === 0 ? -1 : J.startedAt[slot];
    if (started >= 0) {
      view.delayTime = Math.round((started - J.enqueuedAt[slot]) / US);
      view.workerId = this.workerIdOf(slot);
    }
    if (state === IN_QUEUE || state === IN_PROGRESS) view.input = J.inputs[slot];
    if (isFinalCode(state) && started >= 0) view.executionTime = Math.round((J.finishedAt[slot] - started) / US);
    if (state === COMPLETED) view.output = J.results[slot];
    // An external job's latest progress update (see ExternalJobs.progress).
    if (state === IN_PROGRESS && J.results[slot] !== undefined && this.m.external.isRunning(slot)) view.output = J.results[slot];
    if (state === FAILED) view.error = J.results[slot] as string;
    if (state === TIMED_OUT) {
      const timeout = (J.flags[slot] & F_EXPLICIT_TIMEOUT) === 0 ? this.endpoints[J.endpoint[slot]].timeoutUs : J.timeout[slot];
      view.error = `execution timeout exceeded (${Math.round(timeout / US)} ms)`;
    }
    return view;
  }

  /** The chunks of a started job visible since its last stream read (the read moves its cursor). */
  streamSince(slot: number): StreamChunk[] {
    const J = this.jobs;
    if ((J.flags[slot] & F_STARTED) === 0) return [];
    const started = J.startedAt[slot];
    let flat = this.m.streams.get(slot);
    if (flat === undefined) {
      flat = flattenStream(J.plans[slot]);
      this.m.streams.set(slot, flat);
      J.flags[slot] |= F_STREAMED;
      J.streamCursor[slot] = 0;
    }
    const end = J.state[slot] === IN_PROGRESS ? this.engine.now : J.finishedAt[slot];
    const elapsed = end - started;
    const out: StreamChunk[] = [];
    let i = J.streamCursor[slot];
    while (i < flat.chunks.length && flat.atUs[i] <= elapsed) out.push(flat.chunks[i++]);
    J.streamCursor[slot] = i;
    return out;
  }

  workerIdOfWorker(w: Worker): string {
    w.id ??= formatWorkerId(w.serial, this.m.workerSalt);
    return w.id;
  }

  private workerIdOf(slot: number): string {
    const J = this.jobs;
    if (J.state[slot] === IN_PROGRESS) return this.workerIdOfWorker(this.workers[J.worker[slot]]);
    const worker = J.worker[slot];
    return worker <= -2 ? this.m.external.nameAt(-2 - worker) : formatWorkerId(worker, this.m.workerSalt);
  }

  /** An endpoint's workers that are not stopped, by index, without access checks (the REST workers list). */
  workersOf(endpoint: number): WorkerView[] {
    const names = ["THROTTLED", "INITIALIZING", "IDLE", "RUNNING"] as const;
    const out: WorkerView[] = [];
    for (const i of this.endpoints[endpoint].workers) {
      const w = this.workers[i];
      if (w.state === W_STOPPED) continue;
      out.push({
        id: this.workerIdOfWorker(w),
        status: names[w.state]!,
        gpuTypeId: w.lease?.gpuTypeId ?? null,
        gpuCount: w.lease?.count ?? 0,
        dataCenterId: w.lease?.dataCenterId ?? null,
        jobId: w.state === W_RUNNING ? this.m.idOf(w.job) : null,
      });
    }
    return out;
  }

  /** Health of an endpoint by index, without access checks (for the platform and planners). */
  healthOf(endpoint: number): Health {
    const e = this.endpoints[endpoint];
    const c = e.counts;
    const gone = this.m.retention.expiredUnswept(endpoint);
    const w = e.workerCounts;
    return {
      jobs: {
        completed: c[COMPLETED] - gone[COMPLETED],
        failed: c[FAILED] + c[TIMED_OUT] - gone[FAILED] - gone[TIMED_OUT],
        inProgress: c[IN_PROGRESS],
        inQueue: c[IN_QUEUE] - gone[IN_QUEUE],
        retried: e.retried - gone[0],
      },
      workers: {
        idle: w[W_IDLE],
        running: w[W_RUNNING],
        initializing: w[W_INITIALIZING],
        ready: w[W_IDLE] + w[W_RUNNING],
        throttled: w[W_THROTTLED],
        unhealthy: 0,
      },
    };
  }

  /** Health's job counts of one account on one endpoint: a walk of the job table. */
  accountJobs(endpoint: number, account: number): Health["jobs"] {
    const J = this.jobs;
    const now = this.engine.now;
    const c = new Int32Array(7);
    let retried = 0;
    for (let slot = 0; slot < J.used; slot++) {
      if (J.endpoint[slot] !== endpoint || J.owner[slot] !== account || !this.m.isLive(slot, now)) continue;
      c[J.state[slot]]++;
      if ((J.flags[slot] & F_RETRIED) !== 0) retried++;
    }
    return { completed: c[COMPLETED], failed: c[FAILED] + c[TIMED_OUT], inProgress: c[IN_PROGRESS], inQueue: c[IN_QUEUE], retried };
  }

  /** Sizes of every collection the model keeps, to show that memory returns after retention. */
  stats(): ServerlessStats {
    let queueEntries = 0;
    let workers = 0;
    for (const e of this.endpoints) {
      queueEntries += e.queue.length + e.lowQueue.length;
      workers += e.workers.length;
    }
    return {
      heldJobs: this.jobs.live,
      tableCapacity: this.jobs.capacity,
      tableBytes: this.jobs.bytes,
      queueEntries,
      expiryEntries: this.m.retention.length,
      listeners: this.m.listeners.size,
      streams: this.m.streams.size,
      webhooks: this.m.outbox.length,
      workers,
      workerTable: this.workers.length,
      throttledWaiting: this.m.scaling.throttledWaiting,
    };
  }

  /** Every held job and endpoint, as plain data for invariant checkers and tests. O(jobs). */
  inspect(): ServerlessInspection {
    const J = this.jobs;
    const now = this.engine.now;
    const queuedRefs = new Map<number, number>();
    for (const e of this.endpoints) {
      for (const q of [e.queue, e.lowQueue]) {
        for (let i = 0; i < q.length; i++) {
          const slot = q.slotAt(i);
          if (J.seq[slot] === q.seqAt(i) && J.state[slot] === IN_QUEUE) queuedRefs.set(slot, (queuedRefs.get(slot) ?? 0) + 1);
        }
      }
    }
    const runningOn = new Map<number, number>();
    for (const w of this.workers) if (w.state === W_RUNNING) runningOn.set(w.job, (runningOn.get(w.job) ?? 0) + 1);
    const jobs: InspectedJob[] = [];
    for (let slot = 0; slot < J.used; slot++) {
      if (J.state[slot] === FREE) continue;
      jobs.push({
        key: J.seq[slot],
        id: this.m.idOf(slot),
        endpointId: this.endpoints[J.endpoint[slot]].config.id,
        status: STATUS_NAMES[J.state[slot]] as JobStatus,
        expired: !this.m.isLive(slot, now),
        retried: (J.flags[slot] & F_RETRIED) !== 0,
        queueEntries: queuedRefs.get(slot) ?? 0,
        workersRunningIt: runningOn.get(slot) ?? 0,
        finishPending: J.state[slot] === IN_PROGRESS && this.engine.isPending(J.handle[slot]),
      });
    }
    const endpoints = this.endpoints.map((e) => ({
      endpointId: e.config.id,
      health: this.healthOf(e.index),
      workersMin: e.config.workersMin,
      workersMax: e.config.workersMax,
      workers: e.workers.length,
    }));
    return { now, jobs, endpoints };
  }
}
