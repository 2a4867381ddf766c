import t from "tap";
import fc from "fast-check";
import { IdExhaustedError, POD_ID_LENGTH, SHORT_ID_PATTERN, UUID_PATTERN, shortId, uniqueId, uuid } from "./ids.ts";

/** A deterministic stand-in for the engine's Rng: a sequence of floats in [0, 1). */
function source(values: readonly number[]) {
  let i = 0;
  return { next: () => values[i++ % values.length]! };
}

const floats = fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 64 });

t.test("pod ids are 14 lowercase alphanumerics", async () => {
  fc.assert(
    fc.property(floats, (values) => {
      const id = shortId(source(values));
      return id.length === POD_ID_LENGTH && SHORT_ID_PATTERN.test(id);
    }),
  );
});

t.test("uuids are version-4 shaped", async () => {
  fc.assert(fc.property(floats, (values) => UUID_PATTERN.test(uuid(source(values)))));
});

t.test("a generator returning exactly 1 stays inside the alphabet", async (t) => {
  t.equal(shortId({ next: () => 1 }, 3), "999");
  t.match(uuid({ next: () => 1 }), UUID_PATTERN);
});

t.test("the same stream gives the same ids; the draw count per id is fixed", async (t) => {
  const values = Array.from({ length: 100 }, (_, i) => ((i * 7919) % 1000) / 1000);
  const a = source(values);
  const b = source(values);
  t.same([shortId(a), uuid(a), shortId(a)], [shortId(b), uuid(b), shortId(b)]);
  let draws = 0;
  const counting = { next: () => (draws++, 0.5) };
  shortId(counting);
  t.equal(draws, 14);
  uuid(counting);
  t.equal(draws, 14 + 31);
});

t.test("uniqueId retries past taken ids and gives up after a bound", async (t) => {
  const ids = ["a", "b", "c"];
  let i = 0;
  t.equal(uniqueId(() => ids[i++]!, (id) => id !== "c"), "c");
  t.throws(() => uniqueId(() => "x", () => true, 4), IdExhaustedError);
  try {
    uniqueId(() => "x", () => true, 4);
  } catch (e) {
    t.equal((e as IdExhaustedError).code, "CPSIM_ERR_ID_EXHAUSTED");
  }
});
