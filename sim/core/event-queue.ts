/**
 * The pending-event queue: a 4-ary min-heap in struct-of-arrays form, ordered by
 * (time, priority, insertion sequence), that allocates nothing per event.
 *
 * Heap positions hold the time and the tie-break key priority * 2^32 + sequence (two
 * Float64Arrays; the key is exact, since |priority| <= 2^20 and sequence < 2^32) and a slot index
 * (an Int32Array). Everything else sits in per-slot storage that never moves: kind, target and
 * generation (one Int32Array, three to a slot). Free slots are chained through their target field.
 * Four children per node halve the levels a sift walks, and the tie-break key beside the time
 * spares a random read per equal time: both count once the heap outgrows the caches (a million
 * pending events, where equal times are common), and each level's four times sit in one or two
 * cache lines.
 *
 * A handle is generation * 2^26 + slot; cancelling bumps the generation and marks the slot, and the
 * heap entry is dropped lazily when it reaches the top (or by compaction when dead entries
 * dominate). Memory: 20 bytes per heap position + 12 per slot = 32 bytes per unit of capacity.
 *
 * Removal of the top is deferred: take() leaves a hole at the root, and the next push() drops its
 * entry into the hole, reusing the hole's slot, and sifts it down, so the usual "an event schedules
 * its successor" step costs one sift and no free-list traffic. Any other operation settles the hole
 * first (frees its slot and moves the last entry up).
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
/** Compaction only pays once the heap is large and mostly dead. */
const COMPACT_MIN_DEAD = 1024;
const INITIAL_CAPACITY = 1024;

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
  private heapTime: Float64Array;
  private heapSlot: Int32Array;
  private heapTie: Float64Array;
  /**
   * Per-slot integers, three to a slot: kind at 3s, target at 3s + 1, generation at 3s + 2. One
   * array rather than three, so that the hot path loads one array's base pointer, not three, and
   * a slot's fields share a cache line.
   */
  private slots: Int32Array;
  /** Heap entries, counting cancelled ones and the hole. */
  private size = 0;
  private hole = false;
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
    this.heapTime = new Float64Array(capacity + 3).fill(Infinity);
    this.heapSlot = new Int32Array(capacity);
    this.heapTie = new Float64Array(capacity);
    this.slots = newSlots(capacity, 0);
  }

  /** Live (not cancelled, not yet run) events. */
  get pending(): number {
    return this.size - this.dead - (this.hole ? 1 : 0);
  }

  /** Bytes held by the typed arrays (with the three +Infinity sentinels after the heap). */
  get bytes(): number {
    return this.capacity * 32 + 24;
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
    // Literals rather than module constants in the hot methods (TWO_POW_32, SLOT_SPAN): a
    // module-level const costs a context load and a TDZ check per use.
    const tie = priority * 4294967296 + seq;
    const slot = this.hole ? this.fillHole(time, tie, kind, target) : this.insert(time, tie, kind, target);
    return this.slots[3 * slot + 2] * 67108864 + slot;
  }

  /** Puts an event into the hole take() left, reusing its slot, and sifts it down. */
  private fillHole(time: number, tie: number, kind: number, target: number): number {
    const slot = this.heapSlot[0];
    const slots = this.slots;
    slots[3 * slot] = kind;
    slots[3 * slot + 1] = target;
    this.heapTie[0] = tie;
    this.hole = false;
    this.heapTime[0] = time;
    this.siftDown(0);
    return slot;
  }

  /** Puts an event in a free slot at the end of the heap and sifts it up. */
  private insert(time: number, tie: number, kind: number, target: number): number {
    const slot = this.allocSlot();
    const slots = this.slots;
    slots[3 * slot] = kind;
    slots[3 * slot + 1] = target;
    const i = this.size++;
    this.heapTie[i] = tie;
    this.heapTime[i] = time;
    this.heapSlot[i] = slot;
    this.siftUp(i);
    return slot;
  }

  /** The time of the earliest live event, or -1 when there is none. */
  peekTime(): number {
    if (this.hole) this.settleHole();
    if (this.dead !== 0) this.dropCancelledTop();
    return this.size === 0 ? -1 : this.heapTime[0];
  }

  /**
   * Takes the earliest live event if its time is <= limit: returns its kind and leaves its time and
   * target in lastTime and lastTarget. Returns -1, taking nothing, when there is no such event.
   * The slot stays with the hole for the next push to reuse; the event's handle dies now.
   */
  take(limit: number): number {
    if (this.hole) this.settleHole();
    if (this.dead !== 0) this.dropCancelledTop();
    if (this.size === 0 || this.heapTime[0] > limit) return -1;
    const slot = this.heapSlot[0];
    this.lastTime = this.heapTime[0];
    const slots = this.slots;
    this.lastTarget = slots[3 * slot + 1];
    const gen = slots[3 * slot + 2] + 1;
    slots[3 * slot + 2] = gen === 134217728 ? 1 : gen;
    this.hole = true;
    return slots[3 * slot];
  }

  isPending(handle: number): boolean {
    return this.liveSlot(handle) >= 0;
  }

  cancel(handle: number): boolean {
    const slot = this.liveSlot(handle);
    if (slot < 0) return false;
    this.slots[3 * slot] = CANCELLED;
    this.bumpGeneration(slot);
    this.dead++;
    if (this.dead >= COMPACT_MIN_DEAD && 2 * this.dead > this.size) this.compact();
    return true;
  }

  /** Drops every cancelled entry and rebuilds the heap in O(n). Pop order is unchanged. */
  compact(): void {
    if (this.hole) this.settleHole();
    const time = this.heapTime;
    const slots = this.heapSlot;
    let kept = 0;
    for (let i = 0; i < this.size; i++) {
      const slot = slots[i];
      if (this.slots[3 * slot] === CANCELLED) {
        this.freeSlot(slot);
        continue;
      }
      time[kept] = time[i];
      this.heapTie[kept] = this.heapTie[i];
      slots[kept] = slot;
      kept++;
    }
    time.fill(Infinity, kept, this.size);
    this.size = kept;
    this.dead = 0;
    for (let i = (kept - 2) >> 2; i >= 0; i--) this.siftDown(i);
  }

  /** A free slot: the most recently freed one, else a never-used one (growing when full). */
  private allocSlot(): number {
    const slot = this.freeHead;
    if (slot >= 0) {
      this.freeHead = this.slots[3 * slot + 1];
      return slot;
    }
    const fresh = this.slotsUsed;
    if (fresh === this.capacity) this.grow();
    this.slotsUsed = fresh + 1;
    return fresh;
  }

  /** Pops cancelled entries off the top until a live one (or nothing) is there. */
  private dropCancelledTop(): void {
    while (this.size > 0) {
      const slot = this.heapSlot[0];
      if (this.slots[3 * slot] !== CANCELLED) return;
      this.dead--;
      this.freeSlot(slot);
      this.removeRoot();
    }
  }

  /** The slot of a handle that is still pending, or -1. */
  private liveSlot(handle: number): number {
    if (!(handle >= 0 && handle <= Number.MAX_SAFE_INTEGER) || handle % 1 !== 0) return -1;
    const slot = handle % SLOT_SPAN;
    if (slot >= this.slotsUsed) return -1;
    if (this.slots[3 * slot + 2] !== (handle - slot) / SLOT_SPAN) return -1;
    return this.slots[3 * slot] >= 0 ? slot : -1;
  }

  private bumpGeneration(slot: number): void {
    const gen = this.slots[3 * slot + 2] + 1;
    this.slots[3 * slot + 2] = gen === GEN_SPAN ? 1 : gen;
  }

  private freeSlot(slot: number): void {
    this.slots[3 * slot] = FREE;
    this.slots[3 * slot + 1] = this.freeHead;
    this.freeHead = slot;
  }

  /** Frees the hole's slot and closes the hole. */
  private settleHole(): void {
    this.freeSlot(this.heapSlot[0]);
    this.removeRoot();
  }

  private removeRoot(): void {
    this.hole = false;
    const last = --this.size;
    const heapTime = this.heapTime;
    if (last > 0) {
      heapTime[0] = heapTime[last];
      this.heapTie[0] = this.heapTie[last];
      this.heapSlot[0] = this.heapSlot[last];
      heapTime[last] = Infinity;
      this.siftDown(0);
    } else {
      heapTime[0] = Infinity;
    }
  }

  /** Moves the entry at position i up to its place. */
  private siftUp(i: number): void {
    const heapTime = this.heapTime;
    const heapSlot = this.heapSlot;
    const time = heapTime[i];
    const slot = heapSlot[i];
    const heapTie = this.heapTie;
    const tie = heapTie[i];
    while (i > 0) {
      const parent = (i - 1) >> 2;
      const pt = heapTime[parent];
      if (pt <= time && (pt !== time || heapTie[parent] < tie)) break;
      heapTime[i] = pt;
      heapTie[i] = heapTie[parent];
      heapSlot[i] = heapSlot[parent];
      i = parent;
    }
    heapTime[i] = time;
    heapTie[i] = tie;
    heapSlot[i] = slot;
  }

  /**
   * Moves the entry at position i down to its place. The heap is 4-ary: half the levels of a
   * binary heap, and a node's four children share a cache line or two. Positions size .. size + 2
   * always hold +Infinity, so a node's child group is read whole without bounds tests. The
   * smallest child is picked without branches (booleans added as 0 or 1): those choices are coin
   * flips a CPU cannot predict. Any equal time on the way goes to siftDownTies, which breaks ties.
   */
  private siftDown(i: number): void {
    const heapTime = this.heapTime;
    const heapSlot = this.heapSlot;
    const heapTie = this.heapTie;
    const size = this.size;
    const time = heapTime[i];
    const tie = heapTie[i];
    const slot = heapSlot[i];
    for (;;) {
      const c = ((i << 2) + 1) | 0;
      if (c >= size) break;
      const t0 = heapTime[c];
      const t1 = heapTime[(c + 1) | 0];
      const t2 = heapTime[(c + 2) | 0];
      const t3 = heapTime[(c + 3) | 0];
      const a = (c + +(t1 < t0)) | 0;
      const b = (c + 2 + +(t3 < t2)) | 0;
      const ta = heapTime[a];
      const tb = heapTime[b];
      const m = a ^ ((a ^ b) & ((+(tb < ta) << 31) >> 31));
      const mt = heapTime[m];
      if (time < mt) break;
      if (time === mt || t0 === t1 || t2 === t3 || ta === tb) {
        heapTime[i] = time;
        heapTie[i] = tie;
        heapSlot[i] = slot;
        this.siftDownTies(i);
        return;
      }
      heapTime[i] = mt;
      heapTie[i] = heapTie[m];
      heapSlot[i] = heapSlot[m];
      i = m;
    }
    heapTime[i] = time;
    heapTie[i] = tie;
    heapSlot[i] = slot;
  }

  /** siftDown with the tie-break: (time, tie) order among the entry and each child group. */
  private siftDownTies(i: number): void {
    const heapTime = this.heapTime;
    const heapSlot = this.heapSlot;
    const heapTie = this.heapTie;
    const size = this.size;
    const time = heapTime[i];
    const slot = heapSlot[i];
    const tie = heapTie[i];
    for (;;) {
      const c = 4 * i + 1;
      if (c >= size) break;
      let m = c;
      let mt = heapTime[c];
      let mtie = heapTie[c];
      const end = Math.min(c + 4, size);
      for (let k = c + 1; k < end; k++) {
        const kt = heapTime[k];
        if (kt > mt) continue;
        const ktie = heapTie[k];
        if (kt < mt || ktie < mtie) {
          m = k;
          mt = kt;
          mtie = ktie;
        }
      }
      if (time < mt || (time === mt && tie < mtie)) break;
      heapTime[i] = mt;
      heapTie[i] = mtie;
      heapSlot[i] = heapSlot[m];
      i = m;
    }
    heapTime[i] = time;
    heapTie[i] = tie;
    heapSlot[i] = slot;
  }

  private grow(): void {
    if (this.capacity >= SLOT_SPAN) {
      throw new SchedulingError("queue-full", `the event queue is full (${SLOT_SPAN} events)`, {
        capacity: this.capacity,
      });
    }
    const capacity = Math.min(2 * this.capacity, SLOT_SPAN);
    this.heapTime = growFloat(this.heapTime, capacity + 3);
    this.heapTime.fill(Infinity, this.size);
    this.heapSlot = growInt(this.heapSlot, capacity);
    this.heapTie = growFloat(this.heapTie, capacity);
    const slots = newSlots(capacity, this.capacity);
    slots.set(this.slots);
    this.slots = slots;
    this.capacity = capacity;
  }

  /**
   * Gives the queued entries sequence numbers 0..n-1 in their current order and returns n, the
   * next free number. Relative order is kept, so the heap stays valid; it runs once per 2^32
   * insertions.
   */
  private renumber(): number {
    if (this.hole) this.settleHole();
    const n = this.size;
    const tie = this.heapTie;
    const positions = Array.from({ length: n }, (_, p) => p);
    const priorityOf = (p: number): number => Math.floor(tie[p] / TWO_POW_32);
    const seqOf = (p: number): number => tie[p] - priorityOf(p) * TWO_POW_32;
    positions.sort((x, y) => seqOf(x) - seqOf(y));
    const priorities = positions.map(priorityOf);
    for (let rank = 0; rank < n; rank++) tie[positions[rank]] = priorities[rank] * TWO_POW_32 + rank;
    return n;
  }
}

/** Slot storage for capacity slots; generations from slot `from` on start at 1. */
function newSlots(capacity: number, from: number): Int32Array {
  const slots = new Int32Array(3 * capacity);
  for (let s = from; s < capacity; s++) slots[3 * s + 2] = 1;
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
