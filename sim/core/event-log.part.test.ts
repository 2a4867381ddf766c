import t from "tap";
import { EventLog, firstDivergence } from "./event-log.ts";

function logOf(events: Array<[number, number, number]>, historyLimit?: number): EventLog {
  const log = new EventLog({ historyLimit });
  for (const [time, kind, target] of events) log.record(time, kind, target);
  return log;
}

const base: Array<[number, number, number]> = Array.from({ length: 200 }, (_, i) => [i * 1000, i % 3, i % 17]);

t.test("hash is 16 lowercase hex characters and deterministic", (t) => {
  const a = logOf(base);
  const b = logOf(base);
  t.match(a.hash(), /^[0-9a-f]{16}$/);
  t.equal(a.hash(), b.hash());
  t.equal(a.count, 200);
  t.not(new EventLog().hash(), a.hash());
  t.end();
});

t.test("every field of an event changes the hash, including large times", (t) => {
  const ref = logOf([[5, 1, 2]]).hash();
  t.not(logOf([[6, 1, 2]]).hash(), ref, "time");
  t.not(logOf([[5, 2, 2]]).hash(), ref, "kind");
  t.not(logOf([[5, 1, 3]]).hash(), ref, "target");
  t.not(logOf([[5, 1, -2]]).hash(), ref, "negative target");
  t.not(logOf([[5 + 2 ** 32, 1, 2]]).hash(), ref, "high bits of time");
  t.not(logOf([[5 + 2 ** 50, 1, 2]]).hash(), logOf([[5 + 2 ** 49, 1, 2]]).hash(), "very high bits of time");
  t.not(logOf([[1, 0, 0], [2, 0, 0]]).hash(), logOf([[2, 0, 0], [1, 0, 0]]).hash(), "order");
  t.end();
});

t.test("note() mixes integers in; non-integers are refused", (t) => {
  const a = logOf(base);
  const b = logOf(base);
  a.note(42);
  t.not(a.hash(), b.hash());
  b.note(42);
  t.equal(a.hash(), b.hash());
  const c = logOf(base);
  c.note(-42);
  t.not(c.hash(), a.hash());
  t.throws(() => a.note(1.5), { code: "CPSIM_ERR_BAD_PARAM" });
  t.throws(() => a.note(Number.NaN), { code: "CPSIM_ERR_BAD_PARAM" });
  t.end();
});

t.test("hashAt(n) is the hash after the first n events", (t) => {
  const full = logOf(base);
  for (const n of [0, 1, 57, 199, 200]) t.equal(full.hashAt(n), logOf(base.slice(0, n)).hash(), `n=${n}`);
  t.throws(() => full.hashAt(201), RangeError);
  t.throws(() => full.hashAt(-1), RangeError);
  t.throws(() => full.hashAt(1.5), RangeError);
  t.end();
});

t.test("history limit: only the first n points are kept, and 0 keeps none", (t) => {
  const limited = logOf(base, 50);
  t.equal(limited.hashAt(49), logOf(base.slice(0, 49)).hash());
  t.throws(() => limited.hashAt(50), RangeError);
  t.equal(limited.hashAt(200), limited.hash(), "the current hash is always available");
  const none = logOf(base, 0);
  t.throws(() => none.hashAt(0), RangeError);
  t.equal(none.hash(), logOf(base).hash(), "the limit does not change the hash");
  t.throws(() => new EventLog({ historyLimit: -1 }), { code: "CPSIM_ERR_BAD_PARAM" });
  t.end();
});

t.test("firstDivergence finds the first differing event", (t) => {
  t.equal(firstDivergence(logOf(base), logOf(base)), undefined, "identical");
  for (const k of [0, 1, 99, 199]) {
    const changed = base.map((e, i): [number, number, number] => (i === k ? [e[0], e[1], e[2] + 1] : e));
    t.equal(firstDivergence(logOf(base), logOf(changed)), k + 1, `event ${k + 1} differs`);
  }
  t.equal(firstDivergence(logOf(base), logOf(base.slice(0, 120))), 121, "a prefix ends at 120");
  t.equal(firstDivergence(logOf(base.slice(0, 120)), logOf(base)), 121, "symmetric");
  const noted = logOf(base.slice(0, 80));
  noted.note(1);
  for (const e of base.slice(80)) noted.record(...e);
  t.equal(firstDivergence(logOf(base), noted), 80, "a note counts with the event it follows");
  t.end();
});

t.test("firstDivergence beyond the retained history is a RangeError", (t) => {
  const changed = base.map((e, i): [number, number, number] => (i === 150 ? [e[0] + 1, e[1], e[2]] : e));
  t.equal(firstDivergence(logOf(base, 300), logOf(changed, 300)), 151);
  t.throws(() => firstDivergence(logOf(base, 100), logOf(changed, 100)), RangeError);
  t.throws(() => firstDivergence(logOf(base, 0), logOf(changed, 0)), RangeError);
  t.end();
});
