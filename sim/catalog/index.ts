// The public surface of sim/catalog: the platform's catalog data, validated.
export { loadCatalog, BUNDLED_CATALOG_DIR } from "./load-catalog.ts";
export { validateCatalog, CATALOG_FILES } from "./validate-catalog.ts";
export { CatalogError } from "./catalog-error.ts";
export type { CatalogIssue } from "./catalog-error.ts";
export { RESERVED_ENDPOINT_IDS } from "./reserved-endpoint-ids.ts";
export type {
  Catalog,
  GpuType,
  DataCenter,
  Host,
  GpuHost,
  CpuHost,
  CpuFlavor,
  Account,
  ApiKey,
  RateLimits,
  NetworkVolume,
  Template,
  Registry,
  Endpoint,
  ColdStart,
} from "./catalog.ts";
export type { DeepReadonly } from "./deep-readonly.ts";
// The TypeBox schemas of the records, for users who build or document catalogs in code.
export { GpuTypeSchema } from "./schema/gpu-type.ts";
export { DataCenterSchema } from "./schema/data-center.ts";
export { HostSchema, GpuHostSchema, CpuHostSchema } from "./schema/host.ts";
export { CpuFlavorSchema } from "./schema/cpu-flavor.ts";
export { AccountSchema, ApiKeySchema, RateLimitsSchema } from "./schema/account.ts";
export { NetworkVolumeSchema } from "./schema/network-volume.ts";
export { TemplateSchema } from "./schema/template.ts";
export { RegistrySchema } from "./schema/registry.ts";
export { EndpointSchema, ColdStartSchema } from "./schema/endpoint.ts";
