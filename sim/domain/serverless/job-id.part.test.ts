import t from "tap";
import fc from "fast-check";
import { formatJobId, formatWorkerId, parseJobId } from "./job-id.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

t.test("ids round-trip and look like v4 UUIDs", async () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0x7fffffff }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer(), (slot, seq, salt) => {
      const id = formatJobId(slot, seq, salt);
      const back = parseJobId(id, salt);
      return UUID.test(id) && back !== undefined && back.slot === slot && back.seq === seq;
    }),
    { numRuns: 3000 },
  );
});

t.test("foreign and corrupted ids do not decode", async (t) => {
  const id = formatJobId(5, 12345, 77);
  t.equal(parseJobId(id, 78), undefined, "another salt");
  t.equal(parseJobId(id.slice(0, 35) + (id[35] === "0" ? "1" : "0"), 77), undefined, "one digit changed");
  t.equal(parseJobId("not-an-id", 77), undefined);
  t.equal(parseJobId(42, 77), undefined);
  t.equal(parseJobId("00000000-0000-4000-8000-000000000000", 77), undefined);
});

t.test("worker ids are 14 lowercase alphanumerics and distinct", async (t) => {
  const seen = new Set<string>();
  const bad: string[] = [];
  for (let i = 0; i < 5000; i++) {
    const w = formatWorkerId(i, 99);
    if (!/^[a-z0-9]{14}$/.test(w)) bad.push(w);
    seen.add(w);
  }
  t.same(bad, []);
  t.equal(seen.size, 5000);
});
