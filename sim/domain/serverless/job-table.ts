/**
 * Every job of every endpoint, as columns of typed arrays indexed by slot (struct of arrays): a
 * job costs about 120 bytes plus its input and plan, allocates no object of its own, and a freed
 * slot is reused by the next submission. Times are virtual microseconds; -1 means "not yet".
 */
import type { HandlerPlan } from "../handlers/index.ts";
import { FREE } from "./job-status.ts";

/** Bits of JobTable.flags. */
export const F_LOW_PRIORITY = 1;
export const F_SYNC = 2;
export const F_RETRIED = 4;
export const F_WEBHOOK = 8;
export const F_LISTENERS = 16;
export const F_EXPLICIT_TTL = 32;
export const F_STATUS_TTL = 64;
/** The job's stream was flattened into the model's stream cache. */
export const F_STREAMED = 128;
/** The plan ends in failure (FAILED when it runs to its end). */
export const F_PLAN_FAILS = 256;
/** plans[slot] holds a streaming plan. */
export const F_HAS_PLAN = 512;
/** The current attempt started: startedAt (and worker) are set. Fields are written when they become true, not reset at submission. */
export const F_STARTED = 1024;
/** timeout[slot] holds policy.executionTimeout; otherwise the endpoint's default applies. */
export const F_EXPLICIT_TIMEOUT = 2048;

export class JobTable {
  capacity: number;
  /** Slots ever handed out; slots >= used have never held a job. */
  used = 0;
  /** Jobs currently held (not free). */
  live = 0;
  /** Platform-wide sequence number; -1 when free. Ids and queue entries are checked against it. */
  seq: Float64Array;
  /** Per-endpoint sequence number: the handler seed comes from it, so endpoints never shift each other. */
  epSeq: Float64Array;
  state: Uint8Array;
  flags: Uint16Array;
  endpoint: Int32Array;
  owner: Int32Array;
  /** Worker index while IN_PROGRESS; afterwards the worker's serial (for workerId), -1 if it never ran. */
  worker: Int32Array;
  attempt: Int32Array;
  /** Bumped whenever the job's expiry changes or its slot is freed; expiry entries carry it. */
  expiryVersion: Int32Array;
  enqueuedAt: Float64Array;
  startedAt: Float64Array;
  finishedAt: Float64Array;
  /** When the job is gone: its lifetime deadline while unfinished, its retention end once final. */
  expiry: Float64Array;
  /** Explicit policy.ttl in microseconds (F_EXPLICIT_TTL), else unused. */
  ttl: Float64Array;
  /** A status call's ttl deadline recorded while the job was unfinished (F_STATUS_TTL). */
  statusTtlAt: Float64Array;
  /** The plan's full execution time in microseconds (handler duration + overhead). */
  planned: Float64Array;
  /** Execution timeout in microseconds. */
  timeout: Float64Array;
  /** The pending finish event while IN_PROGRESS. */
  handle: Float64Array;
  /** Stream chunks already returned to the caller. */
  streamCursor: Int32Array;
  inputs: unknown[] = [];
  /** Output of a COMPLETED job or error of a FAILED one; the plan itself is not kept. */
  results: unknown[] = [];
  /** The plan, kept only when it streams (the stream operation reads its emissions). */
  plans: (HandlerPlan | undefined)[] = [];
  webhooks: (string | undefined)[] = [];
  private free: Int32Array;
  private freeCount = 0;
  private freeHead = 0;

  private readonly initialCapacity: number;

  constructor(initialCapacity = 256) {
    // A power of two, so that the free ring can wrap with a mask.
    const n = 2 ** Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.initialCapacity = n;
    this.capacity = n;
    this.seq = new Float64Array(n).fill(-1);
    this.epSeq = new Float64Array(n);
    this.state = new Uint8Array(n);
    this.flags = new Uint16Array(n);
    this.endpoint = new Int32Array(n);
    this.owner = new Int32Array(n);
    this.worker = new Int32Array(n);
    this.attempt = new Int32Array(n);
    this.expiryVersion = new Int32Array(n);
    this.enqueuedAt = new Float64Array(n);
    this.startedAt = new Float64Array(n);
    this.finishedAt = new Float64Array(n);
    this.expiry = new Float64Array(n);
    this.ttl = new Float64Array(n);
    this.statusTtlAt = new Float64Array(n);
    this.timeout = new Float64Array(n);
    this.planned = new Float64Array(n);
    this.handle = new Float64Array(n);
    this.streamCursor = new Int32Array(n);
    this.free = new Int32Array(n);
  }

