import t from "tap";
import fc from "fast-check";
import { Engine } from "../../core/index.ts";
import { loadCatalog, type Catalog } from "../../catalog/index.ts";
import { CpuStock, GpuStock } from "../stock/index.ts";
import { smallCatalog, RTX4090, A100, MI300X } from "../stock/test-catalog.ts";
import { NO_INSTANCES_MESSAGE, place, type PlacementRequest } from "./index.ts";

const bundled = loadCatalog();

function stocks(catalog: Catalog, seed: number, intensity: number) {
  const engine = new Engine({ seed });
  const gpu = new GpuStock(engine, catalog, engine.rng.fork("stock"), { outsideIntensity: intensity });
  const cpu = new CpuStock(catalog);
  return { engine, gpu, cpu };
}

/** The constraints written out again, independently of misfit.ts, straight from the catalog's fields. */
function bruteForce(req: PlacementRequest, catalog: Catalog, s: { gpu: GpuStock; cpu: CpuStock }): number[] {
  const out: number[] = [];
  catalog.hosts.forEach((host, i) => {
    const dc = catalog.dataCenters.find((d) => d.id === host.dataCenterId)!;
    if (req.cloud !== "ALL" && req.cloud !== host.cloud) return;
    if (req.dataCenterIds.length && !req.dataCenterIds.includes(host.dataCenterId)) return;
    if (req.networkVolumeDataCenterId && req.networkVolumeDataCenterId !== host.dataCenterId) return;
    if (req.kind === "gpu") {
      if (host.kind !== "gpu" || !req.gpuTypeIds.includes(host.gpuTypeId)) return;
      if (s.gpu.free(i) < req.gpuCount) return;
      const cuda = req.allowedCudaVersions ?? [];
      if (cuda.length && !cuda.includes(host.cudaVersion as string)) return;
      const type = catalog.gpuTypes.find((g) => g.id === host.gpuTypeId)!;
      if (req.globalNetworking && !(type.manufacturer === "Nvidia" && dc.globalNetwork)) return;
      if (req.minVcpuCount !== undefined && (host.vcpuCount / host.gpuCount) * req.gpuCount < req.minVcpuCount) return;
      if (req.minMemoryInGb !== undefined && Math.floor(host.memoryInGb / host.gpuCount) * req.gpuCount < req.minMemoryInGb) return;
    } else {
      if (host.kind !== "cpu" || req.globalNetworking) return;
      const f = catalog.cpuFlavors.find((x) => x.id === req.cpuFlavorId);
      if (!f || !host.cpuFlavorIds.includes(f.id) || !f.dataCenterIds.includes(host.dataCenterId)) return;
      if (!(f.vcpuCounts as readonly number[]).includes(req.vcpuCount)) return;
      if (s.cpu.freeVcpus(i) < req.vcpuCount || s.cpu.freeMemory(i) < req.vcpuCount * f.ramGbPerVcpu) return;
    }
    out.push(i);
  });
  return out;
}

/** Mostly absent: each constraint is present now and then, so that both outcomes are common. */
function sometimes<T>(arb: fc.Arbitrary<T>, absent: T): fc.Arbitrary<T> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(absent) }, { weight: 1, arbitrary: arb });
}

function requestArb(catalog: Catalog): fc.Arbitrary<PlacementRequest> {
  const dcIds = catalog.dataCenters.map((d) => d.id);
  const common = {
    cloud: fc.constantFrom("ALL", "SECURE", "COMMUNITY") as fc.Arbitrary<"ALL" | "SECURE" | "COMMUNITY">,
    dataCenterIds: sometimes(fc.subarray([...dcIds, "XX-NO-1"], { minLength: 1, maxLength: 3 }), [] as string[]),
    globalNetworking: sometimes(fc.constant(true), false),
    networkVolumeDataCenterId: sometimes(fc.constantFrom<string | null | undefined>(...dcIds, null), undefined),
  };
  const gpu = fc.record({
    kind: fc.constant("gpu" as const),
    ...common,
    gpuTypeIds: fc.subarray([...catalog.gpuTypes.map((g) => g.id), "unknown"], { minLength: 1, maxLength: 3 }),
    gpuCount: fc.constantFrom(1, 1, 1, 2, 4, 8, 3, 16),
    allowedCudaVersions: sometimes(fc.subarray(["11.8", "12.1", "12.4", "12.8"], { maxLength: 2 }), undefined as string[] | undefined),
    minVcpuCount: sometimes(fc.integer({ min: 1, max: 64 }), undefined as number | undefined),
    minMemoryInGb: sometimes(fc.integer({ min: 1, max: 500 }), undefined as number | undefined),
  });
  const cpu = fc.record({
    kind: fc.constant("cpu" as const),
    ...common,
    cpuFlavorId: fc.constantFrom(...catalog.cpuFlavors.map((f) => f.id), "cpu9x"),
    vcpuCount: fc.constantFrom(2, 4, 8, 16, 32, 64, 3),
  });
  return fc.oneof({ weight: 3, arbitrary: gpu }, { weight: 1, arbitrary: cpu });
}

