// The catalog reads: shapes (the lenient contract schemas and the emulator's exact ones), figures
// from the catalog, availability from the live stock, and the `cloud` query of the GPU list.
import t from "tap";
import { CpuFlavorCatalog, DataCenterEntryCatalog, GpuTypeEntryCatalog } from "./catalog-view-schemas.ts";
import type { CpuFlavorEntry, DataCenterEntry, GpuTypeEntry } from "./catalog-view-schemas.ts";
import { bundledCatalog, gpuPodBody, harness, KEYS, problemErrors, schemaErrors, shapeErrors } from "./test-api.ts";

const catalog = bundledCatalog();

t.test("GET /v2/catalog/cpus: every flavor with sizes, price and live availability", async (t) => {
  const h = harness();
  const res = h.call("GET", "/v2/catalog/cpus", { key: KEYS.alphaRead });
  t.equal(res.status, 200);
  t.same(schemaErrors("cpsim:CpuCatalog", res.body), []);
  t.same(shapeErrors(CpuFlavorCatalog, res.body), []);
  const cpus = (res.body as { cpus: CpuFlavorEntry[] }).cpus;
  t.same(cpus.map((c) => c.id), catalog.cpuFlavors.map((f) => f.id));
  const cpu3m = cpus.find((c) => c.id === "cpu3m")!;
  t.same(cpu3m.vcpu, { min: 2, max: 16, allowed: [2, 4, 8, 16] });
  t.equal(cpu3m.ramGbPerVcpu, 8);
  t.same(cpu3m.price, { perVcpuHour: 0.05, currency: "USD" });
  t.same(cpu3m.dataCenters, ["US-TX-3", "US-GA-1", "EU-RO-1"]);
  t.same(cpu3m.availability.byDataCenter.map((d) => d.dataCenterId), cpu3m.dataCenters);
  t.equal(cpu3m.availability.stockStatus, h.platform.cpuStock.stockStatus("cpu3m"));
  t.ok(cpus.every((c) => c.availability.availableVcpuCounts.every((n) => c.vcpu.allowed.includes(n))));
});

t.test("GET /v2/catalog/cpus follows the CPU stock as pods take it", async (t) => {
  const h = harness();
  const before = (h.call("GET", "/v2/catalog/cpus").body as { cpus: CpuFlavorEntry[] }).cpus.find((c) => c.id === "cpu5m")!;
  t.ok(before.availability.availableVcpuCounts.includes(16), "16-vCPU cpu5m pods fit at first");
  // Fill every cpu5m-capable host with 16-vCPU pods until none fits.
  let created = 0;
  for (let i = 0; i < 200; i++) {
    const res = h.call("POST", "/v2/pods", { key: KEYS.exempt, body: { name: `f${i}`, image: "ubuntu", cpu: { id: "cpu5m", vcpuCount: 16 } } });
    if (res.status !== 201) break;
    created++;
  }
  t.ok(created > 0);
  const after = (h.call("GET", "/v2/catalog/cpus").body as { cpus: CpuFlavorEntry[] }).cpus.find((c) => c.id === "cpu5m")!;
  t.notOk(after.availability.availableVcpuCounts.includes(16), `after ${created} pods no 16-vCPU cpu5m pod fits`);
  t.same(shapeErrors(CpuFlavorCatalog, { cpus: [after] }), []);
});

