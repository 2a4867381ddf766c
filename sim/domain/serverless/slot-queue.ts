/**
 * An endpoint's FIFO of queued jobs: a growable ring of (slot, sequence) pairs. Cancel, purge and
 * expiry leave entries behind (the job is no longer IN_QUEUE, or the slot holds a newer job with
 * another sequence); the owner skips them at the head and compacts when they dominate, so a
 * removal from the middle costs O(1).
 */
export class SlotQueue {
  private slots: Int32Array;
  private seqs: Float64Array;
  private head = 0;
  private tail = 0;
  private mask: number;

  constructor(initialCapacity = 16) {
    const cap = 1 << Math.ceil(Math.log2(Math.max(4, initialCapacity)));
    this.slots = new Int32Array(cap);
    this.seqs = new Float64Array(cap);
    this.mask = cap - 1;
  }

  /** Entries, counting stale ones. */
  get length(): number {
    return this.tail - this.head;
  }

  push(slot: number, seq: number): void {
    if (this.tail - this.head > this.mask) this.resize((this.mask + 1) * 2);
    const i = this.tail & this.mask;
    this.slots[i] = slot;
    this.seqs[i] = seq;
    this.tail++;
  }

  headSlot(): number {
    return this.slots[this.head & this.mask];
  }

  headSeq(): number {
    return this.seqs[this.head & this.mask];
  }

  shift(): void {
    this.head++;
    if (this.head === this.tail) this.head = this.tail = 0;
  }

  slotAt(i: number): number {
    return this.slots[(this.head + i) & this.mask];
  }

  seqAt(i: number): number {
    return this.seqs[(this.head + i) & this.mask];
  }

  clear(): void {
    this.head = this.tail = 0;
    if (this.mask >= 1024) this.resize(16);
  }

  /** Keeps entries for which live(slot, seq) holds, in order. */
  compact(live: (slot: number, seq: number) => boolean): void {
    let kept = 0;
    const n = this.tail - this.head;
    const slots = new Int32Array(this.mask + 1);
    const seqs = new Float64Array(this.mask + 1);
    for (let k = 0; k < n; k++) {
      const i = (this.head + k) & this.mask;
      if (!live(this.slots[i], this.seqs[i])) continue;
      slots[kept] = this.slots[i];
      seqs[kept] = this.seqs[i];
      kept++;
    }
    this.slots = slots;
    this.seqs = seqs;
    this.head = 0;
    this.tail = kept;
  }

  private resize(cap: number): void {
    const n = this.tail - this.head;
    const slots = new Int32Array(cap);
    const seqs = new Float64Array(cap);
    for (let k = 0; k < n; k++) {
      const i = (this.head + k) & this.mask;
      slots[k] = this.slots[i];
      seqs[k] = this.seqs[i];
    }
    this.slots = slots;
    this.seqs = seqs;
    this.mask = cap - 1;
    this.head = 0;
    this.tail = n;
  }
}
