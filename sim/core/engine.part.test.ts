import t from "tap";
import fc from "fast-check";
import { Engine } from "./engine.ts";
import type { EventHandle } from "./engine.ts";
import {
  InvalidParameterError,
  SchedulingError,
  StepCapExceededError,
  TimeOverflowError,
} from "./errors.ts";
import { Rng } from "./rng.ts";

t.test("runs events in (time, priority, insertion) order with now set to each event's time", (t) => {
  const engine = new Engine({ seed: 1 });
  const seen: Array<[number, number, number]> = [];
  const a = engine.defineKind("a", (target, now) => {
    t.equal(engine.now, now);
    seen.push([now, 0, target]);
  });
  const b = engine.defineKind("b", (target, now) => seen.push([now, 1, target]));
  engine.at(30, a, 1);
  engine.at(10, b, 2);
  engine.at(10, a, 3, -5);
  engine.at(10, a, 4);
  engine.after(10, b, 5);
  engine.at(20, a, 6, 3);
  engine.at(20, a, 7, -3);
  t.equal(engine.pending, 7);
  t.equal(engine.nextTime(), 10);
  t.equal(engine.runUntil(100), 7);
  t.same(seen, [
    [10, 0, 3],
    [10, 1, 2],
    [10, 0, 4],
    [10, 1, 5],
    [20, 0, 7],
    [20, 0, 6],
    [30, 0, 1],
  ]);
  t.equal(engine.now, 100, "now moves to the limit");
  t.equal(engine.steps, 7);
  t.equal(engine.log.count, 7);
  t.equal(engine.nextTime(), undefined);
  t.end();
});

t.test("runUntil runs events at the limit, leaves later ones, and runFor is relative", (t) => {
  const engine = new Engine({ seed: 1, startTime: 1000 });
  const ran: number[] = [];
  const k = engine.defineKind("k", (target) => ran.push(target));
  engine.after(0, k, 0);
  engine.after(500, k, 1);
  engine.after(501, k, 2);
  t.equal(engine.runUntil(1500), 2);
  t.same(ran, [0, 1]);
  t.equal(engine.pending, 1);
  t.equal(engine.runFor(0), 0);
  t.equal(engine.runFor(1), 1);
  t.equal(engine.now, 1501);
  t.equal(engine.step(), false, "step on an empty queue");
  t.throws(() => engine.runUntil(1000), SchedulingError, "running until the past");
  t.end();
});

t.test("handlers schedule, including at now, and cancel during dispatch", (t) => {
  const engine = new Engine({ seed: 1 });
  const ran: string[] = [];
  let victim: EventHandle = 0;
  let self: EventHandle = 0;
  const chain = engine.defineKind("chain", (target, now) => {
    ran.push(`chain${target}@${now}`);
    t.notOk(engine.isPending(self), "the running event is no longer pending");
    t.notOk(engine.cancel(self), "and cannot be cancelled");
    if (target < 3) engine.after(target === 0 ? 0 : 5, chain, target + 1);
    if (target === 1) t.ok(engine.cancel(victim), "cancels a pending event");
  });
  const other = engine.defineKind("other", (target) => ran.push(`other${target}`));
  self = engine.at(0, chain, 0);
  victim = engine.at(7, other, 9);
  engine.at(7, other, 10);
  engine.runUntil(1000);
  t.same(ran, ["chain0@0", "chain1@0", "chain2@5", "other10", "chain3@10"]);
  t.notOk(engine.isPending(victim));
  t.end();
});

t.test("the step cap stops a model that never quiesces", (t) => {
  const engine = new Engine({ seed: 1, stepCap: 10 });
  const tick = engine.defineKind("tick", (target) => engine.after(1, tick, target));
  engine.at(0, tick, 0);
  try {
    engine.runUntil(1_000_000);
    t.fail("should throw");
  } catch (e) {
    t.ok(e instanceof StepCapExceededError);
    t.match(e, { code: "CPSIM_ERR_STEP_CAP", steps: 10, cap: 10, now: 9 });
  }
  t.equal(engine.steps, 10);
  t.throws(() => engine.step(), StepCapExceededError, "step() too");
  const quiet = new Engine({ seed: 1, stepCap: 2 });
  const k = quiet.defineKind("k", () => {});
  quiet.at(1, k, 0);
  quiet.at(2, k, 0);
  t.equal(quiet.runUntil(10), 2, "exactly the cap is fine");
  t.equal(quiet.runUntil(20), 0, "and an empty queue at the cap is not an error");
  t.end();
});