  /**
   * Free slots are reused first-in first-out: jobs expire roughly in the order they were created,
   * so slots cycle through the columns nearly in order, and the hot path walks memory the way
   * caches and prefetchers like (a LIFO free list scatters it).
   */
  alloc(): number {
    if (this.freeCount > 0) {
      this.live++;
      this.freeCount--;
      const slot = this.free[this.freeHead];
      this.freeHead = (this.freeHead + 1) & (this.capacity - 1);
      return slot;
    }
    if (this.used === this.capacity) this.grow();
    this.live++;
    return this.used++;
  }

  /** Drops the job's references and makes the slot reusable; stale ids and entries stop matching. */
  release(slot: number): void {
    const flags = this.flags[slot];
    this.seq[slot] = -1;
    this.state[slot] = FREE;
    this.flags[slot] = 0;
    this.expiryVersion[slot] = (this.expiryVersion[slot] + 1) | 0;
    // The flags say which reference columns hold something, so the sweep touches only those
    // (each is a cache miss on a job that sat in retention for half an hour).
    this.inputs[slot] = undefined;
    this.results[slot] = undefined;
    if ((flags & F_HAS_PLAN) !== 0) this.plans[slot] = undefined;
    if ((flags & F_WEBHOOK) !== 0) this.webhooks[slot] = undefined;
    this.free[(this.freeHead + this.freeCount++) & (this.capacity - 1)] = slot;
    this.live--;
  }

  /**
   * Back to the initial capacity, once nothing is held: a spike of jobs must not pin its columns
   * after retention. The owner clears every structure that refers to slots at the same time.
   */
  shrinkIfEmpty(): boolean {
    if (this.live !== 0 || this.capacity <= this.initialCapacity) return false;
    const fresh = new JobTable(this.initialCapacity);
    Object.assign(this, fresh);
    return true;
  }

  /** Bytes held by the columns (not the inputs and plans they point to). */
  get bytes(): number {
    return this.capacity * 130;
  }

  private grow(): void {
    const n = this.capacity * 2;
    const f64 = (a: Float64Array, fill = 0): Float64Array => {
      const b = new Float64Array(n);
      if (fill !== 0) b.fill(fill, a.length);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array): Int32Array => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    const u16 = (a: Uint16Array): Uint16Array => {
      const b = new Uint16Array(n);
      b.set(a);
      return b;
    };
    const u8 = (a: Uint8Array): Uint8Array => {
      const b = new Uint8Array(n);
      b.set(a);
      return b;
    };
    this.seq = f64(this.seq, -1);
    this.epSeq = f64(this.epSeq);
    this.state = u8(this.state);
    this.flags = u16(this.flags);
    this.endpoint = i32(this.endpoint);
    this.owner = i32(this.owner);
    this.worker = i32(this.worker);
    this.attempt = i32(this.attempt);
    this.expiryVersion = i32(this.expiryVersion);
    this.enqueuedAt = f64(this.enqueuedAt);
    this.startedAt = f64(this.startedAt);
    this.finishedAt = f64(this.finishedAt);
    this.expiry = f64(this.expiry);
    this.ttl = f64(this.ttl);
    this.statusTtlAt = f64(this.statusTtlAt);
    this.timeout = f64(this.timeout);
    this.planned = f64(this.planned);
    this.handle = f64(this.handle);
    this.streamCursor = i32(this.streamCursor);
    // Growth happens only when no slot is free, so the free ring is empty and restarts at 0.
    this.free = new Int32Array(n);
    this.freeHead = 0;
    this.capacity = n;
  }
}
