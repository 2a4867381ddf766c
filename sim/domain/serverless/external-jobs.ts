/**
 * Jobs run outside the model (see ExternalExecutor): an executor endpoint's job starts as usual,
 * but only its timeout (or lifetime end) is scheduled; the executor reports stream chunks,
 * progress and the end by ticket. In pull mode, worker processes outside the model take queued
 * jobs themselves; each runs on a model worker named after the process, gone when the job ends.
 */
import type { Engine, Micros } from "../../core/index.ts";
import type { EndpointState } from "./endpoint-state.ts";
import { jsonSizeAtMost } from "./json-size.ts";
import { COMPLETED, FAILED, IN_PROGRESS, IN_QUEUE } from "./job-status.ts";
import { F_PLAN_FAILS, F_STREAMED } from "./job-table.ts";
import type { JobTable } from "./job-table.ts";
import type { ModelCore } from "./model-core.ts";
import { splitStreamOutput } from "../handlers/index.ts";
import type { ExternalResult, StreamChunk } from "./types.ts";
import { W_IDLE } from "./worker.ts";
import type { Worker } from "./worker.ts";

/** Distinct outside worker names remembered for finished jobs; past it a finished job shows a model worker id. */
const MAX_EXTERNAL_NAMES = 100_000;
/** Largest progress update an external job may show (progress is a line of text, not a result). */
const MAX_PROGRESS_BYTES = 64 * 1024;

export class ExternalJobs {
  private readonly jobs: JobTable;
  private readonly endpoints: EndpointState[];
  private readonly workers: Worker[];
  private readonly engine: Engine;
  /** Running external executions: ticket → slot, and slot → ticket. */
  private readonly slots = new Map<number, number>();
  private readonly tickets = new Map<number, number>();
  private nextTicket = 1;
  /** Bytes a running external job streamed so far (see chunk). */
  private readonly bytes = new Map<number, number>();
  /** Names of outside workers (pull mode), so that a finished job still shows the one that ran it. */
  private readonly names: string[] = [];
  private readonly nameIndex = new Map<string, number>();

  constructor(private readonly m: ModelCore) {
    this.jobs = m.jobs;
    this.endpoints = m.endpoints;
    this.workers = m.workers;
    this.engine = m.engine;
  }

  /** Running external executions (for tests and invariants). */
  get running(): number {
    return this.slots.size;
  }

  /** Whether the job in this slot runs outside the model now (its status shows its progress). */
  isRunning(slot: number): boolean {
    return this.tickets.has(slot);
  }

  /** The ticket of a running external job's slot. */
  ticketOf(slot: number): number | undefined {
    return this.tickets.get(slot);
  }

  /**
   * What a finished job keeps of the worker that ran it: an outside worker's name (interned, as
   * -2 - its index), else the model worker's serial, from which its id is made.
   */
  finishedWorkerRef(w: Worker): number {
    return w.lease === undefined && w.id !== undefined && this.nameIndex.has(w.id) ? -2 - (this.nameIndex.get(w.id) as number) : w.serial;
  }

  /** The outside worker name a finishedWorkerRef of -2 - i stands for. */
  nameAt(index: number): string {
    return this.names[index];
  }

  /** A job of an executor endpoint starts: only its timeout (or lifetime end) is scheduled; the executor reports the rest. */
  start(e: EndpointState, w: Worker, slot: number, now: Micros, flags: number): void {
    const J = this.jobs;
    J.flags[slot] = flags | F_STREAMED;
    // Its stream fills as the executor reports chunks; stream() reads the same structure as for plans.
    this.m.streams.set(slot, { chunks: [], atUs: [] });
    J.streamCursor[slot] = 0;
    this.m.lifecycle.occupy(e, w, slot, now, flags, Infinity);
    const ticket = this.nextTicket++;
    this.slots.set(ticket, slot);
    this.tickets.set(slot, ticket);
    if (this.m.onTransition !== undefined) this.m.trace(slot, IN_QUEUE, IN_PROGRESS, "start");
    if (this.m.observer !== undefined) this.m.observer.jobStarted(e.index, J.enqueuedAt[slot], now);
    (e.executor as NonNullable<EndpointState["executor"]>).start(ticket, {
      id: this.m.idOf(slot),
      input: J.inputs[slot],
      endpointId: e.config.id,
      workerId: this.m.views.workerIdOfWorker(w),
    });
  }

  /** The model ends a running external job itself: the executor stops it. */
  stop(slot: number): void {
    const ticket = this.tickets.get(slot);
    if (ticket === undefined) return;
    this.tickets.delete(slot);
    this.slots.delete(ticket);
    this.bytes.delete(ticket);
    this.endpoints[this.jobs.endpoint[slot]].executor?.stop(ticket);
  }

