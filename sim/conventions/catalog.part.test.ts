/**
 * The catalog dimensions of the open-choice space: the catalog a point pairs (GPU types in one
 * cloud only, non-contiguous vCPU counts) passes the catalog's own checks, and catalog answers carry
 * `globalNetwork` and numbers in the point's JSON types.
 */
import t from "tap";
import { loadCatalog } from "../catalog/index.ts";
import { checkConsistency } from "../catalog/check-consistency.ts";
import { checkReferences } from "../catalog/check-references.ts";
import { json } from "../api/json-response.ts";
import { catalogAnswer } from "./catalog-answers.ts";
import { catalogUnder } from "./catalog.ts";
import { type Conventions, EMULATOR_CONVENTIONS } from "./dimensions.ts";

const at = (over: Partial<Record<keyof Conventions, string>>): Conventions => ({ ...EMULATOR_CONVENTIONS, ...over }) as Conventions;

t.test("catalogUnder: every pairing passes the catalog's checks; one-cloud values leave no type in both clouds; counts as drawn", async (t) => {
  const base = loadCatalog();
  t.equal(catalogUnder(EMULATOR_CONVENTIONS, base), base, "the emulator's point serves the catalog as it is");
  for (const gpuClouds of ["fixtures", "by-class", "alternate"]) {
    for (const vcpuCounts of ["contiguous", "sparse", "large-only"]) {
      const c = catalogUnder(at({ gpuClouds, vcpuCounts }), base);
      t.same([...checkReferences(c), ...checkConsistency(c)], [], `${gpuClouds}/${vcpuCounts}: no catalog issue`);
      const both = c.gpuTypes.filter((g) => g.secureCloud && g.communityCloud).length;
      if (gpuClouds === "fixtures") t.ok(both > 0, "the fixtures offer some types in both clouds");
      else t.equal(both, 0, `${gpuClouds}: every GPU type in one cloud only`);
    }
  }
  const byClass = catalogUnder(at({ gpuClouds: "by-class" }), base);
  t.same(byClass.gpuTypes.filter((g) => /GeForce/.test(g.id) && g.secureCloud).map((g) => g.id), [], "by-class: no GeForce card in SECURE");
  t.ok(byClass.gpuTypes.some((g) => g.id === "NVIDIA H100 PCIe" && g.secureCloud && !g.communityCloud), "by-class: an H100 in SECURE only");
  t.same(catalogUnder(at({ vcpuCounts: "sparse" }), base).cpuFlavors.find((f) => f.id === "cpu5c")?.vcpuCounts, [2, 8, 32], "sparse: 2, 8, 32 (no 4, 16, 64)");
  t.same(catalogUnder(at({ vcpuCounts: "large-only" }), base).cpuFlavors.find((f) => f.id === "cpu3m")?.vcpuCounts, [8, 16], "large-only: no 2 or 4");
});

t.test("catalogIds: every renaming passes the catalog's checks, renames every reference, and keeps ids distinct", async (t) => {
  const base = loadCatalog();
  for (const catalogIds of ["fixtures", "slugs", "opaque", "numeric"]) {
    const c = catalogUnder(at({ catalogIds, gpuClouds: "by-class" }), base);
    t.same([...checkReferences(c), ...checkConsistency(c)], [], `${catalogIds}: no catalog issue`);
    t.equal(new Set(c.gpuTypes.map((g) => g.id)).size, base.gpuTypes.length, `${catalogIds}: GPU type ids distinct`);
    t.equal(new Set(c.dataCenters.map((d) => d.id)).size, base.dataCenters.length, `${catalogIds}: data center ids distinct`);
    t.same(c.gpuTypes.map((g) => g.displayName), base.gpuTypes.map((g) => g.displayName), `${catalogIds}: display names kept`);
  }
  const slugs = catalogUnder(at({ catalogIds: "slugs" }), base);
  t.ok(slugs.gpuTypes.some((g) => g.id === "nvidia-geforce-rtx-4090") && slugs.dataCenters.some((d) => d.id === "eu-ro-1"));
  const numeric = catalogUnder(at({ catalogIds: "numeric" }), base);
  t.ok(numeric.gpuTypes.every((g) => /^\d+$/.test(g.id)) && numeric.dataCenters.every((d) => /^\d+$/.test(d.id)), "numeric: decimal strings");
  t.ok(numeric.networkVolumes.every((v) => numeric.dataCenters.some((d) => d.id === v.dataCenterId)), "volumes in renamed data centers");
});

