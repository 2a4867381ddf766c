/**
 * Placement: the host a new pod lands on. A host must fit statically (see misfit.ts) and have
 * the capacity free now; among those, the GPU types are tried in the request's order and the
 * host is chosen by the stock's one rule (best fit, then catalog order; see choose-host.ts).
 * Nothing is taken here: the caller takes the capacity on the returned host in the same
 * synchronous call, so the answer cannot go stale in between.
 *
 * No fit is a value, never an exception. `reason` tells the two cases apart for logs and tests
 * ("no-matching-host": nothing in the catalog could ever hold it; "no-capacity": something could,
 * but it is taken now); both carry the real platform's message.
 */
import type { Catalog, GpuHost } from "../../catalog/index.ts";
import { chooseHost, type CpuStock, type GpuStock } from "../stock/index.ts";
import { catalogIndex } from "./catalog-index.ts";
import { gpuShare, misfit } from "./misfit.ts";
import type { PlacementRequest } from "./placement-request.ts";

export const NO_INSTANCES_MESSAGE =
  "There are no longer any instances available with the requested specifications. Please refresh and try again.";

export interface PlacementStock {
  readonly gpu: Pick<GpuStock, "free" | "hostsOfType">;
  readonly cpu: Pick<CpuStock, "freeVcpus" | "freeMemory" | "hostsOfFlavor">;
}

export interface PlacementOk {
  readonly ok: true;
  readonly hostIndex: number;
  readonly hostId: string;
  readonly dataCenterId: string;
  readonly cloud: "SECURE" | "COMMUNITY";
  /** The GPU type placed (GPU pods), null for CPU pods. */
  readonly gpuTypeId: string | null;
  readonly gpuCount: number;
  readonly vcpuCount: number;
  readonly memoryInGb: number;
  /** The host's CUDA version (null on AMD and CPU hosts). */
  readonly cudaVersion: string | null;
}

export type NoFitReason = "no-matching-host" | "no-capacity";

export interface PlacementRefused {
  readonly ok: false;
  readonly reason: NoFitReason;
  readonly message: string;
}

export type Placement = PlacementOk | PlacementRefused;

export function place(request: PlacementRequest, stock: PlacementStock, catalog: Catalog): Placement {
  let matched = false;
  if (request.kind === "gpu") {
    for (const typeId of request.gpuTypeIds) {
      const candidates = stock.gpu.hostsOfType(typeId).filter((h) => misfit(request, catalog.hosts[h]!, catalog) === undefined);
      if (candidates.length > 0) matched = true;
      const h = chooseHost(candidates, (i) => stock.gpu.free(i), request.gpuCount);
      if (h < 0) continue;
      const host = catalog.hosts[h] as GpuHost;
      const share = gpuShare(host, request.gpuCount);
      return {
        ok: true,
        hostIndex: h,
        hostId: host.id,
        dataCenterId: host.dataCenterId,
        cloud: host.cloud,
        gpuTypeId: host.gpuTypeId,
        gpuCount: request.gpuCount,
        vcpuCount: share.vcpuCount,
        memoryInGb: share.memoryInGb,
        cudaVersion: host.cudaVersion,
      };
    }
  } else {
    const flavor = catalogIndex(catalog).cpuFlavor.get(request.cpuFlavorId);
    if (flavor) {
      const memory = request.vcpuCount * flavor.ramGbPerVcpu;
      const candidates = stock.cpu.hostsOfFlavor(flavor.id).filter((h) => misfit(request, catalog.hosts[h]!, catalog) === undefined);
      matched = candidates.length > 0;
      const h = chooseHost(candidates, (i) => stock.cpu.freeVcpus(i), request.vcpuCount, (i) => stock.cpu.freeMemory(i) >= memory);
      if (h >= 0) {
        const host = catalog.hosts[h]!;
        return {
          ok: true,
          hostIndex: h,
          hostId: host.id,
          dataCenterId: host.dataCenterId,
          cloud: host.cloud,
          gpuTypeId: null,
          gpuCount: 0,
          vcpuCount: request.vcpuCount,
          memoryInGb: memory,
          cudaVersion: null,
        };
      }
    }
  }
  return { ok: false, reason: matched ? "no-capacity" : "no-matching-host", message: NO_INSTANCES_MESSAGE };
}
