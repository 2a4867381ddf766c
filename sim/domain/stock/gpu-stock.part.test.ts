import t from "tap";
import fc from "fast-check";
import { Engine, hours, minutes } from "../../core/index.ts";
import { loadCatalog } from "../../catalog/index.ts";
import type { GpuLease } from "../gpu-pool.ts";
import { gpusConserved } from "../invariants/gpus-conserved.ts";
import { GpuStock, LeaseError, StockOptionError, STOCK_STATUS_THRESHOLDS, stockStatusFor } from "./index.ts";
import { A100, L4, MI300X, RTX4090, smallCatalog } from "./test-catalog.ts";

const bundled = loadCatalog();

function make(seed: number, options: ConstructorParameters<typeof GpuStock>[3] = {}, catalog = smallCatalog()) {
  const engine = new Engine({ seed });
  const stock = new GpuStock(engine, catalog, engine.rng.fork("stock"), options);
  return { engine, stock };
}

t.test("stockStatus thresholds", async (t) => {
  t.equal(stockStatusFor(0), "None");
  t.equal(stockStatusFor(1), "Low");
  t.equal(stockStatusFor(STOCK_STATUS_THRESHOLDS.lowMax), "Low");
  t.equal(stockStatusFor(STOCK_STATUS_THRESHOLDS.lowMax + 1), "Medium");
  t.equal(stockStatusFor(STOCK_STATUS_THRESHOLDS.mediumMax), "Medium");
  t.equal(stockStatusFor(STOCK_STATUS_THRESHOLDS.mediumMax + 1), "High");
});

t.test("GPUs are conserved under random platform acquire/release and outside demand, after every step", async () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 1e9 }),
      fc.double({ min: 0, max: 1.5, noNaN: true }),
      fc.array(
        fc.record({
          op: fc.constantFrom("acquire", "acquireOnHost", "release", "step", "intensity"),
          type: fc.constantFrom(RTX4090, A100, MI300X, L4, "nope"),
          count: fc.integer({ min: 1, max: 9 }),
          cloud: fc.constantFrom("ALL", "SECURE", "COMMUNITY") as fc.Arbitrary<"ALL" | "SECURE" | "COMMUNITY">,
          pick: fc.nat(),
          steps: fc.integer({ min: 1, max: 20 }),
        }),
        { maxLength: 80 },
      ),
      (seed, intensity, ops) => {
        const { engine, stock } = make(seed, { outsideIntensity: intensity, outsideMeanHold: minutes(10) });
        const leases: GpuLease[] = [];
        const check = () => {
          const v = gpusConserved.check({ stock });
          if (v.length > 0) throw new Error(v.join("\n"));
        };
        check();
        for (const o of ops) {
          if (o.op === "acquire") {
            const lease = stock.acquire({ gpuTypeIds: [o.type], count: o.count, cloud: o.cloud });
            if (lease) {
              leases.push(lease);
              if (lease.gpuTypeId !== o.type || lease.count !== o.count) throw new Error("lease does not match request");
              if (o.cloud !== "ALL" && lease.cloud !== o.cloud) throw new Error("lease in wrong cloud");
            } else {
              // No capacity must mean no host of the type in that cloud has `count` free.
              for (const h of stock.hostsOfType(o.type)) {
                const host = stock.catalog.hosts[h]!;
                if ((o.cloud === "ALL" || host.cloud === o.cloud) && stock.free(h) >= o.count) throw new Error("acquire refused with a fitting host");
              }
            }
          } else if (o.op === "acquireOnHost") {
            const h = o.pick % stock.hostCount;
            const before = stock.free(h);
            const lease = stock.acquireOnHost(h, o.count);
            if (Boolean(lease) !== before >= o.count) throw new Error("acquireOnHost disagrees with free count");
            if (lease) leases.push(lease);
          } else if (o.op === "release" && leases.length > 0) {
            stock.release(leases.splice(o.pick % leases.length, 1)[0]!);
          } else if (o.op === "intensity") {
            stock.setOutsideIntensity((o.pick % 10) / 10);
          } else {
            for (let i = 0; i < o.steps; i++) {
              if (!engine.step()) break;
              check();
            }
          }
          check();
        }
      },
    ),
    { numRuns: 150 },
  );
});

