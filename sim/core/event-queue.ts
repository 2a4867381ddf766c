/**
 * The pending-event queue, ordered by (time, priority, insertion sequence), allocating nothing per
 * event: a ladder queue (Tang, Goh and Thng, 2005) with a small binary heap at its foot.
 *
 * - The heap ("bottom") holds the events of the bucket opened last, and any event scheduled before
 *   that bucket ends; it orders them by the full key, so the queue's order is exact.
 * - Above it, rungs of time buckets: unsorted lists, each bucket covering a fixed span of time (a
 *   power of two of microseconds, so a bucket index is an exact multiply and floor). Rung 0 covers
 *   the times pending at the last rebuild; an event beyond it waits in an unsorted overflow list.
 * - When the heap empties, the deepest rung's next non-empty bucket is opened: a few events move
 *   into the heap; a crowded bucket (more than RUNG_THRESHOLD events) is spread over a finer rung
 *   of its own instead. When a rung runs out it is dropped; when rung 0 runs out, the overflow is
 *   spread over a fresh rung 0 sized to it (about two buckets per event).
 *
 * An event is touched a few times between scheduling and running, whatever the number pending, so
 * a hold step costs O(1) where a heap's sift costs O(log n) reads across memory; the heap only
 * orders a bucket's few events. Events at one single time cannot be spread and go through the heap.
 *
 * Per event (a slot that never moves): time and tie-break key priority * 2^32 + sequence (two
 * Float64Arrays; exact, since |priority| <= 2^20 and sequence < 2^32) and four int32s: kind,
 * target, generation, and the link of the list it is on (bucket, overflow or free list). A handle
 * is generation * 2^26 + slot; cancelling bumps the generation and marks the slot, and the entry is
 * dropped when it reaches the heap's top, its bucket opens or the overflow is spread, or by
 * compaction when dead entries dominate. Memory: 36 bytes per slot (with its heap position) and 4
 * per bucket.
 */
import { InvalidParameterError, SchedulingError } from "./errors.ts";

/** Slots per queue: 2^26, about 67 million pending events. */
const SLOT_SPAN = 2 ** 26;
/** Generations wrap below 2^27 so that handles stay below 2^53. */
const GEN_SPAN = 2 ** 27;
export const MAX_PRIORITY = 2 ** 20;
const TWO_POW_32 = 4294967296;
const DEFAULT_SEQUENCE_LIMIT = TWO_POW_32;
const FREE = -1;
const CANCELLED = -2;
/** Compaction only pays once the queue is large and mostly dead. */
const COMPACT_MIN_DEAD = 1024;
const INITIAL_CAPACITY = 1024;
/** Buckets per event when a rung is made: fewer buckets put more events through the heap. */
const BUCKETS_PER_EVENT = 2;
/** An opened bucket with more events than this is spread over a finer rung rather than the heap. */
const RUNG_THRESHOLD = 32;
/** Widths halve at least once per rung, from at most 2^53: rungs never nest deeper. */
const MAX_RUNGS = 54;

export interface EventQueueOptions {
  initialCapacity?: number;
  /** Sequence numbers are renumbered when they reach this; tests lower it to exercise that. */
  sequenceLimit?: number;
}

export class EventQueue {
  /** Set by take(): the event just taken. NaN until then, which also makes the field a double. */
  lastTime = Number.NaN;
  lastTarget = 0;

  private capacity = 0;
  private slotTime: Float64Array;
  private slotTie: Float64Array;
  /** Per-slot integers, four to a slot: kind at 4s, target at 4s + 1, generation at 4s + 2, link at 4s + 3. */
  private slots: Int32Array;
  /** The heap of slots, by (time, tie). */
  private bottom: Int32Array;
  private bottomSize = 0;
  /** Every event before this time is in the heap: the start of the deepest rung's next bucket. */
  private bottomEnd = Number.NEGATIVE_INFINITY;
  /** Rungs in use (0: none yet, everything waits in the overflow). */
  private rungs = 0;
  /**
   * Per rung r: bucket k covers [base + k * width, base + (k + 1) * width) for k < count, and
   * buckets from cursor on are unopened; rung r + 1 spreads rung r's bucket cursor - 1.
   */
  private readonly rungBase = new Float64Array(MAX_RUNGS);
  private readonly rungWidth = new Float64Array(MAX_RUNGS);
  private readonly rungCount = new Int32Array(MAX_RUNGS);
  private readonly rungCursor = new Int32Array(MAX_RUNGS);
  /** Bucket lists (-1 for empty), one array per rung, kept for reuse. */
  private readonly rungHeads: Int32Array[] = [];
  /** Rung 0, copied out of the arrays above for push(): its bucket lists, base, 1 / width (exact, a power of two). */
  private heads0: Int32Array = new Int32Array(0);
  private base0 = 0;
  private inverseWidth0 = 1;
  /** The start of rung 0's next bucket: events from here to top go to rung 0. */
  private start0 = Number.POSITIVE_INFINITY;
  /** The end of rung 0: events from here on go to the overflow list. */
  private top = Number.NEGATIVE_INFINITY;
  private overflow = -1;
  private overflowSize = 0;
  /** Entries held, counting cancelled ones. */
  private size = 0;
  private dead = 0;
  private slotsUsed = 0;
  private freeHead = -1;
  private sequence = 0;
  private readonly sequenceLimit: number = 0;

