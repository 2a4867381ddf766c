import t from "tap";
import fc from "fast-check";
import { EventQueue } from "./event-queue.ts";
import { Rng } from "./rng.ts";

/** A sorted-array reference: the earliest by (time, priority, sequence), found by a linear scan. */
interface RefEvent {
  time: number;
  priority: number;
  seq: number;
  target: number;
  handle: number;
}

class Reference {
  private events: RefEvent[] = [];
  private seq = 0;
  add(time: number, priority: number, target: number, handle: number): void {
    this.events.push({ time, priority, seq: this.seq++, target, handle });
  }
  private earliestIndex(): number {
    let best = -1;
    for (let i = 0; i < this.events.length; i++) {
      const e = this.events[i];
      const b = this.events[best];
      if (
        best < 0 ||
        e.time < b.time ||
        (e.time === b.time && (e.priority < b.priority || (e.priority === b.priority && e.seq < b.seq)))
      ) {
        best = i;
      }
    }
    return best;
  }
  pop(): RefEvent | undefined {
    const i = this.earliestIndex();
    return i < 0 ? undefined : this.events.splice(i, 1)[0];
  }
  peekTime(): number {
    const i = this.earliestIndex();
    return i < 0 ? -1 : this.events[i].time;
  }
  cancel(handle: number): boolean {
    const i = this.events.findIndex((e) => e.handle === handle);
    if (i < 0) return false;
    this.events.splice(i, 1);
    return true;
  }
  has(handle: number): boolean {
    return this.events.some((e) => e.handle === handle);
  }
  get size(): number {
    return this.events.length;
  }
}

/** The same order kept sorted (binary insertion), for long workloads the linear scan is too slow for. */
class SortedReference {
  private events: RefEvent[] = [];
  private seq = 0;
  add(time: number, priority: number, target: number, handle: number): void {
    const e = { time, priority, seq: this.seq++, target, handle };
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = this.events[mid];
      if (m.time < time || (m.time === time && m.priority <= priority)) lo = mid + 1;
      else hi = mid;
    }
    this.events.splice(lo, 0, e);
  }
  pop(): RefEvent | undefined {
    return this.events.shift();
  }
  cancel(handle: number): boolean {
    const i = this.events.findIndex((e) => e.handle === handle);
    if (i < 0) return false;
    this.events.splice(i, 1);
    return true;
  }
  get size(): number {
    return this.events.length;
  }
}

type Op =
  | { op: "push"; time: number; priority: number }
  | { op: "pop" }
  | { op: "peek" }
  | { op: "cancel"; pick: number };

// Small time and priority ranges so that ties are common.
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant("push" as const), time: fc.integer({ min: 0, max: 12 }), priority: fc.integer({ min: -2, max: 2 }) }), weight: 5 },
  { arbitrary: fc.constant({ op: "pop" as const }), weight: 3 },
  { arbitrary: fc.constant({ op: "peek" as const }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant("cancel" as const), pick: fc.nat() }), weight: 2 },
);

