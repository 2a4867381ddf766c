/**
 * The official clients send lists of the platform's data centers and GPU types as preferences,
 * and the newest Python client's defaults name all of them (runpod/apps/datacenter.py's
 * `DataCenter`, gpu.py's `GpuType`): a Flash endpoint's `locations`, a task pod's `dataCenterIds`
 * and `gpuTypeIdList`. A catalog holds a few of them. An entry the platform has but the catalog
 * does not is left out of the preference (nothing of it is here to place on); an entry neither
 * knows is refused as the typo it is; a list with nothing left is refused.
 */
import type { Catalog } from "../../catalog/index.ts";
import { GPU_POOLS } from "./gpu-pools.ts";

/** The platform's data centers as the newest Python client lists them (runpod/apps/datacenter.py). */
export const PLATFORM_DATA_CENTERS: readonly string[] = Object.freeze([
  "US-CA-2", "US-IL-1", "US-KS-2", "US-MO-1", "US-MO-2", "US-NC-2", "US-NE-1", "US-WA-1", "EU-CZ-1", "EU-RO-1", "EUR-NO-1",
]);

/** At most this many entries in one preference list (the platform has far fewer of either). */
export const PREFERENCE_LIST_LIMIT = 64;

export type PlacesResult = { readonly ok: true; readonly ids: string[]; readonly leftOut: string[] } | { readonly ok: false; readonly message: string };

function inCatalog(what: string, ids: readonly string[], held: ReadonlySet<string>, platformWide: ReadonlySet<string>, listHint: string): PlacesResult {
  if (ids.length > PREFERENCE_LIST_LIMIT) return { ok: false, message: `${ids.length} ${what}s were named; send at most ${PREFERENCE_LIST_LIMIT}` };
  const kept: string[] = [];
  const leftOut: string[] = [];
  for (const id of ids) {
    if (held.has(id)) {
      if (!kept.includes(id)) kept.push(id);
    } else if (platformWide.has(id)) leftOut.push(id);
    else return { ok: false, message: `${what} ${JSON.stringify(id)} is unknown; ${listHint}` };
  }
  if (kept.length === 0 && ids.length > 0) return { ok: false, message: `none of the ${what}s ${ids.join(", ")} is in this catalog; ${listHint}` };
  return { ok: true, ids: kept, leftOut };
}

/** Data center ids, in order, less the platform's that the catalog does not hold. */
export function dataCentersInCatalog(ids: readonly string[], catalog: Catalog): PlacesResult {
  const held = new Set(catalog.dataCenters.map((d) => d.id));
  return inCatalog("data center", ids, held, new Set(PLATFORM_DATA_CENTERS), "list them with GET /v2/catalog/datacenters (GraphQL: dataCenters { id })");
}

/** GPU type ids, in order, less the platform's (a pool's members) that the catalog does not hold. */
export function gpuTypesInCatalog(ids: readonly string[], catalog: Catalog): PlacesResult {
  const held = new Set(catalog.gpuTypes.map((g) => g.id));
  return inCatalog("GPU type", ids, held, new Set(Object.values(GPU_POOLS).flat()), 'send ids listed by gpuTypes { id }, e.g. "NVIDIA GeForce RTX 4090"');
}