t.test("workers: each value passes the catalog's checks and sets the conformance endpoint's workers and lifecycle", async (t) => {
  const base = loadCatalog();
  const conformance = (workers: string) => catalogUnder(at({ workers }), base).endpoints.find((e) => e.id === "conformance")!;
  for (const workers of ["fixtures", "one-worker", "always-warm", "slow-cold"]) t.same([...checkReferences(catalogUnder(at({ workers }), base)), ...checkConsistency(catalogUnder(at({ workers }), base))], [], `${workers}: no catalog issue`);
  t.same([conformance("fixtures").workersMin, conformance("fixtures").workersMax], [0, 3]);
  t.same([conformance("one-worker").workersMin, conformance("one-worker").workersMax], [0, 1]);
  t.same([conformance("always-warm").workersMin, conformance("always-warm").workersMax], [2, 3]);
  t.same([conformance("slow-cold").workersMax, conformance("slow-cold").coldStartMs.mean, conformance("slow-cold").idleTimeoutMs], [2, 30_000, 1000]);
});

t.test("catalogAnswer: globalNetwork and the records' numbers in the point's types; other routes untouched", async (t) => {
  const dcs = json(200, { dataCenters: [{ id: "A", globalNetwork: true, gpuAvailability: [] }, { id: "B", globalNetwork: false }] });
  const spelt = (globalNetwork: string) => (catalogAnswer(at({ globalNetwork }), "GET", "/v2/catalog/datacenters", dcs).body as { dataCenters: Record<string, unknown>[] }).dataCenters;
  t.same(spelt("boolean"), [{ id: "A", globalNetwork: true, gpuAvailability: [] }, { id: "B", globalNetwork: false }]);
  t.same(spelt("only-eligible"), [{ id: "A", globalNetwork: true, gpuAvailability: [] }, { id: "B" }], "only-eligible: absent on the others");
  t.same(spelt("string").map((d) => d["globalNetwork"]), ["enabled", "disabled"]);
  t.same(spelt("object").map((d) => d["globalNetwork"]), [{ enabled: true, cidr: "10.64.0.0/10" }, { enabled: false }]);
  t.same(spelt("range").map((d) => d["globalNetwork"]), ["10.64.0.0/10", null]);
  const cpus = json(200, { cpus: [{ id: "c", vcpu: { min: 2, max: 8, allowed: [2, 4, 8] }, ramGbPerVcpu: 4, price: { perVcpuHour: 0.03, currency: "USD" } }] });
  t.same((catalogAnswer(at({ catalogNumbers: "string" }), "GET", "/v2/catalog/cpus", cpus).body as { cpus: unknown[] }).cpus[0], {
    id: "c",
    vcpu: { min: "2", max: "8", allowed: ["2", "4", "8"] },
    ramGbPerVcpu: "4",
    price: { perVcpuHour: "0.03", currency: "USD" },
  });
  t.same((catalogAnswer(at({ catalogNumbers: "money-string" }), "GET", "/v2/catalog/cpus", cpus).body as { cpus: unknown[] }).cpus[0], {
    id: "c",
    vcpu: { min: 2, max: 8, allowed: [2, 4, 8] },
    ramGbPerVcpu: 4,
    price: { perVcpuHour: "0.0300", currency: "USD" },
  });
  const pod = json(200, { id: "p", cost: 0.5, globalNetworking: { enabled: false } });
  t.equal(catalogAnswer(at({ catalogNumbers: "string" }), "GET", "/v2/pods/p", pod), pod, "a pod (typed by the spec) is left as it is");
});
