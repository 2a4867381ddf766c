import t from "tap";
import { RateLimitPacer, defaultPacing } from "./rate-limit-pacer.ts";

t.test("requests side by side all hold back while a window is spent", async (t) => {
  let now = 1_000;
  const pacer = new RateLimitPacer(defaultPacing, () => now);
  pacer.observe("k", '"minute";r=0;t=10');
  const first = pacer.waitBeforeSend("k");
  t.ok(first, "the first caller is told to wait");
  t.equal(pacer.admit("k", first!), undefined);
  // A second caller beside the first, before the reset: it must wait too, not go into the spent window.
  const second = pacer.waitBeforeSend("k");
  t.ok(second, "the caller beside it is told to wait as well");
  t.equal(pacer.admit("k", second!), undefined);
  t.equal(pacer.waitedMs, first!.ms, "overlapping waits count once against the budget");
  now += first!.ms;
  t.equal(pacer.waitBeforeSend("k"), undefined, "after the reset nobody waits");
});

t.test("the budget refuses a wait that would exceed it", async (t) => {
  let now = 0;
  const pacer = new RateLimitPacer({ ...defaultPacing, budgetMs: 15_000 }, () => now);
  pacer.observe("k", '"minute";r=0;t=10');
  const wait = pacer.waitBeforeSend("k")!;
  t.equal(pacer.admit("k", wait), undefined);
  now += wait.ms;
  pacer.observe("k", '"minute";r=0;t=10');
  t.match(pacer.admit("k", pacer.waitBeforeSend("k")!), /budget/);
});