  /**
   * One output a running external job streamed, visible to `stream` from now on (split into
   * chunks of at most 1 MB). False when the ticket is no longer running (stopped or finished).
   */
  chunk(ticket: number, output: unknown): boolean {
    const slot = this.slots.get(ticket);
    if (slot === undefined) return false;
    const J = this.jobs;
    const flat = this.m.streams.get(slot) as { chunks: StreamChunk[]; atUs: number[] } | undefined;
    if (flat === undefined) return false;
    // Outside code is bounded like a plan: all of one job's stream and output within maxOutputBytes.
    const max = this.m.maxOutputBytes;
    const bytes = (this.bytes.get(ticket) ?? 0) + jsonSizeAtMost(output, max + 1);
    if (bytes > max) return false;
    this.bytes.set(ticket, bytes);
    const at = this.engine.now - J.startedAt[slot];
    for (const piece of splitStreamOutput(output)) {
      flat.chunks.push({ output: piece });
      flat.atUs.push(at);
    }
    return true;
  }

  /**
   * A progress update of a running external job (the official worker's `progress_update`): its
   * status shows it as `output` while it runs. False for a stale ticket or an update over 64 KiB.
   */
  progress(ticket: number, output: unknown): boolean {
    const slot = this.slots.get(ticket);
    if (slot === undefined || jsonSizeAtMost(output, MAX_PROGRESS_BYTES + 1) > MAX_PROGRESS_BYTES) return false;
    this.jobs.results[slot] = output;
    return true;
  }

  /** The external job ended at the model's now: COMPLETED with its output, or FAILED with its error. False for a stale ticket. */
  finish(ticket: number, result: ExternalResult): boolean {
    const slot = this.slots.get(ticket);
    if (slot === undefined) return false;
    this.slots.delete(ticket);
    this.tickets.delete(slot);
    const streamed = this.bytes.get(ticket) ?? 0;
    this.bytes.delete(ticket);
    const J = this.jobs;
    const now = this.engine.now;
    const e = this.endpoints[J.endpoint[slot]];
    const w = this.workers[J.worker[slot]];
    this.engine.cancel(J.handle[slot]);
    // Kept like a plan's result: within maxOutputBytes (stream included) and the results budget.
    const size = streamed + (result.ok ? jsonSizeAtMost(result.output, this.m.maxOutputBytes + 1) : result.error.length + 2);
    const refused = this.m.budget.admitOutput(slot, size);
    const ok = result.ok && refused === undefined;
    if (ok) {
      J.results[slot] = result.output;
    } else {
      J.results[slot] = refused ?? (result as { error: string }).error;
      J.flags[slot] |= F_PLAN_FAILS;
    }
    this.m.lifecycle.finalize(e, slot, ok ? COMPLETED : FAILED, now, "finish");
    this.m.scaling.releaseWorker(e, w, now);
    this.m.lifecycle.notify(slot, now);
    return true;
  }

  /**
   * Pull mode (an executor with `pull: true`): a worker process outside the model takes up to
   * `max` queued jobs (normal before low priority, oldest first); each moves to IN_PROGRESS now
   * on a model worker named `workerId` that exists while the job runs, and the executor's `start`
   * is called for it before this returns. Returns the tickets started, in order; none when the
   * endpoint is unknown, deleted or not in pull mode.
   */
  take(endpointId: string, workerId: string, max: number): number[] {
    const index = this.m.endpointByKey.get(endpointId);
    if (index === undefined) return [];
    const e = this.endpoints[index];
    if (e.deleted || e.executor?.pull !== true) return [];
    const now = this.engine.now;
    const tickets: number[] = [];
    while (tickets.length < max && e.queued + e.lowQueued > 0) {
      const slot = this.m.queues.dequeue(e, now);
      if (slot < 0) break;
      const w = this.standIn(e, workerId);
      this.m.lifecycle.start(e, w, slot, now);
      tickets.push(this.tickets.get(slot) as number);
    }
    return tickets;
  }

  /** A model worker standing for one job of an outside worker process: no GPUs, no cold start, gone when the job ends. */
  private standIn(e: EndpointState, workerId: string): Worker {
    const w = this.m.scaling.allocWorker(e);
    w.id = workerId;
    w.lease = undefined;
    if (!this.nameIndex.has(workerId) && this.names.length < MAX_EXTERNAL_NAMES) {
      this.nameIndex.set(workerId, this.names.length);
      this.names.push(workerId);
    }
    w.state = W_IDLE;
    e.workerCounts[W_IDLE]++;
    return w;
  }
}