t.test("times must be non-negative safe integers, and not in the past", (t) => {
  const engine = new Engine({ seed: 1, startTime: 100 });
  const k = engine.defineKind("k", () => {});
  t.throws(() => engine.at(2 ** 53, k, 0), TimeOverflowError);
  t.throws(() => engine.at(100.5, k, 0), TimeOverflowError);
  t.throws(() => engine.at(Number.NaN, k, 0), TimeOverflowError);
  t.throws(() => engine.after(Number.MAX_SAFE_INTEGER, k, 0), TimeOverflowError, "now + delay overflows");
  t.throws(() => engine.after(0.5, k, 0), TimeOverflowError);
  t.throws(() => engine.runUntil(2 ** 53), TimeOverflowError);
  t.throws(() => engine.runFor(Number.MAX_SAFE_INTEGER), TimeOverflowError);
  t.throws(() => new Engine({ seed: 1, startTime: -1 }), TimeOverflowError);
  for (const [label, f] of [
    ["at before now", () => engine.at(99, k, 0)],
    ["at a negative time", () => engine.at(-1, k, 0)],
    ["after a negative delay", () => engine.after(-1, k, 0)],
  ] as const) {
    try {
      f();
      t.fail(`${label} should throw`);
    } catch (e) {
      t.ok(e instanceof SchedulingError, label);
      t.match(e, { code: "CPSIM_ERR_SCHEDULE", reason: "past", evidence: { now: 100 } }, label);
    }
  }
  t.equal(engine.pending, 0, "nothing was scheduled");
  t.end();
});

t.test("kinds, targets and priorities are validated", (t) => {
  const engine = new Engine({ seed: 1 });
  const k = engine.defineKind("k", () => {});
  t.equal(engine.kindName(k), "k");
  t.throws(() => engine.kindName(5), { name: "SchedulingError", reason: "unknown-kind" });
  t.throws(() => engine.defineKind("k", () => {}), { name: "SchedulingError", reason: "duplicate-kind" });
  t.throws(() => engine.defineKind("", () => {}), InvalidParameterError);
  t.throws(() => engine.at(1, 7, 0), { name: "SchedulingError", reason: "unknown-kind" });
  t.throws(() => engine.at(1, -1, 0), { name: "SchedulingError", reason: "unknown-kind" });
  t.throws(() => engine.at(1, 0.5, 0), { name: "SchedulingError", reason: "unknown-kind" });
  t.throws(() => engine.at(1, k, 2 ** 31), InvalidParameterError, "target beyond int32");
  t.throws(() => engine.at(1, k, 1.5), InvalidParameterError);
  t.throws(() => engine.at(1, k, 0, 2 ** 21), InvalidParameterError, "priority beyond 2^20");
  t.throws(() => engine.at(1, k, 0, 0.5), InvalidParameterError);
  t.ok(engine.isPending(engine.at(1, k, -(2 ** 31), -(2 ** 20))), "extremes are fine");
  t.throws(() => new Engine({ seed: 1, stepCap: -1 }), InvalidParameterError);
  t.end();
});

t.test("running from inside a handler is refused, and a throwing handler leaves the engine usable", (t) => {
  const engine = new Engine({ seed: 1 });
  const nested = engine.defineKind("nested", () => {
    t.throws(() => engine.step(), { name: "SchedulingError", reason: "reentrant" });
    t.throws(() => engine.runUntil(engine.now), { name: "SchedulingError", reason: "reentrant" });
  });
  const boom = engine.defineKind("boom", () => {
    throw new Error("model bug");
  });
  const fine = engine.defineKind("fine", () => {});
  engine.at(1, nested, 0);
  engine.at(2, boom, 0);
  engine.at(3, fine, 0);
  t.throws(() => engine.runUntil(10), /model bug/);
  t.equal(engine.now, 2);
  t.equal(engine.runUntil(10), 1, "the rest still runs");
  t.end();
});