/** Runs ops on both and returns the first disagreement, or undefined. */
function compare(ops: Op[], queue: EventQueue, observe?: (queue: EventQueue) => void): string | undefined {
  const ref = new Reference();
  const handles: number[] = [];
  let nextTarget = 0;
  for (const [n, o] of ops.entries()) {
    if (o.op === "push") {
      const target = nextTarget++;
      const handle = queue.push(o.time, o.priority, 7, target);
      handles.push(handle);
      ref.add(o.time, o.priority, target, handle);
    } else if (o.op === "pop") {
      const want = ref.pop();
      const kind = queue.take(Number.MAX_SAFE_INTEGER);
      if (want === undefined) {
        if (kind !== -1) return `op ${n}: popped kind ${kind} from an empty queue`;
      } else if (kind !== 7 || queue.lastTarget !== want.target || queue.lastTime !== want.time) {
        return `op ${n}: popped target ${queue.lastTarget} at ${queue.lastTime}, want target ${want.target} at ${want.time}`;
      }
    } else if (o.op === "peek") {
      if (queue.peekTime() !== ref.peekTime()) return `op ${n}: peek ${queue.peekTime()} want ${ref.peekTime()}`;
    } else if (handles.length > 0) {
      const handle = handles[o.pick % handles.length];
      const want = ref.has(handle);
      if (queue.isPending(handle) !== want) return `op ${n}: isPending ${!want}, want ${want}`;
      if (queue.cancel(handle) !== ref.cancel(handle)) return `op ${n}: cancel disagreed`;
      if (queue.isPending(handle)) return `op ${n}: still pending after cancel`;
    }
    if (queue.pending !== ref.size) return `op ${n}: pending ${queue.pending}, want ${ref.size}`;
    observe?.(queue);
  }
  // Drain: the rest must come out in reference order.
  for (;;) {
    const want = ref.pop();
    const kind = queue.take(Number.MAX_SAFE_INTEGER);
    if (want === undefined) return kind === -1 ? undefined : "drain: queue has extra events";
    if (queue.lastTarget !== want.target) return `drain: target ${queue.lastTarget}, want ${want.target}`;
  }
}

t.test("pops in (time, priority, sequence) order, like a sorted reference, with cancels", (t) => {
  fc.assert(
    fc.property(fc.array(opArb, { maxLength: 300, size: "max" }), (ops) => {
      const failure = compare(ops, new EventQueue({ initialCapacity: 1 }));
      if (failure) throw new Error(failure);
    }),
    { seed: 20240601, numRuns: 400 },
  );
  t.pass("400 random operation sequences agree with the reference");
  t.end();
});

// Times that make the ladder do all it does: clusters that crowd a bucket (spread over finer
// rungs), wide spans, far outliers that stretch a rung, times near 2^53, and pushes before events
// already taken (into the heap at the foot).
const wideTimeArb = fc.oneof(
  fc.integer({ min: 0, max: 12 }),
  fc.integer({ min: 1000, max: 1040 }),
  fc.integer({ min: 0, max: 1_000_000 }),
  fc.integer({ min: 0, max: 2 ** 40 }),
  fc.constantFrom(2 ** 53 - 1, 2 ** 53 - 2, 2 ** 52),
);
const wideOpArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant("push" as const), time: wideTimeArb, priority: fc.integer({ min: -2, max: 2 }) }), weight: 6 },
  { arbitrary: fc.constant({ op: "pop" as const }), weight: 3 },
  { arbitrary: fc.constant({ op: "peek" as const }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant("cancel" as const), pick: fc.nat() }), weight: 2 },
);

t.test("agrees with the reference on wide, clustered and extreme times (rungs, spreads, overflow)", (t) => {
  let deepest = 0;
  fc.assert(
    fc.property(fc.array(wideOpArb, { minLength: 100, maxLength: 600, size: "max" }), (ops) => {
      const queue = new EventQueue({ initialCapacity: 1 });
      const failure = compare(ops, queue, (q) => {
        deepest = Math.max(deepest, q.depth);
      });
      if (failure) throw new Error(failure);
    }),
    { seed: 314159, numRuns: 400 },
  );
  t.ok(deepest >= 2, `crowded buckets were spread over finer rungs (deepest ${deepest})`);
  t.end();
});

