import t from "tap";
import seedrandom from "seedrandom";
import { InvalidParameterError } from "./errors.ts";
import { Rng } from "./rng.ts";

function draws(rng: Rng, n: number): number[] {
  return Array.from({ length: n }, () => rng.next());
}

t.test("the root stream is exactly seedrandom's alea for the seed", (t) => {
  for (const seed of ["cpsim", "", "42", "a longer seed with spaces"]) {
    const reference = seedrandom.alea(seed);
    t.same(draws(new Rng(seed), 1000), Array.from({ length: 1000 }, () => reference()), `seed ${JSON.stringify(seed)}`);
  }
  t.same(draws(new Rng(42), 10), draws(new Rng("42"), 10), "a number seed is its decimal string");
  t.equal(new Rng(42).seed, "42");
  t.end();
});

t.test("same seed, same draws; different seeds, different draws", (t) => {
  t.same(draws(new Rng("s"), 100), draws(new Rng("s"), 100));
  t.notSame(draws(new Rng("s"), 100), draws(new Rng("t"), 100));
  t.end();
});

t.test("forks are independent streams named by their label path", (t) => {
  const root = new Rng("seed");
  const a = root.fork("a");
  t.equal(a.label, "a");
  t.equal(a.fork("b").label, "a/b");
  t.same(draws(root.fork("a").fork("b"), 50), draws(new Rng("seed", "a/b"), 50), "a path is a path");
  t.notSame(draws(root.fork("a"), 50), draws(root.fork("b"), 50));
  t.notSame(draws(root.fork("a"), 50), draws(new Rng("seed"), 50), "a fork is not its parent");
  t.notSame(draws(new Rng("other").fork("a"), 50), draws(root.fork("a"), 50), "forks depend on the seed");
  t.end();
});

t.test("forking a new label never changes existing streams' draws", (t) => {
  // World 1: streams a and b only.
  const root1 = new Rng("world");
  const a1 = root1.fork("a");
  const b1 = root1.fork("b");
  const seq1 = [...draws(a1, 20), ...draws(b1, 20), ...draws(root1, 20)];
  // World 2: a new entity's stream is forked first and drawn from in between.
  const root2 = new Rng("world");
  const extra = root2.fork("new-entity");
  draws(extra, 7);
  const a2 = root2.fork("a");
  draws(root2.fork("another"), 3);
  const b2 = root2.fork("b");
  const seq2 = [...draws(a2, 20), ...draws(b2, 20), ...draws(root2, 20)];
  t.same(seq2, seq1);
  // Forking does not draw from the parent either.
  const p = new Rng("p");
  const before = new Rng("p");
  p.fork("x");
  p.fork("y");
  t.same(draws(p, 10), draws(before, 10));
  t.end();
});

t.test("labels and seeds are validated", (t) => {
  const root = new Rng(1);
  for (const bad of ["", "a/b", "nul\u0000"]) t.throws(() => root.fork(bad), InvalidParameterError, JSON.stringify(bad));
  t.throws(() => new Rng("s", "a//b"), InvalidParameterError);
  t.throws(() => new Rng(Number.NaN), InvalidParameterError);
  t.throws(() => new Rng({} as unknown as string), InvalidParameterError);
  t.end();
});

t.test("int is inclusive and stays in range, including wide spans", (t) => {
  const rng = new Rng("int");
  const seen = new Set<number>();
  for (let i = 0; i < 2000; i++) {
    const x = rng.int(-2, 2);
    t.ok(Number.isInteger(x) && x >= -2 && x <= 2, "in range") || t.bailout();
    seen.add(x);
  }
  t.same([...seen].sort((a, b) => a - b), [-2, -1, 0, 1, 2], "both ends are drawn");
  t.equal(rng.int(7, 7), 7);
  for (let i = 0; i < 1000; i++) {
    const x = rng.int(0, 2 ** 40);
    if (!(Number.isInteger(x) && x >= 0 && x <= 2 ** 40)) t.fail(`wide span gave ${x}`);
  }
  t.end();
});

t.test("hex gives n lowercase hex characters", (t) => {
  const rng = new Rng("hex");
  for (const n of [0, 1, 7, 8, 9, 32]) t.match(rng.hex(n), new RegExp(`^[0-9a-f]{${n}}$`), `n=${n}`);
  t.not(rng.hex(16), rng.hex(16));
  t.same(new Rng("hex").hex(20), new Rng("hex").hex(20));
  t.throws(() => rng.hex(-1), InvalidParameterError);
  t.throws(() => rng.hex(1.5), InvalidParameterError);
  t.end();
});

t.test("pick and weightedChoice choose members; zero weights are never chosen", (t) => {
  const rng = new Rng("choice");
  const items = ["a", "b", "c", "d"] as const;
  for (let i = 0; i < 2000; i++) {
    t.ok(items.includes(rng.pick(items))) || t.bailout();
    const w = rng.weightedChoice(items, [0, 1, 0, 3]);
    if (w === "a" || w === "c") t.fail(`zero-weight item ${w} chosen`);
  }
  t.equal(rng.weightedChoice(["only"], [5]), "only");
  t.end();
});

t.test("every distribution validates its parameters", (t) => {
  const rng = new Rng("params");
  const bad: Array<[string, () => unknown]> = [
    ["int non-integer", () => rng.int(0.5, 2)],
    ["int max < min", () => rng.int(3, 2)],
    ["int unsafe", () => rng.int(0, 2 ** 53)],
    ["uniform NaN", () => rng.uniform(Number.NaN, 1)],
    ["uniform max < min", () => rng.uniform(2, 1)],
    ["uniform infinite", () => rng.uniform(0, Infinity)],
    ["bernoulli > 1", () => rng.bernoulli(1.5)],
    ["bernoulli NaN", () => rng.bernoulli(Number.NaN)],
    ["exponential 0", () => rng.exponential(0)],
    ["exponential negative", () => rng.exponential(-1)],
    ["exponential infinite", () => rng.exponential(Infinity)],
    ["normal sd < 0", () => rng.normal(0, -1)],
    ["normal mean NaN", () => rng.normal(Number.NaN, 1)],
    ["lognormal sigma < 0", () => rng.lognormal(0, -0.1)],
    ["lognormal mu infinite", () => rng.lognormal(Infinity, 1)],
    ["lognormalMeanCv mean 0", () => rng.lognormalMeanCv(0, 1)],
    ["lognormalMeanCv cv < 0", () => rng.lognormalMeanCv(1, -1)],
    ["poisson < 0", () => rng.poisson(-1)],
    ["poisson NaN", () => rng.poisson(Number.NaN)],
    ["weightedChoice empty", () => rng.weightedChoice([], [])],
    ["weightedChoice lengths", () => rng.weightedChoice([1, 2], [1])],
    ["weightedChoice negative", () => rng.weightedChoice([1, 2], [1, -1])],
    ["weightedChoice zero sum", () => rng.weightedChoice([1, 2], [0, 0])],
    ["weightedChoice NaN", () => rng.weightedChoice([1, 2], [1, Number.NaN])],
    ["pick empty", () => rng.pick([])],
  ];
  for (const [name, f] of bad) {
    t.throws(f, { name: "InvalidParameterError", code: "CPSIM_ERR_BAD_PARAM" }, name);
  }
  t.equal(rng.poisson(0), 0, "poisson(0) is 0");
  t.equal(rng.normal(3, 0), 3, "sd 0 is the mean");
  t.end();
});
