/**
 * Lookups by id over a catalog, built once per catalog object and cached beside it (the catalog
 * is frozen, so the index never goes stale).
 */
import type { Catalog, CpuFlavor, DataCenter, GpuType } from "../../catalog/index.ts";

export interface CatalogIndex {
  readonly gpuType: ReadonlyMap<string, GpuType>;
  readonly dataCenter: ReadonlyMap<string, DataCenter>;
  readonly cpuFlavor: ReadonlyMap<string, CpuFlavor>;
  readonly hostIndex: ReadonlyMap<string, number>;
}

const cache = new WeakMap<Catalog, CatalogIndex>();

export function catalogIndex(catalog: Catalog): CatalogIndex {
  let index = cache.get(catalog);
  if (!index) {
    index = {
      gpuType: new Map(catalog.gpuTypes.map((t) => [t.id, t])),
      dataCenter: new Map(catalog.dataCenters.map((d) => [d.id, d])),
      cpuFlavor: new Map(catalog.cpuFlavors.map((f) => [f.id, f])),
      hostIndex: new Map(catalog.hosts.map((h, i) => [h.id, i])),
    };
    cache.set(catalog, index);
  }
  return index;
}
