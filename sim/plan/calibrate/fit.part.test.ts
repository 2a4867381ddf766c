import t from "tap";
import { Rng } from "../../core/index.ts";
import { drawMs, meanMs, planHandler } from "../plan-handler.ts";
import { parseScenario, type Distribution } from "../scenario.ts";
import { fitRunTimes } from "./calibrate.ts";
import { fitFamilies, ksPValue } from "./distributions.ts";
import { discipline, idleTimeoutSeen } from "./observe.ts";
import type { HealthSample, JobMeasurement } from "./measurement.ts";
import { interval95, mean, poissonRateInterval, resamples } from "./sample-stats.ts";
import { fitUsl, uslLevels, uslThroughput } from "./usl.ts";
import { roundOrder } from "../../../load/interleaved-rounds.ts";

function sample(d: Distribution, n: number, seed: number): number[] {
  const rng = new Rng(seed, "fit-test");
  return Array.from({ length: n }, () => drawMs(d, rng.next(), rng.next()));
}

t.test("maximum likelihood recovers each family's parameters, and that family fits best", async (t) => {
  const cases: Array<[Distribution, (d: Distribution) => number[]]> = [
    [{ dist: "exponential", mean: 300 }, (d) => [(d as { mean: number }).mean]],
    [{ dist: "lognormal", mean: 200, cv: 0.8 }, (d) => [(d as { mean: number }).mean, (d as { cv: number }).cv]],
    [{ dist: "gamma", mean: 150, cv: 0.5 }, (d) => [(d as { mean: number }).mean, (d as { cv: number }).cv]],
    [{ dist: "weibull", shape: 2.5, scale: 400 }, (d) => [(d as { shape: number }).shape, (d as { scale: number }).scale]],
  ];
  for (const [truth, params] of cases) {
    const xs = sample(truth, 4000, 7);
    const fits = fitFamilies(xs);
    const own = fits.find((f) => f.dist.dist === truth.dist)!;
    const want = params(truth);
    params(own.dist).forEach((v, i) => t.ok(Math.abs(v - want[i]) / want[i] < 0.08, `${truth.dist} parameter ${i}: ${v} near ${want[i]}`));
    t.ok(own.ksP > 0.01, `${truth.dist}: the true family passes KS (p ${own.ksP})`);
    if (truth.dist !== "exponential") t.equal(fits[0].family, truth.dist, `${truth.dist} has the lowest AIC`);
  }
});

t.test("two well-separated modes fit no family: the empirical distribution is written", async (t) => {
  const xs = [...sample({ dist: "lognormal", mean: 50, cv: 0.1 }, 1500, 1), ...sample({ dist: "lognormal", mean: 500, cv: 0.1 }, 1500, 2)];
  const f = fitRunTimes("op", xs, 1, 20);
  t.equal(f.chosen, "empirical");
  t.equal(f.dist.dist, "empirical");
  t.ok(Math.abs(meanMs(f.dist) - mean(xs)) / mean(xs) < 0.02, "its mean is the sample's");
  t.ok(f.meanInterval[0] < mean(xs) && mean(xs) < f.meanInterval[1], "the bootstrap interval holds the sample mean");
});

t.test("the planner draws gamma, weibull and empirical run times with their means; scenarios accept them", async (t) => {
  const dists: Distribution[] = [
    { dist: "gamma", mean: 120, cv: 0.7 },
    { dist: "gamma", mean: 120, cv: 2 },
    { dist: "weibull", shape: 1.5, scale: 100 },
    { dist: "empirical", quantiles: [10, 20, 40, 80] },
  ];
  for (const d of dists) {
    const h = planHandler("x", d, 0);
    const xs = Array.from({ length: 20000 }, (_, i) => {
      const p = h.plan({}, { seed: (i * 2654435761) >>> 0 } as never);
      return p.durationMs;
    });
    t.ok(Math.abs(mean(xs) - meanMs(d)) / meanMs(d) < 0.05, `${d.dist}: mean ${mean(xs)} near ${meanMs(d)}`);
    t.doesNotThrow(() => parseScenario({ name: "x", description: "", hours: 1, endpoints: [{ id: "e", gpuTypeIds: ["NVIDIA A100 80GB PCIe"], executionMs: d }] }, "test"));
  }
});

