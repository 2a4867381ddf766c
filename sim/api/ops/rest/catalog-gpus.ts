/**
 * `GET /v2/catalog/gpus?cloud=SECURE|COMMUNITY` → `{"gpus": [...]}` (choices.md): the GPU types
 * the cloud offers, each with its on-demand price there and the live stock of that cloud
 * (stockStatus for one GPU, and the GPU counts some host could give now). `cloud` defaults to
 * SECURE; any other value is a 400 that names the two accepted.
 */
import type { GpuType } from "../../../catalog/index.ts";
import type { GpuStock } from "../../../domain/stock/index.ts";
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { problem } from "../../problem.ts";
import { respond } from "../../types.ts";
import type { GpuTypeEntry } from "./catalog-view-schemas.ts";

type CatalogCloud = "SECURE" | "COMMUNITY";

function priceIn(type: GpuType, cloud: CatalogCloud): number | null {
  if (cloud === "SECURE") return type.secureCloud ? type.securePrice : null;
  return type.communityCloud ? type.communityPrice : null;
}

export function gpuTypeEntries(types: readonly GpuType[], stock: GpuStock, cloud: CatalogCloud): GpuTypeEntry[] {
  const out: GpuTypeEntry[] = [];
  for (const type of types) {
    const price = priceIn(type, cloud);
    if (price === null) continue;
    out.push({
      id: type.id,
      displayName: type.displayName,
      manufacturer: type.manufacturer,
      memoryInGb: type.memoryInGb,
      maxGpuCount: type.maxGpuCount,
      cloud,
      price,
      stockStatus: stock.stockStatus(type.id, { cloud }),
      availableGpuCounts: stock.availableGpuCounts(type.id, { cloud }),
    });
  }
  return out;
}

export const listGpuTypes: Operation = ({ platform, request }) => {
  const raw = Object.hasOwn(request.query, "cloud") ? request.query.cloud : undefined;
  if (raw !== undefined && raw !== "SECURE" && raw !== "COMMUNITY") {
    return respond(
      problem(400, `The query parameter cloud is ${JSON.stringify(raw)}; send cloud=SECURE (the default) or cloud=COMMUNITY.`, {
        errors: [`?cloud must be SECURE or COMMUNITY, not ${JSON.stringify(raw)}.`],
      }),
    );
  }
  return respond(json(200, { gpus: gpuTypeEntries(platform.catalog.gpuTypes, platform.gpuStock, raw ?? "SECURE") }));
};
