/**
 * Retention and expiry (choices.md, and this model's reading where it is silent):
 * - an unfinished job lives until submission + ttl (policy.ttl, else 24 h); past it, it is dropped
 *   whatever its state (a running job is stopped and its worker freed);
 * - a final job is kept 30 min after completion (run) or 1 min (runsync); with policy.ttl it is
 *   kept until submission + ttl instead (ttl replaces retention);
 * - `status?ttl=N` sets the result's expiry to (time of that call + N ms); on an unfinished job
 *   the deadline is remembered and applies once it is final (if it has passed by then, the result
 *   is gone at completion);
 * - a retry starts the lifetime again from the retry; cancel makes a job final like completion.
 * Expired jobs are invisible at once (lookups compare times); memory is reclaimed by a sweep at
 * most sweepIntervalMs later. Deadlines "now + a class constant" go into monotone FIFO classes,
 * the rest into a heap, all swept by one coalesced event (see expiry-fifo.ts).
 */
import type { Engine, EventKind, Micros } from "../../core/index.ts";
import { ExpiryFifo } from "./expiry-fifo.ts";
import { ExpiryHeap } from "./expiry-heap.ts";
import { COMPLETED, FREE, IN_PROGRESS, IN_QUEUE, isFinalCode } from "./job-status.ts";
import { F_EXPLICIT_TTL, F_RETRIED, F_STATUS_TTL } from "./job-table.ts";
import type { JobTable } from "./job-table.ts";
import { US } from "./model-core.ts";
import type { ModelCore } from "./model-core.ts";

export class Retention {
  /** Lifetime deadlines of unfinished jobs without policy.ttl: now + defaultTtl, monotone. */
  readonly lifetime = new ExpiryFifo();
  /** Retention ends of finished `run` jobs: finish + 30 min, monotone. */
  readonly runRetention = new ExpiryFifo();
  /** Retention ends of finished `runsync` jobs: finish + 1 min, monotone. */
  readonly syncRetention = new ExpiryFifo();
  /** Everything else: policy.ttl and status ttl deadlines. */
  readonly irregular = new ExpiryHeap();
  private readonly jobs: JobTable;
  private readonly engine: Engine;
  private readonly kindSweep: EventKind;
  private readonly defaultTtlUs: number;
  private readonly sweepIntervalUs: number;
  private sweepHandle = -1;
  private sweepAt = Infinity;
  private lastSweep = -Infinity;

  constructor(private readonly m: ModelCore) {
    this.jobs = m.jobs;
    this.engine = m.engine;
    this.kindSweep = m.kinds.sweep;
    this.defaultTtlUs = m.defaultTtlUs;
    this.sweepIntervalUs = m.sweepIntervalUs;
  }

  /** Entries of every expiry class (for stats). */
  get length(): number {
    return this.lifetime.length + this.runRetention.length + this.syncRetention.length + this.irregular.length;
  }

  /** `status?ttl=N`: the result expires N ms from now (on an unfinished job, once it is final). */
  applyStatusTtl(slot: number, ttlMs: number): void {
    const J = this.jobs;
    const at = this.engine.now + ttlMs * US;
    if (isFinalCode(J.state[slot])) {
      this.setExpiryIrregular(slot, at);
    } else {
      // Recorded now, applied when the job becomes final (see JobLifecycle.finalize): retention is about results.
      J.statusTtlAt[slot] = at;
      J.flags[slot] |= F_STATUS_TTL;
    }
  }

  /**
   * Starts the job's lifetime. A default lifetime gets its FIFO entry only if the job has to wait
   * in a queue (enqueue): a running job's lifetime is enforced by its finish event, which is
   * scheduled no later than the deadline, so most jobs never touch the lifetime FIFO.
   */
  setLifetime(slot: number, now: Micros): void {
    const J = this.jobs;
    if ((J.flags[slot] & F_EXPLICIT_TTL) !== 0) {
      this.setExpiryIrregular(slot, now + J.ttl[slot]);
    } else {
      J.expiry[slot] = now + this.defaultTtlUs;
      J.expiryVersion[slot] = (J.expiryVersion[slot] + 1) | 0;
    }
  }

  /** The lifetime FIFO entry of a queued job with the default lifetime (see setLifetime). */
  trackQueuedLifetime(slot: number): void {
    const J = this.jobs;
    const f = this.lifetime;
    const v = J.expiryVersion;
    while (f.length > 0 && v[f.headSlot()] !== f.headVersion()) f.shift();
    if (f.length > 2 * J.live + 1024) f.compact(this.expiryValid);
    const at = J.expiry[slot];
    f.push(at, slot, v[slot]);
    if (at < this.sweepAt) this.scheduleSweep(at);
  }

