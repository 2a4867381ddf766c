/**
 * A min-heap of (time, slot, version) for expiries that are not "now + a class constant": a
 * policy.ttl counted from submission, a status call's ttl. These are rare next to the FIFO
 * classes, so a plain binary heap on typed arrays is enough. Validity works as in ExpiryFifo.
 */
export class ExpiryHeap {
  private times = new Float64Array(64);
  private slots = new Int32Array(64);
  private versions = new Int32Array(64);
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(time: number, slot: number, version: number): void {
    if (this.size === this.times.length) this.grow(this.size * 2);
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.times[p] <= time) break;
      this.times[i] = this.times[p];
      this.slots[i] = this.slots[p];
      this.versions[i] = this.versions[p];
      i = p;
    }
    this.times[i] = time;
    this.slots[i] = slot;
    this.versions[i] = version;
  }

  headTime(): number {
    return this.times[0];
  }

  headSlot(): number {
    return this.slots[0];
  }

  headVersion(): number {
    return this.versions[0];
  }

  shift(): void {
    const last = --this.size;
    if (last > 0) this.siftDown(0, this.times[last], this.slots[last], this.versions[last]);
  }

  /** Entry i in heap order, for read-only scans. */
  timeAt(i: number): number {
    return this.times[i];
  }

  slotAt(i: number): number {
    return this.slots[i];
  }

  versionAt(i: number): number {
    return this.versions[i];
  }

  compact(valid: (slot: number, version: number) => boolean): void {
    let kept = 0;
    for (let i = 0; i < this.size; i++) {
      if (!valid(this.slots[i], this.versions[i])) continue;
      this.times[kept] = this.times[i];
      this.slots[kept] = this.slots[i];
      this.versions[kept] = this.versions[i];
      kept++;
    }
    this.size = kept;
    for (let i = (kept >> 1) - 1; i >= 0; i--) this.siftDown(i, this.times[i], this.slots[i], this.versions[i]);
    if (this.times.length > 1024 && kept * 4 < this.times.length) this.grow(Math.max(64, kept * 2));
  }

  private siftDown(i: number, time: number, slot: number, version: number): void {
    const n = this.size;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && this.times[c + 1] < this.times[c]) c++;
      if (time <= this.times[c]) break;
      this.times[i] = this.times[c];
      this.slots[i] = this.slots[c];
      this.versions[i] = this.versions[c];
      i = c;
    }
    this.times[i] = time;
    this.slots[i] = slot;
    this.versions[i] = version;
  }

  private grow(cap: number): void {
    const times = new Float64Array(cap);
    const slots = new Int32Array(cap);
    const versions = new Int32Array(cap);
    times.set(this.times.subarray(0, this.size));
    slots.set(this.slots.subarray(0, this.size));
    versions.set(this.versions.subarray(0, this.size));
    this.times = times;
    this.slots = slots;
    this.versions = versions;
  }
}