  constructor(options: EventQueueOptions = {}) {
    const capacity = options.initialCapacity ?? INITIAL_CAPACITY;
    if (!Number.isSafeInteger(capacity) || capacity < 1 || capacity > SLOT_SPAN) {
      throw new InvalidParameterError("initialCapacity", capacity, `an integer in [1, ${SLOT_SPAN}]`);
    }
    const sequenceLimit = options.sequenceLimit ?? DEFAULT_SEQUENCE_LIMIT;
    if (!Number.isSafeInteger(sequenceLimit) || sequenceLimit < 1 || sequenceLimit > DEFAULT_SEQUENCE_LIMIT) {
      throw new InvalidParameterError("sequenceLimit", sequenceLimit, "an integer in [1, 2^32]");
    }
    this.sequenceLimit = sequenceLimit;
    this.capacity = capacity;
    this.slotTime = new Float64Array(capacity);
    this.slotTie = new Float64Array(capacity);
    this.slots = newSlots(capacity, 0);
    this.bottom = new Int32Array(capacity);
  }

  /** Live (not cancelled, not yet run) events. */
  get pending(): number {
    return this.size - this.dead;
  }

  /** Rungs in use now: 1 for a plain calendar, more where crowded buckets were spread (for tests and diagnostics). */
  get depth(): number {
    return this.rungs;
  }

  /** Bytes held by the typed arrays. */
  get bytes(): number {
    let buckets = 0;
    for (const heads of this.rungHeads) buckets += heads.length;
    return this.capacity * 36 + buckets * 4;
  }

  /**
   * Adds an event; the caller has validated time (a safe integer), priority (an integer within
   * +-2^20), kind (>= 0) and target (an int32). Returns its handle.
   *
   * The hot methods (push, take) are kept short, with rare work in separate methods, because V8
   * inlines by bytecode size: small enough, they are compiled into the caller's loop.
   */
  push(time: number, priority: number, kind: number, target: number): number {
    let seq = this.sequence;
    if (seq >= this.sequenceLimit) seq = this.renumber();
    this.sequence = seq + 1;
    let slot = this.freeHead;
    if (slot >= 0) this.freeHead = this.slots[4 * slot + 3];
    else slot = this.freshSlot();
    const slots = this.slots;
    // Literals rather than module constants in the hot methods (TWO_POW_32, SLOT_SPAN): a
    // module-level const costs a context load and a TDZ check per use.
    this.slotTie[slot] = priority * 4294967296 + seq;
    this.slotTime[slot] = time;
    slots[4 * slot] = kind;
    slots[4 * slot + 1] = target;
    this.size++;
    if (time < this.top) {
      if (time >= this.start0) {
        const k = Math.floor((time - this.base0) * this.inverseWidth0);
        const heads = this.heads0;
        slots[4 * slot + 3] = heads[k];
        heads[k] = slot;
      } else if (time < this.bottomEnd) {
        this.bottomPush(slot);
      } else {
        this.insertDeep(slot, time);
      }
    } else {
      slots[4 * slot + 3] = this.overflow;
      this.overflow = slot;
      this.overflowSize++;
    }
    return slots[4 * slot + 2] * 67108864 + slot;
  }

  /** The time of the earliest live event, or -1 when there is none. */
  peekTime(): number {
    if ((this.bottomSize === 0 || this.dead !== 0) && this.settleTop() < 0) return -1;
    return this.slotTime[this.bottom[0]];
  }

