/**
 * `gpuTypes(input: {id, ids})` with `lowestPrice(input)`, and `dataCenters`: the catalog with the
 * live stock. Reads only: nothing here draws randomness or schedules events.
 *
 * lowestPrice is the stock's (`GpuStock.lowestPrice`): USD per GPU-hour, null where the asked
 * cloud does not offer the type. Its extra fields: gpuName and gpuTypeId name the type; minVcpu
 * and minMemory are the smallest vCPU and memory share a pod of gpuCount GPUs gets on a host of
 * the type in the asked cloud (null when no host can hold that many). With a dataCenterId,
 * stockStatus is the type's stock in that data center (the newest Python client asks so before
 * placing a resource); the price stays the platform-wide one. The input's minDisk,
 * minMemoryInGb, minVcpuCount, countryCode, globalNetwork and includeAiApi are accepted and
 * ignored.
 */
import type { GpuHost, GpuType } from "../../catalog/index.ts";
import type { Platform } from "../../domain/platform.ts";
import { gpuShare } from "../../domain/scheduler/index.ts";
import { GraphqlCode, userError } from "./error-codes.ts";
import type { GpuLowestPriceInput, GpuTypeFilter } from "./input-types.ts";
import type { ResolverContext } from "./resolver-context.ts";

export interface LowestPriceObject {
  readonly uninterruptablePrice: number | null;
  readonly minimumBidPrice: number | null;
  readonly stockStatus: string;
  readonly availableGpuCounts: number[];
  readonly gpuName: string;
  readonly gpuTypeId: string;
  readonly minMemory: number | null;
  readonly minVcpu: number | null;
}

export type GpuTypeObject = GpuType & {
  readonly lowestPrice: (args: { readonly input?: GpuLowestPriceInput | null }) => LowestPriceObject | null;
};

function smallestShare(platform: Platform, type: GpuType, gpuCount: number, secureCloud: boolean | null | undefined): { vcpu: number; memory: number } | null {
  let best: { vcpu: number; memory: number } | null = null;
  for (const h of platform.gpuStock.hostsOfType(type.id)) {
    const host = platform.catalog.hosts[h] as GpuHost;
    if (secureCloud === true && host.cloud !== "SECURE") continue;
    if (secureCloud === false && host.cloud !== "COMMUNITY") continue;
    if (host.gpuCount < gpuCount) continue;
    const share = gpuShare(host, gpuCount);
    if (!best || share.vcpuCount < best.vcpu || (share.vcpuCount === best.vcpu && share.memoryInGb < best.memory)) {
      best = { vcpu: share.vcpuCount, memory: share.memoryInGb };
    }
  }
  return best;
}

export function lowestPriceOf(platform: Platform, type: GpuType, input: GpuLowestPriceInput | null | undefined): LowestPriceObject | null {
  const gpuCount = input?.gpuCount ?? 1;
  if (gpuCount < 1) {
    throw userError(GraphqlCode.BAD_USER_INPUT, `lowestPrice: gpuCount is ${gpuCount}; send a whole number of GPUs, 1 or more (the default is 1).`);
  }
  const price = platform.gpuStock.lowestPrice(type.id, { gpuCount, secureCloud: input?.secureCloud ?? null });
  if (!price) return null;
  const share = smallestShare(platform, type, gpuCount, input?.secureCloud);
  return {
    uninterruptablePrice: price.uninterruptablePrice,
    minimumBidPrice: price.minimumBidPrice,
    stockStatus: input?.dataCenterId
      ? platform.gpuStock.stockStatus(type.id, { gpuCount, dataCenterId: input.dataCenterId, cloud: input.secureCloud === true ? "SECURE" : input.secureCloud === false ? "COMMUNITY" : "ALL" })
      : price.stockStatus,
    availableGpuCounts: [...price.availableGpuCounts],
    gpuName: type.displayName,
    gpuTypeId: type.id,
    minMemory: share?.memory ?? null,
    minVcpu: share?.vcpu ?? null,
  };
}

export function gpuTypes(args: { readonly input?: GpuTypeFilter | null }, ctx: ResolverContext): GpuTypeObject[] {
  const { platform } = ctx;
  const wanted = new Set<string>();
  if (args.input?.id != null) wanted.add(args.input.id);
  for (const id of args.input?.ids ?? []) if (id != null) wanted.add(id);
  const filtered = args.input?.id != null || args.input?.ids != null;
  return platform.catalog.gpuTypes
    .filter((t) => !filtered || wanted.has(t.id))
    .map((t) => ({ ...t, lowestPrice: (a) => lowestPriceOf(platform, t, a.input) }));
}

export interface DataCenterObject {
  readonly id: string;
  readonly name: string;
  readonly location: string;
  readonly globalNetwork: boolean;
  readonly gpuAvailability: () => Array<{ gpuTypeId: string; displayName: string; stockStatus: string; available: boolean }>;
}

export function dataCenters(_args: unknown, ctx: ResolverContext): DataCenterObject[] {
  const { platform } = ctx;
  return platform.catalog.dataCenters.map((dc) => ({
    id: dc.id,
    name: dc.name,
    location: dc.location,
    globalNetwork: dc.globalNetwork,
    gpuAvailability: () => platform.gpuStock.gpuAvailability(dc.id).map((a) => ({ ...a, available: a.stockStatus !== "None" })),
  }));
}
