/**
 * A FIFO of (time, slot, version) whose times are pushed in non-decreasing order: one per expiry
 * class whose expiry is "now + a constant" (run retention, runsync retention, the default job
 * lifetime). Popping the head is O(1) and replaces one heap event per job.
 *
 * An entry is valid while the job's expiry version still equals the one it was pushed with; the
 * owner bumps the version whenever a job's expiry changes or its slot is freed, so stale entries
 * need no removal: they are skipped at the head and dropped by compaction.
 */
export class ExpiryFifo {
  private times: Float64Array;
  private slots: Int32Array;
  private versions: Int32Array;
  private head = 0;
  private tail = 0;
  private mask: number;

  constructor(initialCapacity = 1024) {
    const cap = 1 << Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.times = new Float64Array(cap);
    this.slots = new Int32Array(cap);
    this.versions = new Int32Array(cap);
    this.mask = cap - 1;
  }

  get length(): number {
    return this.tail - this.head;
  }

  get capacity(): number {
    return this.mask + 1;
  }

  push(time: number, slot: number, version: number): void {
    if (this.tail - this.head > this.mask) this.grow();
    const i = this.tail & this.mask;
    this.times[i] = time;
    this.slots[i] = slot;
    this.versions[i] = version;
    this.tail++;
  }

  /** Head entry; only call when length > 0. */
  headTime(): number {
    return this.times[this.head & this.mask];
  }

  headSlot(): number {
    return this.slots[this.head & this.mask];
  }

  headVersion(): number {
    return this.versions[this.head & this.mask];
  }

  shift(): void {
    this.head++;
    if (this.head === this.tail) this.head = this.tail = 0;
  }

  /** The i-th entry from the head (0-based), for read-only scans. */
  timeAt(i: number): number {
    return this.times[(this.head + i) & this.mask];
  }

  slotAt(i: number): number {
    return this.slots[(this.head + i) & this.mask];
  }

  versionAt(i: number): number {
    return this.versions[(this.head + i) & this.mask];
  }

  /** Keeps only entries for which valid(slot, version) holds, in order; O(length). */
  compact(valid: (slot: number, version: number) => boolean): void {
    const n = this.tail - this.head;
    let kept = 0;
    const cap = this.mask + 1;
    const times = new Float64Array(cap);
    const slots = new Int32Array(cap);
    const versions = new Int32Array(cap);
    for (let k = 0; k < n; k++) {
      const i = (this.head + k) & this.mask;
      if (!valid(this.slots[i], this.versions[i])) continue;
      times[kept] = this.times[i];
      slots[kept] = this.slots[i];
      versions[kept] = this.versions[i];
      kept++;
    }
    // Shrink when mostly empty so that a burst does not pin its memory forever.
    let target = cap;
    while (target > 1024 && kept * 4 < target) target >>= 1;
    this.times = target === cap ? times : times.slice(0, target);
    this.slots = target === cap ? slots : slots.slice(0, target);
    this.versions = target === cap ? versions : versions.slice(0, target);
    this.mask = target - 1;
    this.head = 0;
    this.tail = kept;
  }

  private grow(): void {
    const n = this.tail - this.head;
    const cap = (this.mask + 1) * 2;
    const times = new Float64Array(cap);
    const slots = new Int32Array(cap);
    const versions = new Int32Array(cap);
    for (let k = 0; k < n; k++) {
      const i = (this.head + k) & this.mask;
      times[k] = this.times[i];
      slots[k] = this.slots[i];
      versions[k] = this.versions[i];
    }
    this.times = times;
    this.slots = slots;
    this.versions = versions;
    this.mask = cap - 1;
    this.head = 0;
    this.tail = n;
  }
}
