// Scheduler placement: which host a pod lands on, or a typed "no instances available".
export { place, NO_INSTANCES_MESSAGE } from "./place.ts";
export type { Placement, PlacementOk, PlacementRefused, PlacementStock, NoFitReason } from "./place.ts";
export { misfit, gpuShare } from "./misfit.ts";
export { catalogIndex } from "./catalog-index.ts";
export type { CatalogIndex } from "./catalog-index.ts";
export type { PlacementRequest, GpuPlacementRequest, CpuPlacementRequest, PlacementCommon } from "./placement-request.ts";
