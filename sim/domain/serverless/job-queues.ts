/**
 * The per-endpoint queues: a normal and a low-priority ring of (slot, seq) entries. A job that
 * leaves its queue other than by dequeue (cancel, expiry, purge) leaves a stale entry behind,
 * skipped on the way and compacted when stale entries outnumber live ones. An idle worker means
 * an empty queue: enqueue hands the job to it at once.
 */
import type { Engine, Micros } from "../../core/index.ts";
import type { EndpointState } from "./endpoint-state.ts";
import { IN_QUEUE } from "./job-status.ts";
import { F_EXPLICIT_TTL, F_LOW_PRIORITY } from "./job-table.ts";
import type { JobTable } from "./job-table.ts";
import type { ModelCore } from "./model-core.ts";
import { W_THROTTLED } from "./worker.ts";
import type { Worker } from "./worker.ts";

export class JobQueues {
  private readonly jobs: JobTable;
  private readonly workers: Worker[];
  private readonly engine: Engine;
  private readonly observer: ModelCore["observer"];

  constructor(private readonly m: ModelCore) {
    this.jobs = m.jobs;
    this.workers = m.workers;
    this.engine = m.engine;
    this.observer = m.observer;
  }

  enqueue(e: EndpointState, slot: number, now: Micros): void {
    const J = this.jobs;
    J.state[slot] = IN_QUEUE;
    J.enqueuedAt[slot] = now;
    e.counts[IN_QUEUE]++;
    if (this.observer !== undefined) this.observer.jobQueued(e.index, now);
    // An idle worker means an empty queue (workers take queued jobs as soon as they are free).
    if (e.idle.length > 0) {
      this.m.lifecycle.start(e, this.workers[e.idle.pop() as number], slot, now);
      return;
    }
    if ((J.flags[slot] & F_EXPLICIT_TTL) === 0) this.m.retention.trackQueuedLifetime(slot);
    if ((J.flags[slot] & F_LOW_PRIORITY) !== 0) {
      e.lowQueue.push(slot, J.seq[slot]);
      e.lowQueued++;
      if (e.lowQueue.length > 2 * e.lowQueued + 64) e.lowQueue.compact(this.queuedLive);
    } else {
      e.queue.push(slot, J.seq[slot]);
      e.queued++;
      if (e.queue.length > 2 * e.queued + 64) e.queue.compact(this.queuedLive);
    }
    this.m.scaling.scale(e, now);
  }

  /** A queued job leaves its queue other than by dequeue; its ring entry turns stale. */
  unqueue(e: EndpointState, slot: number): void {
    if ((this.jobs.flags[slot] & F_LOW_PRIORITY) !== 0) {
      if (--e.lowQueued === 0) e.lowQueue.clear();
    } else if (--e.queued === 0) {
      e.queue.clear();
    }
    if (e.workerCounts[W_THROTTLED] > 0) this.m.scaling.trimThrottled(e);
  }

  readonly queuedLive = (slot: number, seq: number): boolean => this.jobs.seq[slot] === seq && this.jobs.state[slot] === IN_QUEUE;

  /** The next live queued job (normal before low priority), removed from its queue; -1 if none. */
  dequeue(e: EndpointState, now: Micros): number {
    const J = this.jobs;
    while (e.queued > 0) {
      const slot = e.queue.headSlot();
      const seq = e.queue.headSeq();
      e.queue.shift();
      if (J.seq[slot] !== seq || J.state[slot] !== IN_QUEUE || (J.flags[slot] & F_LOW_PRIORITY) !== 0) continue;
      // The last live entry leaves: whatever remains is stale.
      if (--e.queued === 0 && e.queue.length > 0) e.queue.clear();
      if (J.expiry[slot] <= now) {
        this.m.lifecycle.drop(slot, "expire");
        continue;
      }
      return slot;
    }
    while (e.lowQueued > 0) {
      const slot = e.lowQueue.headSlot();
      const seq = e.lowQueue.headSeq();
      e.lowQueue.shift();
      if (J.seq[slot] !== seq || J.state[slot] !== IN_QUEUE) continue;
      if (--e.lowQueued === 0 && e.lowQueue.length > 0) e.lowQueue.clear();
      if (J.expiry[slot] <= now) {
        this.m.lifecycle.drop(slot, "expire");
        continue;
      }
      return slot;
    }
    return -1;
  }

  /** Removes the live queued jobs of one queue (of `account`, or all with -1); returns how many of them were unexpired. */
  purge(e: EndpointState, q: EndpointState["queue"], account: number): number {
    const J = this.jobs;
    let removed = 0;
    let kept = 0;
    for (let i = 0; i < q.length; i++) {
      const slot = q.slotAt(i);
      if (J.seq[slot] !== q.seqAt(i) || J.state[slot] !== IN_QUEUE) continue;
      if (account >= 0 && J.owner[slot] !== account) {
        kept++;
        continue;
      }
      if ((J.flags[slot] & F_LOW_PRIORITY) !== 0) e.lowQueued--;
      else e.queued--;
      // An expired job is removed too, but it was not the caller's to count.
      if (J.expiry[slot] > this.engine.now) removed++;
      this.m.lifecycle.drop(slot, "purge");
    }
    if (kept === 0) q.clear();
    else q.compact(this.queuedLive);
    return removed;
  }

  /** The longest-waiting live queued job (stale heads are dropped on the way), or -1. */
  oldestQueued(e: EndpointState): number {
    const J = this.jobs;
    for (const q of [e.queue, e.lowQueue]) {
      while (q.length > 0) {
        const slot = q.headSlot();
        if (J.seq[slot] === q.headSeq() && J.state[slot] === IN_QUEUE && (q === e.lowQueue || (J.flags[slot] & F_LOW_PRIORITY) === 0)) return slot;
        q.shift();
      }
    }
    return -1;
  }
}