  /**
   * Takes the earliest live event if its time is <= limit: returns its kind and leaves its time and
   * target in lastTime and lastTarget. Returns -1, taking nothing, when there is no such event.
   */
  take(limit: number): number {
    if ((this.bottomSize === 0 || this.dead !== 0) && this.settleTop() < 0) return -1;
    const slot = this.bottom[0];
    const time = this.slotTime[slot];
    if (time > limit) return -1;
    this.bottomPop();
    this.lastTime = time;
    const slots = this.slots;
    this.lastTarget = slots[4 * slot + 1];
    const gen = slots[4 * slot + 2] + 1;
    slots[4 * slot + 2] = gen === 134217728 ? 1 : gen;
    slots[4 * slot + 3] = this.freeHead;
    this.freeHead = slot;
    this.size--;
    return slots[4 * slot];
  }

  isPending(handle: number): boolean {
    return this.liveSlot(handle) >= 0;
  }

  cancel(handle: number): boolean {
    const slot = this.liveSlot(handle);
    if (slot < 0) return false;
    this.slots[4 * slot] = CANCELLED;
    this.bumpGeneration(slot);
    this.dead++;
    if (this.dead >= COMPACT_MIN_DEAD && 2 * this.dead > this.size) this.compact();
    return true;
  }

  /**
   * Drops every cancelled entry, gathering the live ones into the overflow list for the next
   * rebuild to spread out again. O(n); pop order is unchanged, as it depends on keys alone.
   */
  compact(): void {
    let list = -1;
    let kept = 0;
    const keep = (slot: number): void => {
      if (this.slots[4 * slot] === CANCELLED) {
        this.freeSlot(slot);
        return;
      }
      this.slots[4 * slot + 3] = list;
      list = slot;
      kept++;
    };
    for (let i = 0; i < this.bottomSize; i++) keep(this.bottom[i]);
    for (let r = 0; r < this.rungs; r++) {
      const heads = this.rungHeads[r];
      for (let k = this.rungCursor[r]; k < this.rungCount[r]; k++) {
        for (let s = heads[k]; s >= 0; ) {
          const next = this.slots[4 * s + 3];
          keep(s);
          s = next;
        }
        heads[k] = -1;
      }
    }
    for (let s = this.overflow; s >= 0; ) {
      const next = this.slots[4 * s + 3];
      keep(s);
      s = next;
    }
    this.overflow = list;
    this.overflowSize = kept;
    this.size = kept;
    this.dead = 0;
    this.bottomSize = 0;
    this.bottomEnd = Number.NEGATIVE_INFINITY;
    this.rungs = 0;
    this.start0 = Number.POSITIVE_INFINITY;
    this.top = Number.NEGATIVE_INFINITY;
  }

  /**
   * Makes the heap's top the earliest live event: drops cancelled tops, opens the deepest rung's
   * next bucket when the heap is empty, drops rungs that have run out and rebuilds rung 0 from the
   * overflow. Returns the top slot, or -1 when nothing is pending.
   */
  private settleTop(): number {
    for (;;) {
      while (this.bottomSize > 0) {
        const slot = this.bottom[0];
        if (this.slots[4 * slot] !== CANCELLED) return slot;
        this.bottomPop();
        this.freeSlot(slot);
        this.dead--;
        this.size--;
      }
      if (this.rungs === 0) {
        if (this.overflowSize === 0) return -1;
        this.rebuild();
      } else {
        this.openNextBucket();
      }
    }
  }

  /**
   * Opens the deepest rung's next non-empty bucket: into the heap, or over a finer rung when
   * crowded; drops the rung when it has none left.
   */
  private openNextBucket(): void {
    const r = this.rungs - 1;
    const heads = this.rungHeads[r];
    const count = this.rungCount[r];
    let k = this.rungCursor[r];
    while (k < count && heads[k] < 0) k++;
    this.rungCursor[r] = k;
    if (k === count) {
      this.dropRung(r);
      return;
    }
    let list = heads[k];
    heads[k] = -1;
    this.rungCursor[r] = k + 1;
    const width = this.rungWidth[r];
    const end = this.rungBase[r] + (k + 1) * width;
    if (r === 0) this.start0 = end;
    this.bottomEnd = end;
    // Into the heap as the list is walked (one pass over the slots); a crowded bucket is taken
    // back out and spread instead.
    const slots = this.slots;
    let n = 0;
    while (list >= 0) {
      const next = slots[4 * list + 3];
      this.bottomPush(list);
      list = next;
      if (++n > RUNG_THRESHOLD && list >= 0 && width > 1 && this.rungs < MAX_RUNGS) {
        this.spreadCrowded(list, end - width, width);
        return;
      }
    }
  }

