/**
 * BoundedMap forgets its oldest entries beyond its capacity, through any mix of new keys, keys
 * set again (which makes them the newest) and deletions, and however many times its entries turn
 * over: it keeps one walk over its keys between evictions, which must always find the oldest.
 */
import t from "tap";
import { BoundedMap } from "./bounded-map.ts";

t.test("a bounded map keeps the newest entries, in order, like a reference model", async (t) => {
  const capacity = 50;
  const map = new BoundedMap<string, number>(capacity);
  let model: string[] = [];
  let seed = 12345;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < 20_000; i++) {
    const r = random(10);
    if (r < 6) {
      const key = `job-${i}`;
      map.set(key, i);
      model.push(key);
    } else if (r < 9 && model.length > 0) {
      const key = model[random(model.length)];
      map.set(key, i);
      model = [...model.filter((k) => k !== key), key];
    } else if (model.length > 0) {
      const key = model[random(model.length)];
      map.delete(key);
      model = model.filter((k) => k !== key);
    }
    if (model.length > capacity) model = model.slice(model.length - capacity);
    if (i % 997 === 0 || i === 19_999) t.same([...map.keys()], model, `after step ${i}`);
  }
  t.equal(map.size, capacity);
  map.clear();
  map.set("a", 1);
  t.same([...map.keys()], ["a"], "cleared, then used again");
  for (let i = 0; i < capacity + 5; i++) map.set(`k${i}`, i);
  t.same([...map.keys()], Array.from({ length: capacity }, (_, i) => `k${i + 5}`), "the oldest forgotten after a clear");
});
