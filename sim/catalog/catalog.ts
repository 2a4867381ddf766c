/**
 * The catalog as the rest of cpsim sees it: plain, validated, frozen data. sim/domain receives
 * one of these and never reads a file.
 */
import type { DeepReadonly } from "./deep-readonly.ts";
import type { GpuTypeRecord } from "./schema/gpu-type.ts";
import type { DataCenterRecord } from "./schema/data-center.ts";
import type { CpuHostRecord, GpuHostRecord } from "./schema/host.ts";
import type { CpuFlavorRecord } from "./schema/cpu-flavor.ts";
import type { AccountRecord, ApiKeyRecord, RateLimitsRecord } from "./schema/account.ts";
import type { NetworkVolumeRecord } from "./schema/network-volume.ts";
import type { TemplateRecord } from "./schema/template.ts";
import type { RegistryRecord } from "./schema/registry.ts";
import type { ColdStartRecord, EndpointRecord } from "./schema/endpoint.ts";

export type GpuType = DeepReadonly<GpuTypeRecord>;
export type DataCenter = DeepReadonly<DataCenterRecord>;
export type GpuHost = DeepReadonly<GpuHostRecord>;
export type CpuHost = DeepReadonly<CpuHostRecord>;
export type Host = GpuHost | CpuHost;
export type CpuFlavor = DeepReadonly<CpuFlavorRecord>;
export type ApiKey = DeepReadonly<ApiKeyRecord>;
export type RateLimits = DeepReadonly<RateLimitsRecord>;
export type Account = DeepReadonly<AccountRecord>;
export type NetworkVolume = DeepReadonly<NetworkVolumeRecord>;
export type Template = DeepReadonly<TemplateRecord>;
export type Registry = DeepReadonly<RegistryRecord>;
export type ColdStart = DeepReadonly<ColdStartRecord>;
export type Endpoint = DeepReadonly<EndpointRecord>;

export interface Catalog {
  readonly gpuTypes: readonly GpuType[];
  readonly dataCenters: readonly DataCenter[];
  readonly hosts: readonly Host[];
  readonly cpuFlavors: readonly CpuFlavor[];
  readonly accounts: readonly Account[];
  readonly networkVolumes: readonly NetworkVolume[];
  readonly templates: readonly Template[];
  readonly registries: readonly Registry[];
  readonly endpoints: readonly Endpoint[];
}