  /** Drops rung r, which has run out: the rung above (if any) goes on from its next bucket. */
  private dropRung(r: number): void {
    this.rungs = r;
    if (r === 0) {
      this.start0 = Number.POSITIVE_INFINITY;
      this.top = Number.NEGATIVE_INFINITY;
      this.bottomEnd = Number.NEGATIVE_INFINITY;
    } else {
      this.bottomEnd = this.rungStart(r - 1);
    }
  }

  /**
   * Spreads a crowded bucket (times in [start, start + width)), now partly in the heap and the rest
   * in a list, over a new deepest rung of finer buckets, about BUCKETS_PER_EVENT per event.
   */
  private spreadCrowded(rest: number, start: number, width: number): void {
    const slots = this.slots;
    let list = rest;
    let n = 0;
    for (let s = rest; s >= 0; s = slots[4 * s + 3]) n++;
    for (let i = 0; i < this.bottomSize; i++) {
      const s = this.bottom[i];
      slots[4 * s + 3] = list;
      list = s;
    }
    n += this.bottomSize;
    this.bottomSize = 0;
    let fine = width;
    while (fine > 1 && width / fine < BUCKETS_PER_EVENT * n) fine /= 2;
    this.openRung(list, start, fine, width / fine);
  }

  /** Where rung r's next bucket starts. */
  private rungStart(r: number): number {
    return this.rungBase[r] + this.rungCursor[r] * this.rungWidth[r];
  }

  /** Puts an event on the deepest rung from 1 on whose unopened buckets cover its time. */
  private insertDeep(slot: number, time: number): void {
    for (let r = 1; r < this.rungs; r++) {
      if (time < this.rungStart(r)) continue;
      const heads = this.rungHeads[r];
      const k = Math.floor((time - this.rungBase[r]) / this.rungWidth[r]);
      this.slots[4 * slot + 3] = heads[k];
      heads[k] = slot;
      return;
    }
    throw new Error(`event queue: no rung for t=${time}`);
  }

  /** Spreads the overflow list over a fresh rung 0 covering its times (dropping cancelled entries). */
  private rebuild(): void {
    const slots = this.slots;
    const slotTime = this.slotTime;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    let live = -1;
    let n = 0;
    for (let s = this.overflow; s >= 0; ) {
      const next = slots[4 * s + 3];
      if (slots[4 * s] === CANCELLED) {
        this.freeSlot(s);
        this.dead--;
        this.size--;
      } else {
        const t = slotTime[s];
        if (t < lo) lo = t;
        if (t > hi) hi = t;
        slots[4 * s + 3] = live;
        live = s;
        n++;
      }
      s = next;
    }
    this.overflow = -1;
    this.overflowSize = 0;
    if (n === 0) return;
    // The smallest power-of-two width that covers the span with about BUCKETS_PER_EVENT * n buckets.
    const span = hi - lo + 1;
    let width = 1;
    while (width * BUCKETS_PER_EVENT * n < span) width *= 2;
    this.openRung(live, lo, width, Math.ceil(span / width));
  }

  /** Makes a new deepest rung of count buckets of width from start, and spreads the list over it. */
  private openRung(list: number, start: number, width: number, count: number): void {
    const r = this.rungs++;
    let heads = this.rungHeads[r];
    if (heads === undefined || heads.length < count) {
      heads = new Int32Array(Math.max(count, 2 * (heads?.length ?? 0)));
      this.rungHeads[r] = heads;
    }
    heads.fill(-1, 0, count);
    this.rungBase[r] = start;
    this.rungWidth[r] = width;
    this.rungCount[r] = count;
    this.rungCursor[r] = 0;
    this.bottomEnd = start;
    if (r === 0) {
      this.heads0 = heads;
      this.base0 = start;
      this.inverseWidth0 = 1 / width;
      this.start0 = start;
      this.top = start + count * width;
    }
    const inverse = 1 / width;
    const slots = this.slots;
    const slotTime = this.slotTime;
    for (let s = list; s >= 0; ) {
      const next = slots[4 * s + 3];
      const k = Math.floor((slotTime[s] - start) * inverse);
      slots[4 * s + 3] = heads[k];
      heads[k] = s;
      s = next;
    }
  }