t.test("GET /v2/catalog/datacenters: every data center with live GPU and CPU availability", async (t) => {
  const h = harness();
  const res = h.call("GET", "/v2/catalog/datacenters");
  t.equal(res.status, 200);
  t.same(schemaErrors("cpsim:DataCenterCatalog", res.body), []);
  t.same(shapeErrors(DataCenterEntryCatalog, res.body), []);
  const dcs = (res.body as { dataCenters: DataCenterEntry[] }).dataCenters;
  t.same(dcs.map((d) => d.id), catalog.dataCenters.map((d) => d.id));
  const ustx3 = dcs.find((d) => d.id === "US-TX-3")!;
  t.equal(ustx3.globalNetwork, true);
  t.equal(dcs.find((d) => d.id === "US-CA-2")!.globalNetwork, false);
  t.same(ustx3.networkVolumeTypes, ["standard", "high-performance"]);
  t.same(ustx3.gpuAvailability, h.platform.gpuStock.gpuAvailability("US-TX-3").map((a) => ({ ...a })));
  t.same(ustx3.cpuAvailability, h.platform.cpuStock.cpuAvailability("US-TX-3").map((a) => ({ ...a })));
  t.ok(ustx3.gpuAvailability.length > 0 && ustx3.cpuAvailability.length > 0);
});

t.test("GET /v2/catalog/gpus: SECURE by default, COMMUNITY on request, prices and stock of that cloud", async (t) => {
  const h = harness();
  const secure = h.call("GET", "/v2/catalog/gpus");
  const explicit = h.call("GET", "/v2/catalog/gpus", { query: { cloud: "SECURE" } });
  const community = h.call("GET", "/v2/catalog/gpus", { query: { cloud: "COMMUNITY" } });
  for (const res of [secure, explicit, community]) {
    t.equal(res.status, 200);
    t.same(schemaErrors("cpsim:GpuCatalog", res.body), []);
    t.same(shapeErrors(GpuTypeEntryCatalog, res.body), []);
  }
  t.same(secure.body, explicit.body, "SECURE is the default");
  const s = (secure.body as { gpus: GpuTypeEntry[] }).gpus;
  const c = (community.body as { gpus: GpuTypeEntry[] }).gpus;
  t.same(s.map((g) => g.id), catalog.gpuTypes.filter((g) => g.secureCloud).map((g) => g.id), "the types the secure cloud offers");
  t.same(c.map((g) => g.id), catalog.gpuTypes.filter((g) => g.communityCloud).map((g) => g.id), "the types the community cloud offers");
  const s4090 = s.find((g) => g.id === "NVIDIA GeForce RTX 4090")!;
  const c4090 = c.find((g) => g.id === "NVIDIA GeForce RTX 4090")!;
  t.equal(s4090.price, 0.69);
  t.equal(c4090.price, 0.34);
  t.equal(s4090.cloud, "SECURE");
  t.equal(s4090.manufacturer, "Nvidia");
  t.equal(s4090.memoryInGb, 24);
  for (const g of s) {
    t.equal(g.stockStatus, h.platform.gpuStock.stockStatus(g.id, { cloud: "SECURE" }), `${g.id} stockStatus from the live stock`);
    t.same(g.availableGpuCounts, h.platform.gpuStock.availableGpuCounts(g.id, { cloud: "SECURE" }));
  }
});

t.test("GET /v2/catalog/gpus follows the live stock", async (t) => {
  const h = harness();
  const h200 = () => (h.call("GET", "/v2/catalog/gpus").body as { gpus: GpuTypeEntry[] }).gpus.find((g) => g.id === "NVIDIA H200")!;
  const before = h200();
  t.ok(before.availableGpuCounts.length > 0);
  for (let i = 0; i < 100; i++) {
    if (h.call("POST", "/v2/pods", { key: KEYS.exempt, body: gpuPodBody({ gpu: { id: "NVIDIA H200", count: 1 } }) }).status !== 201) break;
  }
  const after = h200();
  t.equal(after.stockStatus, "None", "every secure H200 is taken");
  t.same(after.availableGpuCounts, []);
});

t.test("GET /v2/catalog/gpus with another cloud is 400 naming the accepted values", async (t) => {
  const h = harness();
  for (const cloud of ["ALL", "secure", "", "PRIVATE"]) {
    const res = h.call("GET", "/v2/catalog/gpus", { query: { cloud } });
    t.same(problemErrors(res, 400), [], cloud);
    t.match((res.body as { detail: string }).detail, /send cloud=SECURE \(the default\) or cloud=COMMUNITY/);
  }
});