t.test("outside demand moves stock over time; intensity 0 switches it off", async (t) => {
  const { engine, stock } = make(1, { outsideIntensity: 0.6, outsideMeanHold: minutes(30) }, bundled);
  const seen = new Set<number>();
  for (let i = 0; i < 24; i++) {
    engine.runFor(hours(1));
    seen.add(stock.totals().outsideUsed);
    t.same(gpusConserved.check({ stock }), []);
  }
  t.ok(seen.size > 10, `outside usage varies (${seen.size} distinct values)`);
  const totals = stock.totals();
  const share = totals.outsideUsed / totals.total;
  t.ok(share > 0.3 && share < 0.6, `outside share ${share.toFixed(3)} near the offered 0.6 less blocking`);

  const off = make(1, { outsideIntensity: 0 }, bundled);
  t.equal(off.engine.pending, 0, "no events when switched off");
  t.equal(off.stock.totals().free, off.stock.totals().total);
  off.engine.runFor(hours(5));
  t.equal(off.engine.steps, 0);

  // Switching off mid-run: no new arrivals; the running tenants leave as drawn.
  stock.setOutsideIntensity(0);
  engine.runFor(hours(48));
  t.equal(stock.totals().outsideUsed, 0);
  t.equal(engine.pending, 0);
});

t.test("warm start begins in the steady state; cold start begins empty", async (t) => {
  const warm = make(5, { outsideIntensity: 0.5 }, bundled).stock.totals();
  const cold = make(5, { outsideIntensity: 0.5, outsideWarmStart: false }, bundled).stock.totals();
  t.ok(warm.outsideUsed / warm.total > 0.25, "warm start already taken");
  t.equal(cold.outsideUsed, 0);
});

t.test("same seed, same stock trajectory and event-log hash; another seed differs", async (t) => {
  const run = (seed: number) => {
    const { engine, stock } = make(seed, {}, bundled);
    const trace: number[] = [];
    for (let i = 0; i < 20; i++) {
      engine.runFor(minutes(30));
      trace.push(stock.totals().free, stock.freeGpus(RTX4090, { cloud: "COMMUNITY" }));
    }
    return { trace, hash: engine.log.hash() };
  };
  const a = run(42);
  t.same(run(42), a);
  t.not(run(43).hash, a.hash);
});

t.test("platform use does not shift the outside process's draws", async (t) => {
  const a = make(9, { outsideIntensity: 0.2 }, bundled);
  const b = make(9, { outsideIntensity: 0.2 }, bundled);
  b.stock.acquire({ gpuTypeIds: [RTX4090], count: 1 });
  a.engine.runFor(hours(3));
  b.engine.runFor(hours(3));
  t.equal(a.engine.steps, b.engine.steps, "same number of outside events");
});

t.test("acquire honours type order, cloud and data centers, best fit then catalog order", async (t) => {
  const { stock } = make(1, { outsideIntensity: 0 });
  // RTX 4090 hosts: h1 US-TX-3 SECURE 8, h2 US-TX-3 COMMUNITY 4, h3 EU-RO-1 SECURE 2, h4 CA-MTL-1 COMMUNITY 8
  const one = stock.acquire({ gpuTypeIds: [RTX4090], count: 1 })!;
  t.equal(one.hostId, "h3", "best fit: the smallest hole that holds 1");
  const four = stock.acquire({ gpuTypeIds: [RTX4090], count: 4 })!;
  t.equal(four.hostId, "h2");
  const sec = stock.acquire({ gpuTypeIds: [RTX4090], count: 2, cloud: "SECURE" })!;
  t.equal(sec.hostId, "h1", "h3 has only 1 left");
  const dc = stock.acquire({ gpuTypeIds: [RTX4090], count: 1, dataCenterIds: ["CA-MTL-1"] })!;
  t.equal(dc.hostId, "h4");
  t.equal(stock.acquire({ gpuTypeIds: [RTX4090], count: 8 }), undefined, "no host has 8 free now");
  const fallback = stock.acquire({ gpuTypeIds: ["unknown", L4, A100], count: 8 })!;
  t.equal(fallback.gpuTypeId, A100, "first type with a fitting host wins");
  t.equal(stock.acquire({ gpuTypeIds: [RTX4090], count: 0 }), undefined);
  t.equal(stock.acquire({ gpuTypeIds: [RTX4090], count: 1.5 }), undefined);
});

