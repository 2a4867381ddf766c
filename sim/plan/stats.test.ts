import t from "tap";
import { runSeed } from "./run-seed.ts";
import type { LoadedScenario } from "./scenario.ts";
import { erlangC, erlangCMeanWait, erlangCWaitQuantile, estimate, studentTQuantile } from "./stats.ts";
import { LogHistogram } from "./log-histogram.ts";

t.test("Student t quantiles match the tables", async (t) => {
  const table: Array<[number, number]> = [[1, 12.706], [2, 4.303], [4, 2.776], [9, 2.262], [29, 2.045], [120, 1.98]];
  for (const [df, q] of table) t.ok(Math.abs(studentTQuantile(0.975, df) - q) < 0.001, `df ${df}: ${studentTQuantile(0.975, df)} vs ${q}`);
  t.same(estimate([3]), { mean: 3, lo: null, hi: null, n: 1 }, "one seed: no interval");
  const e = estimate([1, 2, 3, 4]);
  t.ok(Math.abs((e.hi as number) - 4.554) < 0.001 && Math.abs((e.lo as number) - 0.446) < 0.001);
  t.equal(estimate([0, 0, 10]).lo, 0, "a non-negative figure gets no negative bound");
});

t.test("Erlang C against known values", async (t) => {
  t.equal(erlangCMeanWait(1, 0.5, 1), 1, "M/M/1 at rho 0.5: Wq = rho/(mu - lambda) = 1");
  t.ok(Math.abs(erlangC(2, 1) - 1 / 3) < 1e-12, "M/M/2 at a = 1: C = 1/3");
  t.equal(erlangCMeanWait(2, 3, 1), Infinity, "unstable");
  // P(Wq > t) = C e^{-(c mu - lambda) t}: at the 1 - C quantile the wait is 0.
  t.equal(erlangCWaitQuantile(2, 1, 1, 0.5), 0);
  t.ok(erlangCWaitQuantile(8, 7.2, 1, 0.99) > erlangCMeanWait(8, 7.2, 1));
});

t.test("log histogram: percentiles within the resolution, never above the max", async (t) => {
  const h = new LogHistogram();
  const values: number[] = [];
  let x = 12345;
  for (let i = 0; i < 20000; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const v = x % 3_000_000_000;
    values.push(v);
    h.record(v);
  }
  values.sort((a, b) => a - b);
  for (const p of [50, 90, 99, 99.9]) {
    const exact = values[Math.ceil((p / 100) * values.length) - 1];
    const got = h.percentiles([p])[0];
    t.ok(Math.abs(got - exact) <= exact / 1000, `p${p}: ${got} vs ${exact}`);
  }
  t.equal(h.percentiles([100])[0], values[values.length - 1], "p100 is the max");
  const one = new LogHistogram();
  one.record(3_000_000);
  t.same(one.percentiles([50, 99]), [3_000_000, 3_000_000], "a single value is exact (clamped to min and max)");
});

t.test("95% intervals cover the Erlang C mean wait of an M/M/2 in about 95% of replications", async (t) => {
  // M/M/2, lambda 1.5/s, mu 1/s (rho 0.75): Wq = 9/7 s. 40 replications of 5 seeds each.
  const loaded: LoadedScenario = {
    label: "mm2",
    traces: {},
    scenario: {
      name: "mm2",
      description: "M/M/2",
      hours: 1.5,
      warmupMinutes: 10,
      outsideDemand: { intensity: 0 },
      endpoints: [{ id: "mm2", gpuTypeIds: ["NVIDIA A100 80GB PCIe"], workersMin: 2, workersMax: 2, coldStartMs: { mean: 0, cv: 0 }, executionMs: { dist: "exponential", mean: 1000 } }],
      jobs: [{ endpoint: "mm2", perSecond: 1.5 }],
    },
  };
  const truth = erlangCMeanWait(2, 1.5, 1);
  const replications = 40;
  let covered = 0;
  let halfWidths = 0;
  for (let r = 0; r < replications; r++) {
    const waits = [0, 1, 2, 3, 4].map((k) => runSeed(loaded, { seed: 1000 + r * 5 + k }).endpoints[0].delayMs.mean / 1000);
    const e = estimate(waits);
    if ((e.lo as number) <= truth && truth <= (e.hi as number)) covered++;
    halfWidths += ((e.hi as number) - (e.lo as number)) / 2;
  }
  // Binomial(40, 0.95): 34 or more in 99% of runs; a wrong interval (say z instead of t, or no interval) fails this.
  t.ok(covered >= 33, `${covered} of ${replications} intervals covered Wq = ${truth.toFixed(4)} s`);
  // And not by being uselessly wide.
  t.ok(halfWidths / replications < 0.5 * truth, `mean half-width ${(halfWidths / replications).toFixed(3)} s`);
});