  /** Adds a slot to the heap (sift up by (time, tie)). */
  private bottomPush(slot: number): void {
    const bottom = this.bottom;
    const slotTime = this.slotTime;
    const slotTie = this.slotTie;
    const time = slotTime[slot];
    const tie = slotTie[slot];
    let i = this.bottomSize++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = bottom[parent];
      const pt = slotTime[p];
      if (pt < time || (pt === time && slotTie[p] < tie)) break;
      bottom[i] = p;
      i = parent;
    }
    bottom[i] = slot;
  }

  /** Removes the heap's top (sift the last entry down by (time, tie)). */
  private bottomPop(): void {
    const n = --this.bottomSize;
    if (n === 0) return;
    const bottom = this.bottom;
    const slotTime = this.slotTime;
    const slotTie = this.slotTie;
    const slot = bottom[n];
    const time = slotTime[slot];
    const tie = slotTie[slot];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      let cs = bottom[c];
      let ct = slotTime[cs];
      if (c + 1 < n) {
        const ds = bottom[c + 1];
        const dt = slotTime[ds];
        if (dt < ct || (dt === ct && slotTie[ds] < slotTie[cs])) {
          c++;
          cs = ds;
          ct = dt;
        }
      }
      if (time < ct || (time === ct && tie < slotTie[cs])) break;
      bottom[i] = cs;
      i = c;
    }
    bottom[i] = slot;
  }

  /** A never-used slot, growing the arrays when full. */
  private freshSlot(): number {
    const fresh = this.slotsUsed;
    if (fresh === this.capacity) this.grow();
    this.slotsUsed = fresh + 1;
    return fresh;
  }

  /** The slot of a handle that is still pending, or -1. */
  private liveSlot(handle: number): number {
    if (!(handle >= 0 && handle <= Number.MAX_SAFE_INTEGER) || handle % 1 !== 0) return -1;
    const slot = handle % SLOT_SPAN;
    if (slot >= this.slotsUsed) return -1;
    if (this.slots[4 * slot + 2] !== (handle - slot) / SLOT_SPAN) return -1;
    return this.slots[4 * slot] >= 0 ? slot : -1;
  }

  private bumpGeneration(slot: number): void {
    const gen = this.slots[4 * slot + 2] + 1;
    this.slots[4 * slot + 2] = gen === GEN_SPAN ? 1 : gen;
  }

  /** Returns a cancelled entry's slot to the free list. */
  private freeSlot(slot: number): void {
    this.slots[4 * slot] = FREE;
    this.slots[4 * slot + 3] = this.freeHead;
    this.freeHead = slot;
  }

  private grow(): void {
    if (this.capacity >= SLOT_SPAN) {
      throw new SchedulingError("queue-full", `the event queue is full (${SLOT_SPAN} events)`, {
        capacity: this.capacity,
      });
    }
    const capacity = Math.min(2 * this.capacity, SLOT_SPAN);
    this.slotTime = growFloat(this.slotTime, capacity);
    this.slotTie = growFloat(this.slotTie, capacity);
    this.bottom = growInt(this.bottom, capacity);
    const slots = newSlots(capacity, this.capacity);
    slots.set(this.slots);
    this.slots = slots;
    this.capacity = capacity;
  }

  /**
   * Gives the queued entries sequence numbers 0..n-1 in their current order and returns n, the
   * next free number. Relative order is kept; it runs once per 2^32 insertions.
   */
  private renumber(): number {
    this.compact();
    const tie = this.slotTie;
    const held: number[] = [];
    for (let s = this.overflow; s >= 0; s = this.slots[4 * s + 3]) held.push(s);
    const priorityOf = (s: number): number => Math.floor(tie[s] / TWO_POW_32);
    const seqOf = (s: number): number => tie[s] - priorityOf(s) * TWO_POW_32;
    held.sort((x, y) => seqOf(x) - seqOf(y));
    held.forEach((s, rank) => {
      tie[s] = priorityOf(s) * TWO_POW_32 + rank;
    });
    return held.length;
  }
}

/** Slot storage for capacity slots; generations from slot `from` on start at 1. */
function newSlots(capacity: number, from: number): Int32Array {
  const slots = new Int32Array(4 * capacity);
  for (let s = from; s < capacity; s++) slots[4 * s + 2] = 1;
  return slots;
}

function growFloat(from: Float64Array, capacity: number): Float64Array {
  const to = new Float64Array(capacity);
  to.set(from);
  return to;
}

function growInt(from: Int32Array, capacity: number): Int32Array {
  const to = new Int32Array(capacity);
  to.set(from);
  return to;
}
