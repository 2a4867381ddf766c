/**
 * Requests parked until a job is final or virtual time reaches their deadline (runsync,
 * status-sync). Bounded in number; each wait settles exactly once, by whichever comes first:
 * the job, the deadline, the client going away, a reset or the server closing.
 */
import type { Micros } from "../core/index.ts";
import { MinHeap } from "./min-heap.ts";

export interface WaitCallbacks {
  /** Virtual time reached the deadline before the job was final. */
  readonly onDeadline: () => void;
  /** The wait is abandoned (reset or close): answer with this reason. */
  readonly onCancel: (reason: string) => void;
}

export interface WaitHandle {
  readonly deadline: Micros;
  /** Marks the wait settled; false when it already was (the caller must then do nothing). */
  settle(): boolean;
}

class Entry implements WaitHandle {
  settled = false;
  constructor(
    readonly deadline: Micros,
    readonly seq: number,
    readonly callbacks: WaitCallbacks,
    private readonly owner: WaitSet,
  ) {}
  settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.owner.released();
    return true;
  }
}

export class WaitSet {
  private readonly heap = new MinHeap<Entry>();
  private live = 0;
  private sequence = 0;
  /** Waits ever parked: a client reads it (`waits_parked`) to know that its own wait is parked. */
  parked = 0;

  constructor(readonly max: number) {}

  get size(): number {
    return this.live;
  }

  /** Parks a wait; undefined when `max` waits are already parked. */
  add(deadline: Micros, callbacks: WaitCallbacks): WaitHandle | undefined {
    if (this.live >= this.max) return undefined;
    const entry = new Entry(deadline, this.sequence++, callbacks, this);
    this.heap.push(deadline, entry);
    this.live++;
    this.parked++;
    return entry;
  }

  /** Called by an entry when it settles. Drops settled entries once they dominate the heap. */
  released(): void {
    this.live--;
    if (this.heap.size > 1024 && this.heap.size > 4 * this.live) this.compact();
  }

  /** Settles every wait whose deadline is at or before `now`, earliest first. */
  expire(now: Micros): void {
    for (;;) {
      const key = this.heap.peekKey();
      if (key === undefined || key > now) return;
      const entry = this.heap.pop() as Entry;
      if (entry.settle()) entry.callbacks.onDeadline();
    }
  }

  earliestDeadline(): Micros | undefined {
    for (;;) {
      const top = this.heap.peek();
      if (top === undefined) return undefined;
      if (!top.settled) return top.deadline;
      this.heap.pop();
    }
  }

  /** Settles every parked wait with onCancel(reason). */
  cancelAll(reason: string): void {
    const entries = [...this.heap.values()];
    this.heap.clear();
    for (const e of entries) if (e.settle()) e.callbacks.onCancel(reason);
  }

  private compact(): void {
    // Re-pushed in their original order, so equal deadlines still settle first-come first-served.
    const alive = this.heap.values().filter((e) => !e.settled).sort((a, b) => a.deadline - b.deadline || a.seq - b.seq);
    this.heap.clear();
    for (const e of alive) this.heap.push(e.deadline, e);
  }
}
