import t from "tap";
import fc from "fast-check";
import { loadCatalog } from "../../catalog/index.ts";
import { cpusConserved } from "../invariants/cpus-conserved.ts";
import { CpuStock, LeaseError, type CpuLease } from "./index.ts";
import { smallCatalog } from "./test-catalog.ts";

t.test("vCPUs and memory are conserved under random acquire/release", async () => {
  const catalog = loadCatalog();
  const cpuHosts = catalog.hosts.flatMap((h, i) => (h.kind === "cpu" ? [i] : []));
  fc.assert(
    fc.property(
      fc.array(fc.record({ release: fc.boolean(), pick: fc.nat(), vcpu: fc.constantFrom(2, 4, 8, 16, 32, 64), ram: fc.constantFrom(2, 4, 8) }), { maxLength: 100 }),
      (ops) => {
        const stock = new CpuStock(catalog);
        const leases: CpuLease[] = [];
        for (const o of ops) {
          if (o.release && leases.length > 0) stock.release(leases.splice(o.pick % leases.length, 1)[0]!);
          else {
            const h = cpuHosts[o.pick % cpuHosts.length]!;
            const fits = stock.freeVcpus(h) >= o.vcpu && stock.freeMemory(h) >= o.vcpu * o.ram;
            const lease = stock.acquireOnHost(h, o.vcpu, o.vcpu * o.ram);
            if (Boolean(lease) !== fits) throw new Error("acquireOnHost disagrees with free counts");
            if (lease) leases.push(lease);
          }
          const v = cpusConserved.check({ cpuStock: stock });
          if (v.length > 0) throw new Error(v.join("\n"));
        }
      },
    ),
  );
});

t.test("views and errors", async (t) => {
  const catalog = smallCatalog();
  const stock = new CpuStock(catalog);
  // cpu3c at 2 vCPUs: c1 has 16 vCPU / 64 GB -> 8 slots, c2 8 / 32 -> 4 slots: 12 = High
  t.equal(stock.slots("cpu3c", 2), 12);
  t.equal(stock.stockStatus("cpu3c"), "High");
  t.equal(stock.stockStatus("cpu3c", { dataCenterId: "EU-RO-1" }), "Medium");
  t.equal(stock.stockStatus("cpu3m", { vcpuCount: 8 }), "Low", "64 GB / 64 GB per pod: one slot");
  t.equal(stock.stockStatus("nope"), "None");
  t.same(stock.cpuAvailability("US-TX-3"), [
    { cpuFlavorId: "cpu3c", stockStatus: "Medium" },
    { cpuFlavorId: "cpu3m", stockStatus: "Medium" },
  ]);
  t.equal(stock.acquireOnHost(0, 2, 4), undefined, "not a CPU host");
  let freed = 0;
  stock.onFreed(() => freed++);
  const lease = stock.acquireOnHost(8, 4, 8)!;
  t.equal(stock.freeVcpus(8), 12);
  stock.release(lease);
  t.equal(freed, 1);
  t.throws(() => stock.release(lease), LeaseError);
});