for (const [name, catalog] of [
  ["bundled", bundled],
  ["small", smallCatalog()],
] as const) {
  t.test(`${name} catalog: a returned host always fits; no fit only when brute force finds none`, async (t) => {
    let placed = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e6 }), fc.constantFrom(0, 0.5, 0.9), fc.array(requestArb(catalog), { minLength: 1, maxLength: 12 }), (seed, intensity, reqs) => {
        const s = stocks(catalog, seed, intensity);
        for (const req of reqs) {
          const fitting = bruteForce(req, catalog, s);
          const p = place(req, s, catalog);
          if (!p.ok) {
            if (fitting.length > 0) throw new Error(`refused but brute force finds ${fitting.map((h) => catalog.hosts[h]!.id).join(",")}`);
            if (p.message !== NO_INSTANCES_MESSAGE) throw new Error("wrong message");
            refused++;
            continue;
          }
          placed++;
          {
          }
          if (!fitting.includes(p.hostIndex)) throw new Error(`placed on ${p.hostId}, which does not fit`);
          // Best fit within the first GPU type (in preference order) that fits anywhere.
          if (req.kind === "gpu") {
            const firstType = req.gpuTypeIds.find((id) => fitting.some((h) => (catalog.hosts[h] as { gpuTypeId: string }).gpuTypeId === id));
            if (p.gpuTypeId !== firstType) throw new Error("GPU type preference order not honoured");
            const sameType = fitting.filter((h) => (catalog.hosts[h] as { gpuTypeId: string }).gpuTypeId === firstType);
            const bestFree = Math.min(...sameType.map((h) => s.gpu.free(h)));
            if (s.gpu.free(p.hostIndex) !== bestFree) throw new Error("not best fit");
            if (sameType.find((h) => s.gpu.free(h) === bestFree) !== p.hostIndex) throw new Error("tie not broken by catalog order");
            s.gpu.acquireOnHost(p.hostIndex, req.gpuCount);
          } else {
            if (p.memoryInGb !== req.vcpuCount * catalog.cpuFlavors.find((f) => f.id === req.cpuFlavorId)!.ramGbPerVcpu) throw new Error("memory not derived");
            s.cpu.acquireOnHost(p.hostIndex, p.vcpuCount, p.memoryInGb);
          }
        }
      }),
      { numRuns: 300 },
    );
    t.ok(placed > 200 && refused > 200, `both outcomes exercised (${placed} placed, ${refused} refused)`);
  });
}

t.test("the two refusal reasons", async (t) => {
  const catalog = smallCatalog();
  const s = stocks(catalog, 1, 0);
  const base = { kind: "gpu" as const, cloud: "ALL" as const, dataCenterIds: [], globalNetworking: false };
  const r1 = place({ ...base, gpuTypeIds: ["unknown"], gpuCount: 1 }, s, catalog);
  t.same(r1, { ok: false, reason: "no-matching-host", message: NO_INSTANCES_MESSAGE });
  const r2 = place({ ...base, gpuTypeIds: [MI300X], gpuCount: 1, globalNetworking: true }, s, catalog);
  t.equal(!r2.ok && r2.reason, "no-matching-host", "AMD cannot join the global network");
  s.gpu.acquireOnHost(4, 8);
  const r3 = place({ ...base, gpuTypeIds: [A100], gpuCount: 8 }, s, catalog);
  t.equal(!r3.ok && r3.reason, "no-capacity");
});

t.test("each constraint on the small catalog", async (t) => {
  const catalog = smallCatalog();
  const s = stocks(catalog, 1, 0);
  const base = { kind: "gpu" as const, cloud: "ALL" as const, dataCenterIds: [] as string[], globalNetworking: false, gpuTypeIds: [RTX4090], gpuCount: 1 };
  const host = (r: PlacementRequest) => {
    const p = place(r, s, catalog);
    return p.ok ? p.hostId : p.reason;
  };
  t.equal(host(base), "h3", "best fit: the 2-GPU host");
  t.equal(host({ ...base, cloud: "COMMUNITY" }), "h2");
  t.equal(host({ ...base, dataCenterIds: ["CA-MTL-1"] }), "h4");
  t.equal(host({ ...base, allowedCudaVersions: ["12.8"] }), "h1");
  t.equal(host({ ...base, globalNetworking: true, cloud: "COMMUNITY" }), "h2", "CA-MTL-1 has no global network");
  t.equal(host({ ...base, networkVolumeDataCenterId: "CA-MTL-1" }), "h4");
  t.equal(host({ ...base, networkVolumeDataCenterId: "CA-MTL-1", globalNetworking: true }), "no-matching-host");
  t.equal(host({ ...base, gpuCount: 8, minMemoryInGb: 496 }), "h1");
  t.equal(host({ ...base, gpuCount: 8, minMemoryInGb: 497 }), "no-matching-host");
  t.equal(host({ ...base, allowedCudaVersions: ["12.4"], gpuTypeIds: [MI300X] }), "no-matching-host", "AMD hosts have no CUDA");
  t.equal(host({ ...base, gpuTypeIds: [MI300X] }), "h8");
  const cpu = { kind: "cpu" as const, cloud: "ALL" as const, dataCenterIds: [] as string[], globalNetworking: false, cpuFlavorId: "cpu3c", vcpuCount: 8 };
  t.equal(host(cpu), "c2", "best fit: the 8-vCPU host");
  t.equal(host({ ...cpu, cpuFlavorId: "cpu3m" }), "c1");
  t.equal(host({ ...cpu, cpuFlavorId: "cpu3m", dataCenterIds: ["EU-RO-1"] }), "no-matching-host");
  t.equal(host({ ...cpu, globalNetworking: true }), "no-matching-host");
  t.equal(host({ ...cpu, vcpuCount: 16 }), "no-matching-host", "not a size of the flavor");
  const p = place({ ...cpu, cpuFlavorId: "cpu3m", vcpuCount: 8 }, s, catalog);
  t.ok(p.ok && p.memoryInGb === 64 && p.vcpuCount === 8);
  s.cpu.acquireOnHost(8, 2, 4);
  t.equal(host({ ...cpu, cpuFlavorId: "cpu3m", vcpuCount: 8 }), "no-capacity", "memory runs out before vCPUs");
});
