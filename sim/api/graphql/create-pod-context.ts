/**
 * The catalog lookups validateCreatePod needs, for one account: a network volume counts only when
 * it is the caller's (another account's volume reads as unknown, so its existence does not leak).
 */
import type { Platform } from "../../domain/platform.ts";
import { catalogIndex } from "../../domain/scheduler/index.ts";
import type { CreatePodContext } from "../validate/index.ts";

export function createPodContext(platform: Platform, accountId: string): CreatePodContext {
  const index = catalogIndex(platform.catalog);
  return {
    gpuType: (id) => index.gpuType.get(id),
    cpuFlavor: (id) => index.cpuFlavor.get(id),
    networkVolume: (id) => platform.catalog.networkVolumes.find((v) => v.id === id && v.accountId === accountId),
    dataCenter: (id) => index.dataCenter.get(id),
    registry: (id) => platform.catalog.registries.find((r) => r.id === id && r.accountId === accountId),
  };
}
