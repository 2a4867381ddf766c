// Kept beside sim/core's EventQueue: that queue holds integer events tuned for the engine's hot loop (time, priority, kind, target), while the HTTP waits need object payloads ordered by wall-clock deadline.
/**
 * A binary min-heap of items keyed by a number, with ties broken by insertion order so that two
 * items due at the same time come out in the order they went in (deterministic replays).
 */
export class MinHeap<T> {
  private keys: number[] = [];
  private seqs: number[] = [];
  private items: T[] = [];
  private sequence = 0;

  get size(): number {
    return this.items.length;
  }

  push(key: number, item: T): void {
    this.keys.push(key);
    this.seqs.push(this.sequence++);
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  peekKey(): number | undefined {
    return this.items.length > 0 ? this.keys[0] : undefined;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  pop(): T | undefined {
    const n = this.items.length;
    if (n === 0) return undefined;
    const top = this.items[0];
    const lastKey = this.keys.pop() as number;
    const lastSeq = this.seqs.pop() as number;
    const lastItem = this.items.pop() as T;
    if (n > 1) {
      this.keys[0] = lastKey;
      this.seqs[0] = lastSeq;
      this.items[0] = lastItem;
      this.down(0);
    }
    return top;
  }

  clear(): void {
    this.keys = [];
    this.seqs = [];
    this.items = [];
  }

  /** Items in no particular order. */
  values(): readonly T[] {
    return this.items;
  }

  private less(a: number, b: number): boolean {
    return this.keys[a] < this.keys[b] || (this.keys[a] === this.keys[b] && this.seqs[a] < this.seqs[b]);
  }

  private swap(a: number, b: number): void {
    [this.keys[a], this.keys[b]] = [this.keys[b], this.keys[a]];
    [this.seqs[a], this.seqs[b]] = [this.seqs[b], this.seqs[a]];
    [this.items[a], this.items[b]] = [this.items[b], this.items[a]];
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(l, m)) m = l;
      if (r < n && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
}