t.test("a hold workload agrees with a sorted reference: exponential, zero, constant and far delays, with cancels", (t) => {
  const rng = new Rng("queue-hold");
  const q = new EventQueue();
  const ref = new SortedReference();
  const handles: number[] = [];
  let deepest = 0;
  for (let i = 0; i < 5000; i++) {
    const time = Math.round(rng.exponential(100_000));
    handles.push(q.push(time, 0, 0, i));
    ref.add(time, 0, i, handles[i]);
  }
  let mismatches = 0;
  for (let step = 0; step < 60_000; step++) {
    const want = ref.pop();
    const kind = q.take(Number.MAX_SAFE_INTEGER);
    if (want === undefined || kind < 0 || q.lastTarget !== want.target || q.lastTime !== want.time) mismatches++;
    if (want === undefined) break;
    deepest = Math.max(deepest, q.depth);
    const draw = rng.next();
    const delay =
      draw < 0.6 ? Math.round(rng.exponential(100_000)) : draw < 0.75 ? 0 : draw < 0.9 ? 250 : draw < 0.99 ? Math.round(rng.exponential(10)) : 3_600_000_000;
    const handle = q.push(want.time + delay, draw < 0.8 ? 0 : -1, 0, want.target);
    ref.add(want.time + delay, draw < 0.8 ? 0 : -1, want.target, handle);
    handles[want.target] = handle;
    if (draw > 0.97) {
      const victim = handles[rng.int(0, handles.length - 1)];
      if (q.cancel(victim) !== ref.cancel(victim)) mismatches++;
    }
  }
  t.equal(mismatches, 0, "every pop and cancel agreed");
  t.equal(q.pending, ref.size);
  t.ok(deepest >= 2, `the crowded buckets went to finer rungs (deepest ${deepest})`);
  t.end();
});

t.test("an event at every time across the rungs' boundaries lands in order", (t) => {
  // 200 events crowded into [0, 64) under one far event: rung 0's first bucket is spread, and its
  // first bucket again, and so on. Then an event at every time from the last taken on, so that
  // some fall just before, at and after each rung's next bucket.
  const q = new EventQueue();
  const ref = new SortedReference();
  let target = 0;
  const push = (time: number): void => {
    ref.add(time, 0, target, q.push(time, 0, 0, target));
    target++;
  };
  push(2 ** 30);
  for (let i = 0; i < 200; i++) push((i * 37) % 64);
  let wrong = 0;
  const pop = (): void => {
    const want = ref.pop();
    q.take(Number.MAX_SAFE_INTEGER);
    if (q.lastTarget !== want?.target) wrong++;
  };
  for (let i = 0; i < 60; i++) pop();
  t.ok(q.depth >= 3, `rungs in use: ${q.depth}`);
  for (let time = q.lastTime; time < q.lastTime + 20_000; time++) push(time);
  while (ref.size > 0) pop();
  t.equal(wrong, 0, "every event came out in reference order");
  t.equal(q.take(Number.MAX_SAFE_INTEGER), -1);
  t.end();
});

t.test("renumbering sequences keeps the order (sequence limit lowered to exercise it)", (t) => {
  fc.assert(
    fc.property(fc.array(opArb, { maxLength: 300, size: "max" }), (ops) => {
      const failure = compare(ops, new EventQueue({ initialCapacity: 2, sequenceLimit: 7 }));
      if (failure) throw new Error(failure);
    }),
    { seed: 7, numRuns: 300 },
  );
  t.pass("agrees with the reference while renumbering every few pushes");
  t.end();
});

t.test("ties: equal times run by priority, then in insertion order", (t) => {
  const q = new EventQueue();
  q.push(5, 0, 0, 1);
  q.push(5, -1, 0, 2);
  q.push(5, 0, 0, 3);
  q.push(4, 9, 0, 4);
  q.push(5, -1, 0, 5);
  const order: number[] = [];
  while (q.take(Number.MAX_SAFE_INTEGER) >= 0) order.push(q.lastTarget);
  t.same(order, [4, 2, 5, 1, 3]);
  t.end();
});

t.test("take respects the limit and leaves later events", (t) => {
  const q = new EventQueue();
  q.push(10, 0, 1, 1);
  q.push(20, 0, 2, 2);
  t.equal(q.take(15), 1);
  t.equal(q.lastTime, 10);
  t.equal(q.take(15), -1);
  t.equal(q.pending, 1);
  t.equal(q.peekTime(), 20);
  t.end();
});