/** A naive reference scheduler: an array searched for the earliest (time, priority, sequence). */
class ReferenceScheduler {
  now = 0;
  private events: Array<{ time: number; priority: number; seq: number; kind: number; target: number; id: number }> = [];
  private seq = 0;
  after(delay: number, kind: number, target: number, priority: number): number {
    const id = this.seq++;
    this.events.push({ time: this.now + delay, priority, seq: id, kind, target, id });
    return id;
  }
  cancel(id: number): boolean {
    const i = this.events.findIndex((e) => e.id === id);
    if (i >= 0) this.events.splice(i, 1);
    return i >= 0;
  }
  runUntil(limit: number, handle: (kind: number, target: number) => void): void {
    for (;;) {
      let best = -1;
      this.events.forEach((e, i) => {
        const b = this.events[best];
        if (best < 0 || e.time < b.time || (e.time === b.time && (e.priority < b.priority || (e.priority === b.priority && e.seq < b.seq)))) best = i;
      });
      if (best < 0 || this.events[best].time > limit) break;
      const [e] = this.events.splice(best, 1);
      this.now = e.time;
      handle(e.kind, e.target);
    }
    this.now = limit;
  }
}

/**
 * The same random model on the engine and on the reference: each event schedules 0-2 successors
 * (random delay, kind, priority) and sometimes cancels a random earlier event. Both drive the
 * model from the same seeded stream, so any ordering difference shows as a different trace.
 */
function traceOf(seed: number, limits: number[], useEngine: boolean): string[] {
  const rng = new Rng(seed, "script");
  const trace: string[] = [];
  const ids: number[] = [];
  let nextTarget = 100;
  const act = (now: number, kind: number, target: number, after: (d: number, k: number, tg: number, p: number) => number, cancel: (id: number) => boolean): void => {
    trace.push(`${now}:${kind}:${target}`);
    const n = rng.int(0, 2);
    for (let i = 0; i < n; i++) ids.push(after(rng.int(0, 6), rng.int(0, 1), nextTarget++, rng.int(-1, 1)));
    if (ids.length > 0 && rng.bernoulli(0.3)) trace.push(`cancel:${cancel(ids[rng.int(0, ids.length - 1)])}`);
  };
  if (useEngine) {
    const engine = new Engine({ seed });
    const kinds: number[] = [];
    const handler = (kind: number) => (target: number, now: number): void =>
      act(now, kind, target, (d, k, tg, p) => engine.after(d, kinds[k], tg, p), (id) => engine.cancel(id));
    kinds.push(engine.defineKind("k0", handler(0)), engine.defineKind("k1", handler(1)));
    for (let i = 0; i < 5; i++) ids.push(engine.after(i % 3, kinds[i % 2], i, 0));
    for (const limit of limits) engine.runUntil(Math.max(engine.now, limit));
  } else {
    const ref = new ReferenceScheduler();
    for (let i = 0; i < 5; i++) ids.push(ref.after(i % 3, i % 2, i, 0));
    for (const limit of limits) {
      ref.runUntil(Math.max(ref.now, limit), (kind, target) =>
        act(ref.now, kind, target, (d, k, tg, p) => ref.after(d, k, tg, p), (id) => ref.cancel(id)),
      );
    }
  }
  return trace;
}

t.test("the engine matches a naive reference scheduler on random self-scheduling models", (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 6 }), (seed, raw) => {
      const limits = [...raw].sort((a, b) => a - b);
      const want = traceOf(seed, limits, false);
      const got = traceOf(seed, limits, true);
      if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`seed ${seed}: traces differ`);
    }),
    { seed: 4242, numRuns: 200 },
  );
  t.pass("200 random models agree");
  t.end();
});