t.test("release: listeners are told, double release throws a typed error", async (t) => {
  const { engine, stock } = make(1, { outsideIntensity: 0 });
  let calls = 0;
  const off = stock.onFreed(() => calls++);
  const lease = stock.acquire({ gpuTypeIds: [A100], count: 2 })!;
  stock.release(lease);
  t.equal(calls, 1);
  t.throws(() => stock.release(lease), LeaseError);
  try {
    stock.release(lease);
  } catch (e) {
    t.equal((e as LeaseError).code, "CPSIM_ERR_LEASE");
  }
  off();
  stock.release(stock.acquire({ gpuTypeIds: [A100], count: 1 })!);
  t.equal(calls, 1, "unsubscribed");

  // Outside departures notify too.
  const busy = make(2, { outsideIntensity: 0.8, outsideMeanHold: minutes(5) });
  let freed = 0;
  busy.stock.onFreed(() => freed++);
  busy.engine.runFor(hours(1));
  t.ok(freed > 0, "outside departures call listeners");
  t.equal(engine.steps, 0);
});

t.test("views: free counts, availableGpuCounts, stockStatus, lowestPrice, data-center availability", async (t) => {
  const { stock } = make(1, { outsideIntensity: 0 });
  t.equal(stock.freeGpus(RTX4090), 22);
  t.equal(stock.freeGpus(RTX4090, { cloud: "SECURE" }), 10);
  t.equal(stock.freeGpus(RTX4090, { cloud: "COMMUNITY", dataCenterId: "US-TX-3" }), 4);
  t.same(stock.availableGpuCounts(RTX4090), [1, 2, 4, 8]);
  t.same(stock.availableGpuCounts(L4), [], "no hosts");
  t.same(stock.availableGpuCounts("nope"), []);
  // slots for 1 GPU = 22 -> High; for 8 GPUs = 2 -> Low; above maxGpuCount -> None
  t.equal(stock.stockStatus(RTX4090), "High");
  t.equal(stock.stockStatus(RTX4090, { gpuCount: 8 }), "Low");
  t.equal(stock.stockStatus(RTX4090, { gpuCount: 16 }), "None");
  t.equal(stock.stockStatus(L4), "None");

  const lp = stock.lowestPrice(RTX4090, { gpuCount: 1 })!;
  t.same(lp, { uninterruptablePrice: 0.34, minimumBidPrice: 0.2, stockStatus: "High", availableGpuCounts: [1, 2, 4, 8] });
  t.equal(stock.lowestPrice(RTX4090, { gpuCount: 1, secureCloud: true })!.uninterruptablePrice, 0.69);
  // Take every community 4090: the lowest price in stock is now the secure one.
  const leases = [stock.acquireOnHost(1, 4)!, stock.acquireOnHost(3, 8)!];
  const after = stock.lowestPrice(RTX4090, { gpuCount: 1 })!;
  t.equal(after.uninterruptablePrice, 0.69);
  const community = stock.lowestPrice(RTX4090, { gpuCount: 1, secureCloud: false })!;
  t.same(community, { uninterruptablePrice: 0.34, minimumBidPrice: 0.2, stockStatus: "None", availableGpuCounts: [] }, "list price beside None");
  leases.forEach((l) => stock.release(l));
  t.same(stock.lowestPrice(MI300X, { gpuCount: 1, secureCloud: false }), {
    uninterruptablePrice: null,
    minimumBidPrice: null,
    stockStatus: "None",
    availableGpuCounts: [],
  }, "a cloud that does not offer the type");
  t.equal(stock.lowestPrice("nope"), undefined);

  const tx = stock.gpuAvailability("US-TX-3");
  t.same(tx.map((a) => a.gpuTypeId), [RTX4090, A100, MI300X]);
  t.same(tx.map((a) => a.stockStatus), ["High", "Medium", "Medium"], "12, 8 and 8 free GPUs");
  t.same(stock.gpuAvailability("nowhere"), []);
});

t.test("options are checked", async (t) => {
  t.throws(() => make(1, { outsideIntensity: -1 }), StockOptionError);
  t.throws(() => make(1, { outsideMeanHold: 0 }), StockOptionError);
  t.throws(() => make(1, { outsideSizeWeights: [0, 1] }), StockOptionError);
  const { stock } = make(1);
  t.throws(() => stock.setOutsideIntensity(Number.NaN), StockOptionError);
});