t.test("handles die when their event runs or is cancelled, and stay dead after slot reuse", (t) => {
  const q = new EventQueue();
  const a = q.push(1, 0, 0, 1);
  t.ok(q.isPending(a));
  q.take(Number.MAX_SAFE_INTEGER);
  t.notOk(q.isPending(a), "ran");
  const b = q.push(2, 0, 0, 2); // reuses a's slot through the hole
  t.notOk(q.isPending(a), "the old handle does not see the new event");
  t.notOk(q.cancel(a), "nor cancel it");
  t.ok(q.isPending(b));
  t.ok(q.cancel(b));
  t.notOk(q.cancel(b), "a second cancel is false");
  t.equal(q.pending, 0);
  t.equal(q.take(Number.MAX_SAFE_INTEGER), -1);
  for (const bad of [-1, 0.5, Number.NaN, 2 ** 60, Infinity]) t.notOk(q.isPending(bad), `handle ${bad}`);
  t.end();
});

t.test("compaction drops cancelled entries when they dominate, without changing the order", (t) => {
  const q = new EventQueue();
  const handles: number[] = [];
  for (let i = 0; i < 5000; i++) handles.push(q.push(5000 - i, 0, 0, i));
  for (let i = 0; i < 5000; i++) if (i % 5 !== 0) t.equal(q.cancel(handles[i]), true);
  t.equal(q.pending, 1000);
  t.ok(q.bytes > 0);
  let last = -1;
  let count = 0;
  while (q.take(Number.MAX_SAFE_INTEGER) >= 0) {
    t.ok(q.lastTime >= last, "non-decreasing");
    t.equal(q.lastTarget % 5, 0, "only live events come out");
    last = q.lastTime;
    count++;
  }
  t.equal(count, 1000);
  t.end();
});

t.test("grows by doubling from a tiny capacity", (t) => {
  const q = new EventQueue({ initialCapacity: 1 });
  for (let i = 0; i < 3000; i++) q.push((i * 7919) % 1000, 0, 0, i);
  t.equal(q.pending, 3000);
  t.equal(q.bytes, 4096 * 36, "36 bytes per slot; no buckets before the first take");
  let last = -1;
  while (q.take(Number.MAX_SAFE_INTEGER) >= 0) {
    t.ok(q.lastTime >= last);
    last = q.lastTime;
  }
  t.end();
});

t.test("rejects bad options", (t) => {
  t.throws(() => new EventQueue({ initialCapacity: 0 }), { code: "CPSIM_ERR_BAD_PARAM" });
  t.throws(() => new EventQueue({ sequenceLimit: 0 }), { code: "CPSIM_ERR_BAD_PARAM" });
  t.end();
});

t.test("compaction agrees with the reference on large random cancel sets", (t) => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ time: fc.integer({ min: 0, max: 50 }), priority: fc.integer({ min: -1, max: 1 }), cancel: fc.boolean() }), {
        minLength: 2100,
        maxLength: 2600,
      }),
      (events) => {
        const q = new EventQueue();
        const ref = new Reference();
        const handles = events.map((e, i) => {
          const h = q.push(e.time, e.priority, 0, i);
          ref.add(e.time, e.priority, i, h);
          return h;
        });
        // Pop a few first so that a hole is open when the cancels start.
        for (let i = 0; i < 3; i++) {
          q.take(Number.MAX_SAFE_INTEGER);
          if (q.lastTarget !== ref.pop()?.target) throw new Error("early pop disagreed");
        }
        events.forEach((e, i) => {
          if (e.cancel && q.cancel(handles[i]) !== ref.cancel(handles[i])) throw new Error(`cancel ${i} disagreed`);
        });
        for (;;) {
          const want = ref.pop();
          const kind = q.take(Number.MAX_SAFE_INTEGER);
          if (want === undefined) {
            if (kind !== -1) throw new Error("extra events");
            return;
          }
          if (q.lastTarget !== want.target) throw new Error(`target ${q.lastTarget}, want ${want.target}`);
        }
      },
    ),
    { seed: 99, numRuns: 25 },
  );
  t.pass("25 large cancel sets agree");
  t.end();
});
