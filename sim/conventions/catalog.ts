/**
 * The catalog a point of the open-choice space serves (its `gpuClouds`, `vcpuCounts` and
 * `rateQuotas` dimensions): the given catalog with the GPU types' clouds and the CPU flavors' vCPU counts
 * paired as the point says, hosts moved to the cloud their type is offered in, and every link
 * the catalog's own checks demand kept (a price exactly for each cloud offering a type).
 */
import type { Account, Catalog, CpuFlavor, Endpoint, GpuType } from "../catalog/index.ts";
import type { Conventions } from "./dimensions.ts";

type Cloud = "SECURE" | "COMMUNITY";
const SECURE_PRICES = ["securePrice", "secureSpotPrice", "oneWeekPrice", "oneMonthPrice", "threeMonthPrice"] as const;
const COMMUNITY_PRICES = ["communityPrice", "communitySpotPrice"] as const;

/** The one cloud a type offered in both keeps under `c`, or undefined when it keeps both. */
function keptCloud(c: Conventions, type: GpuType, indexAmongBoth: number): Cloud | undefined {
  if (!type.secureCloud || !type.communityCloud) return undefined;
  if (c.gpuClouds === "by-class") return /geforce/i.test(`${type.id} ${type.displayName}`) ? "COMMUNITY" : "SECURE";
  if (c.gpuClouds === "alternate") return indexAmongBoth % 2 === 0 ? "SECURE" : "COMMUNITY";
  return undefined;
}

function inOneCloud(type: GpuType, cloud: Cloud): GpuType {
  const dropped = cloud === "SECURE" ? COMMUNITY_PRICES : SECURE_PRICES;
  return { ...type, secureCloud: cloud === "SECURE", communityCloud: cloud === "COMMUNITY", ...Object.fromEntries(dropped.map((f) => [f, null])) };
}

/** The flavor's counts under `c` (powers of two up to its largest). */
export function flavorCounts(c: Conventions, counts: readonly number[]): number[] {
  const largest = Math.max(...counts);
  const powers: number[] = [];
  for (let n = 2; n <= largest; n *= 2) powers.push(n);
  if (c.vcpuCounts === "sparse") return powers.filter((_, i) => i % 2 === 0);
  if (c.vcpuCounts === "large-only") {
    const large = powers.filter((n) => n >= 8);
    return large.length > 0 ? large : [largest];
  }
  return [...counts];
}

/** An account's quotas under `c` (the `rateQuotas` dimension); an unlimited account stays so. */
export function quotasUnder(c: Conventions, q: Account["rateLimits"]): Account["rateLimits"] {
  if (q === null || c.rateQuotas === "fixtures") return q;
  if (c.rateQuotas === "tight") return { minute: Math.min(q.minute, 120), hour: Math.min(q.hour, 3000), day: q.day };
  if (c.rateQuotas === "generous") return { minute: q.minute * 10, hour: q.hour * 10, day: q.day * 10 };
  // uneven: the hour binds before sixty full minutes do.
  return { minute: q.minute, hour: Math.max(Math.min(q.hour, q.minute * 10), 1), day: q.day };
}

/** The id the point gives the `index`-th record (GPU type or data center) whose bundled id is `id`. */
function renamed(c: Conventions, kind: "gpu" | "dc", id: string, index: number): string {
  switch (c.catalogIds) {
    case "fixtures":
      return id;
    case "slugs":
      return id.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
    case "opaque":
      return `${kind === "gpu" ? "gpu-type" : "dc"}-${String(index + 1).padStart(2, "0")}`;
    case "numeric":
      return String(index + 1);
  }
}

/** The catalog with GPU type and data center ids as the point names them, every reference renamed alike. */
function catalogRenamed(c: Conventions, catalog: Catalog): Catalog {
  if (c.catalogIds === "fixtures") return catalog;
  const gpu = new Map(catalog.gpuTypes.map((g, i) => [g.id, renamed(c, "gpu", g.id, i)]));
  const dc = new Map(catalog.dataCenters.map((d, i) => [d.id, renamed(c, "dc", d.id, i)]));
  const g = (id: string) => gpu.get(id) ?? id;
  const d = (id: string) => dc.get(id) ?? id;
  return {
    ...catalog,
    gpuTypes: catalog.gpuTypes.map((t) => ({ ...t, id: g(t.id) })),
    dataCenters: catalog.dataCenters.map((x) => ({ ...x, id: d(x.id) })),
    hosts: catalog.hosts.map((h) => (h.kind === "gpu" ? { ...h, dataCenterId: d(h.dataCenterId), gpuTypeId: g(h.gpuTypeId) } : { ...h, dataCenterId: d(h.dataCenterId) })),
    cpuFlavors: catalog.cpuFlavors.map((f) => ({ ...f, dataCenterIds: f.dataCenterIds.map(d) })),
    networkVolumes: catalog.networkVolumes.map((v) => ({ ...v, dataCenterId: d(v.dataCenterId) })),
    endpoints: catalog.endpoints.map((e) => ({ ...e, gpuTypeIds: e.gpuTypeIds.map(g) })),
  };
}

/** A bundled endpoint's workers and their lifecycle under `c` (the `workers` dimension). */
export function endpointUnder(c: Conventions, e: Endpoint): Endpoint {
  switch (c.workers) {
    case "fixtures":
      return e;
    case "one-worker":
      return { ...e, workersMin: 0, workersMax: 1 };
    case "always-warm":
      return { ...e, workersMin: Math.max(e.workersMin, 2), workersMax: Math.max(e.workersMax, 2) };
    case "slow-cold":
      return { ...e, workersMin: 0, workersMax: Math.max(1, Math.min(e.workersMax, 2)), idleTimeoutMs: 1000, coldStartMs: { mean: 30_000, cv: 0.5 } };
  }
}

export function catalogUnder(c: Conventions, given: Catalog): Catalog {
  const renamedCatalog = catalogRenamed(c, given);
  const catalog = c.workers === "fixtures" ? renamedCatalog : { ...renamedCatalog, endpoints: renamedCatalog.endpoints.map((e) => endpointUnder(c, e)) };
  if (c.gpuClouds === "fixtures" && c.vcpuCounts === "contiguous" && c.rateQuotas === "fixtures") return catalog;
  const kept = new Map<string, Cloud>();
  let both = 0;
  for (const type of catalog.gpuTypes) {
    const cloud = keptCloud(c, type, type.secureCloud && type.communityCloud ? both++ : -1);
    if (cloud !== undefined) kept.set(type.id, cloud);
  }
  const cpuFlavors: CpuFlavor[] = catalog.cpuFlavors.map((f) => (c.vcpuCounts === "contiguous" ? f : { ...f, vcpuCounts: flavorCounts(c, f.vcpuCounts) }));
  return {
    ...catalog,
    gpuTypes: catalog.gpuTypes.map((t) => (kept.has(t.id) ? inOneCloud(t, kept.get(t.id)!) : t)),
    hosts: catalog.hosts.map((h) => (h.kind === "gpu" && kept.has(h.gpuTypeId) ? { ...h, cloud: kept.get(h.gpuTypeId)! } : h)),
    cpuFlavors,
    accounts: catalog.accounts.map((a) => (a.rateLimits === null || c.rateQuotas === "fixtures" ? a : { ...a, rateLimits: quotasUnder(c, a.rateLimits) })),
  };
}