  /** Sets the job's expiry, governed from now on by an entry in a monotone FIFO class. */
  setExpiry(slot: number, at: Micros, into: ExpiryFifo): void {
    const J = this.jobs;
    J.expiry[slot] = at;
    const version = (J.expiryVersion[slot] + 1) | 0;
    J.expiryVersion[slot] = version;
    // Stale heads (jobs that finished or were retried) go now, so the FIFO tracks live jobs.
    const v = J.expiryVersion;
    while (into.length > 0 && v[into.headSlot()] !== into.headVersion()) into.shift();
    if (into.length > 2 * J.live + 1024) into.compact(this.expiryValid);
    into.push(at, slot, version);
    if (at < this.sweepAt) this.scheduleSweep(at);
  }

  /** The same for an expiry that is not "now + a class constant". */
  setExpiryIrregular(slot: number, at: Micros): void {
    const J = this.jobs;
    J.expiry[slot] = at;
    const version = (J.expiryVersion[slot] + 1) | 0;
    J.expiryVersion[slot] = version;
    if (this.irregular.length > 2 * J.live + 1024) this.irregular.compact(this.expiryValid);
    this.irregular.push(at, slot, version);
    if (at < this.sweepAt) this.scheduleSweep(at);
  }

  private readonly expiryValid = (slot: number, version: number): boolean => this.jobs.expiryVersion[slot] === version;

  private scheduleSweep(at: Micros): void {
    const now = this.engine.now;
    let t = Math.max(at, this.lastSweep + this.sweepIntervalUs, now);
    t = Math.ceil(t);
    if (this.sweepHandle >= 0) this.engine.cancel(this.sweepHandle);
    this.sweepAt = t;
    this.sweepHandle = this.engine.at(t, this.kindSweep, 0);
  }

  onSweep(now: Micros): void {
    this.sweepHandle = -1;
    this.sweepAt = Infinity;
    this.lastSweep = now;
    this.sweepOne(this.runRetention, now);
    this.sweepOne(this.syncRetention, now);
    this.sweepOne(this.lifetime, now);
    this.sweepOne(this.irregular, now);
    this.afterRemovals();
    let next = Infinity;
    for (const s of [this.runRetention, this.syncRetention, this.lifetime, this.irregular]) {
      if (s.length > 0 && s.headTime() < next) next = s.headTime();
    }
    if (next < Infinity) this.scheduleSweep(next);
  }

  private sweepOne(s: ExpiryFifo | ExpiryHeap, now: Micros): void {
    const J = this.jobs;
    const v = J.expiryVersion;
    const lifecycle = this.m.lifecycle;
    while (s.length > 0 && s.headTime() <= now) {
      const slot = s.headSlot();
      const version = s.headVersion();
      s.shift();
      if (v[slot] !== version) continue;
      const state = J.state[slot];
      if (state >= COMPLETED) {
        lifecycle.expireFinal(slot, state);
        continue;
      }
      if (state === IN_QUEUE) this.m.queues.unqueue(this.m.endpoints[J.endpoint[slot]], slot);
      lifecycle.drop(slot, "expire");
    }
  }

  /** When nothing is held any more, every structure that refers to slots is reset and shrunk. */
  afterRemovals(): void {
    if (this.jobs.live !== 0 || !this.jobs.shrinkIfEmpty()) return;
    for (const s of [this.runRetention, this.syncRetention, this.lifetime, this.irregular]) s.compact(() => false);
    for (const e of this.m.endpoints) {
      e.queue.clear();
      e.lowQueue.clear();
    }
  }

  /**
   * Jobs of an endpoint whose expiry passed but that the next sweep has not removed yet, by state
   * (index 0: retried ones). Reads subtract them so that health is exact without mutating.
   */
  expiredUnswept(endpoint: number): Int32Array {
    const out = new Int32Array(7);
    const J = this.jobs;
    const now = this.engine.now;
    const count = (slot: number, version: number): void => {
      if (J.expiryVersion[slot] !== version || J.endpoint[slot] !== endpoint) return;
      const state = J.state[slot];
      if (state === FREE || state === IN_PROGRESS) return;
      out[state]++;
      if ((J.flags[slot] & F_RETRIED) !== 0) out[0]++;
    };
    for (const f of [this.runRetention, this.syncRetention, this.lifetime]) {
      for (let i = 0; i < f.length && f.timeAt(i) <= now; i++) count(f.slotAt(i), f.versionAt(i));
    }
    // Heap order: a subtree whose root is later than now holds nothing earlier.
    const h = this.irregular;
    const stack = h.length > 0 ? [0] : [];
    while (stack.length > 0) {
      const i = stack.pop() as number;
      if (i >= h.length || h.timeAt(i) > now) continue;
      count(h.slotAt(i), h.versionAt(i));
      stack.push(2 * i + 1, 2 * i + 2);
    }
    return out;
  }
}