t.test("bootstrap and rate intervals: seeded and covering", async (t) => {
  const xs = sample({ dist: "exponential", mean: 100 }, 500, 3);
  const a = resamples(xs, 100, 9, "l").map(mean);
  const b = resamples(xs, 100, 9, "l").map(mean);
  t.same(a, b, "the same seed gives the same resamples");
  const [lo, hi] = interval95(a);
  t.ok(lo < mean(xs) && mean(xs) < hi);
  const [rlo, rhi] = poissonRateInterval(100, 10);
  t.ok(rlo < 10 && 10 < rhi && rlo > 7.5 && rhi < 12.5, `${rlo}..${rhi}`);
  t.ok(ksPValue(0.001, 100) > 0.99 && ksPValue(0.3, 100) < 0.001);
});

t.test("FIFO is told from overtaking", async (t) => {
  const fifo = Array.from({ length: 100 }, (_, i) => ({ op: "x", status: "COMPLETED", submitMs: i * 10, delayMs: 5, executionMs: 1 }));
  t.equal(discipline(fifo).kind, "FIFO");
  const lifo = fifo.map((j, i) => ({ ...j, delayMs: i % 2 === 0 ? 200 : 0 }));
  t.equal(discipline(lifo).kind, "not FIFO");
});

t.test("the USL fit recovers known parameters and the peak", async (t) => {
  const truth = { lambda: 1000, sigma: 0.05, kappa: 0.002 };
  const pts = [1, 2, 4, 8, 16, 32].map((n, i) => ({ concurrency: n, throughput: uslThroughput(truth, n) * (1 + (i % 2 === 0 ? 0.01 : -0.01)) }));
  const f = fitUsl(pts);
  t.ok(Math.abs(f.lambda - 1000) / 1000 < 0.05, `λ ${f.lambda}`);
  const peakN = Math.sqrt((1 - truth.sigma) / truth.kappa);
  t.ok(Math.abs(f.peakConcurrency - peakN) / peakN < 0.15, `peak at ${f.peakConcurrency}, truth ${peakN}`);
  t.ok(Math.abs(f.peakThroughput - uslThroughput(truth, peakN)) / uslThroughput(truth, peakN) < 0.05);
  t.equal(f.points.length, 6);
  t.ok(f.relativeRmse < 0.03);
  t.throws(() => fitUsl(pts.slice(0, 2)), /3 or more/);
  const linear = fitUsl([1, 2, 4, 8].map((n) => ({ concurrency: n, throughput: 100 * n })));
  t.equal(linear.kappa, 0);
  t.equal(linear.peakConcurrency, Number.POSITIVE_INFINITY);
});

t.test("rounds of a sweep: each count's median, its spread, and a fit on medians weighted by spread", async (t) => {
  const truth = { lambda: 100, sigma: 0.03, kappa: 0.004 };
  // Five rounds per count; in one round per count another process took half the machine.
  const rounds = [1, 2, 4, 8, 16].flatMap((n) => [1.01, 0.99, 1.0, 0.45, 1.02].map((f, r) => ({ concurrency: n, throughput: uslThroughput(truth, n) * (r === (n % 5) ? 0.45 : f === 0.45 ? 1.0 : f) })));
  const levels = uslLevels(rounds);
  t.same(levels.map((l) => [l.concurrency, l.n]), [[1, 5], [2, 5], [4, 5], [8, 5], [16, 5]]);
  for (const l of levels) {
    const x = uslThroughput(truth, l.concurrency);
    t.ok(Math.abs(l.throughput - x) / x < 0.015, `c${l.concurrency}: the median ${l.throughput} shrugs off the disturbed round (truth ${x.toFixed(1)})`);
    t.ok(l.min < 0.5 * x && l.max > x, "min and max keep the disturbed round");
  }
  const f = fitUsl(rounds.filter((p) => p.concurrency <= 8));
  const x16 = uslThroughput(truth, 16);
  t.ok(Math.abs(uslThroughput(f, 16) - x16) / x16 < 0.05, `USL(16) ${uslThroughput(f, 16).toFixed(1)} from the medians at 1..8, truth ${x16.toFixed(1)}`);
  t.same(f.points.map((p) => p.n), [5, 5, 5, 5]);
  // A count measured with a wide spread weighs less than the tight ones.
  const wide = [1, 2, 4, 8].flatMap((n) => (n === 4 ? [1.6, 1.2, 0.7, 1.3, 0.9] : [1.01, 0.99, 1, 1.005, 0.995]).map((k) => ({ concurrency: n, throughput: uslThroughput(truth, n) * k })));
  const fw = fitUsl(wide);
  const wideLevel = fw.points.find((p) => p.concurrency === 4)!;
  t.ok(wideLevel.relSpread > 0.2, `the wide count's spread ${wideLevel.relSpread}`);
  for (const n of [1, 2, 8]) t.ok(Math.abs(uslThroughput(fw, n) - uslThroughput(truth, n)) / uslThroughput(truth, n) < 0.02, `c${n} fitted near its tight median despite c4's median 20% high`);
});

