/**
 * The catalog lookups validateCreatePod needs, for one caller: GPU types, CPU flavors and data
 * centers are everyone's, network volumes only the caller's own (another account's volume id is
 * "not an existing network volume" to this caller, as the registry also judges it).
 */
import type { Catalog } from "../../../catalog/index.ts";
import { catalogIndex } from "../../../domain/scheduler/index.ts";
import type { CreatePodContext } from "../../validate/index.ts";

export function createPodContext(catalog: Catalog, accountId: string): CreatePodContext {
  const index = catalogIndex(catalog);
  return {
    gpuType: (id) => index.gpuType.get(id),
    cpuFlavor: (id) => index.cpuFlavor.get(id),
    networkVolume: (id) => catalog.networkVolumes.find((v) => v.id === id && v.accountId === accountId),
    dataCenter: (id) => index.dataCenter.get(id),
    registry: (id) => catalog.registries.find((r) => r.id === id && r.accountId === accountId),
  };
}
