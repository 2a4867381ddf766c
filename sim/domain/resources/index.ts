// Account-owned resources (templates, network volumes, registries, endpoints) and the commands that change them.
export { Resources, RESOURCE_LIMIT_PER_ACCOUNT } from "./resources.ts";
export type { EndpointExtra } from "./resources.ts";
export { GPU_POOLS, resolveGpuIds, splitGpuIds } from "./gpu-pools.ts";
export { PLATFORM_DATA_CENTERS, dataCentersInCatalog, gpuTypesInCatalog } from "./platform-places.ts";
export * from "./commands.ts";
export { AppStore, APP_LIMITS } from "./apps.ts";
export type { ArtifactUpload, AuthRequest, FlashApp, FlashBuild, FlashEnvironment, Secret, TarballReceipt } from "./apps.ts";
export { ARTIFACT_PREFIX, artifactPath } from "./apps.ts";
export { GlobalVolumes, GLOBAL_VOLUME_LIMIT } from "./global-volumes.ts";
export type { GlobalVolume } from "./global-volumes.ts";