t.test("the idle timeout from the stops after the last scale-up: a stack of idle workers, sampled every 100 ms", async (t) => {
  // Three workers; the last jobs end at 1.0 s (worker c), 0.6 s (b) and 0.2 s (a); each stops 2.5 s idle, down to 1.
  const T = 2500;
  const at = (ms: number): HealthSample => {
    const idleSince = [200, 600, 1000];
    const up = idleSince.filter((s, i) => i === 2 || ms < s + T).length;
    const running = idleSince.filter((s) => ms < s).length;
    return { tMs: ms, idle: up - running, running, initializing: 0, throttled: 0, inQueue: 0, inProgress: running };
  };
  const health = [{ tMs: -100, idle: 0, running: 2, initializing: 0, throttled: 0, inQueue: 1, inProgress: 2 }, ...Array.from({ length: 12 }, (_, i) => at(i * 100))];
  const idle = Array.from({ length: 40 }, (_, i) => at(1200 + i * 100));
  const m = { health, idle } as unknown as JobMeasurement;
  const seen = idleTimeoutSeen(m);
  t.equal(seen.stops, 2);
  t.equal(seen.floor, 1);
  t.equal(seen.estimatesMs.length, 2, "both stops timed");
  t.ok(Math.abs((seen.valueMs as number) - T) <= 100, `idle timeout ${seen.valueMs} ms, truth ${T}`);
  const [lo, hi] = seen.intervalMs!;
  t.ok(lo <= T && T <= hi && hi - lo <= 400, `interval ${lo}..${hi} holds ${T} within the sampling gaps`);
  t.same(idleTimeoutSeen({ health: health.slice(0, 3), idle: [] } as unknown as JobMeasurement).estimatesMs, [], "no stop, no estimate");
});

t.test("the rounds rotate the order: each count takes each place once over as many rounds as counts", async (t) => {
  const counts = [1, 2, 4, 8, 16];
  const orders = counts.map((_, r) => roundOrder(counts, r));
  for (let place = 0; place < counts.length; place++) t.same(orders.map((o) => o[place]).sort((a, b) => a - b), counts, `place ${place}`);
  t.same(roundOrder(counts, 5), counts, "round R starts over");
});

t.test("run times with no spread (a handler that always takes 100 ms): the empirical distribution, the gamma fit's cv kept at 0.01 or more", async (t) => {
  const xs = Array.from({ length: 40 }, () => 100);
  const gamma = fitFamilies(xs).find((f) => f.family === "gamma")!;
  // Uncapped, k reached 1e9 (cv 3e-5), and jstat's gamma CDF then took seconds for each point.
  t.ok((gamma.dist as { cv: number }).cv >= 0.01, `gamma cv ${(gamma.dist as { cv: number }).cv}`);
  const fit = fitRunTimes("job", xs, 1, 20);
  t.equal(fit.chosen, "empirical", "no family fits a step");
  t.equal(fit.meanMs, 100);
});
