/**
 * `GET /v2/catalog/datacenters` → `{"dataCenters": [{id, name, region, globalNetwork,
 * networkVolumeTypes, compliance, gpuAvailability, cpuAvailability}]}` (choices.md), the
 * availability lists from the live GPU and CPU stock (every cloud; one GPU, the flavor's
 * smallest size).
 */
import type { DataCenter } from "../../../catalog/index.ts";
import type { Platform } from "../../../domain/platform.ts";
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { respond } from "../../types.ts";
import type { DataCenterEntry } from "./catalog-view-schemas.ts";

export function dataCenterEntry(dc: DataCenter, platform: Platform): DataCenterEntry {
  return {
    id: dc.id,
    name: dc.name,
    region: dc.region,
    globalNetwork: dc.globalNetwork,
    networkVolumeTypes: [...dc.networkVolumeTypes],
    compliance: [...dc.compliance],
    gpuAvailability: platform.gpuStock
      .gpuAvailability(dc.id)
      .map((a) => ({ gpuTypeId: a.gpuTypeId, displayName: a.displayName, stockStatus: a.stockStatus })),
    cpuAvailability: platform.cpuStock.cpuAvailability(dc.id).map((a) => ({ cpuFlavorId: a.cpuFlavorId, stockStatus: a.stockStatus })),
  };
}

export const listDataCenters: Operation = ({ platform }) =>
  respond(json(200, { dataCenters: platform.catalog.dataCenters.map((dc) => dataCenterEntry(dc, platform)) }));
