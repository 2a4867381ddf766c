/**
 * `GET /v2/catalog/cpus` → `{"cpus": [{id, name, group, vcpu, ramGbPerVcpu, price, availability,
 * dataCenters}]}` (choices.md). Prices and sizes come from the catalog; availability from the
 * live CPU stock (pure reads: nothing is drawn, nothing changes).
 */
import type { CpuFlavor } from "../../../catalog/index.ts";
import type { CpuStock } from "../../../domain/stock/index.ts";
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { problem } from "../../problem.ts";
import { respond } from "../../types.ts";
import { availabilityIn, countParam, wantsAvailability } from "./catalog-availability.ts";
import type { CpuFlavorEntry } from "./catalog-view-schemas.ts";

export function cpuFlavorEntry(flavor: CpuFlavor, stock: CpuStock): CpuFlavorEntry {
  const allowed = [...flavor.vcpuCounts].sort((a, b) => a - b);
  return {
    id: flavor.id,
    name: flavor.name,
    group: flavor.group,
    vcpu: { min: allowed[0]!, max: allowed[allowed.length - 1]!, allowed },
    ramGbPerVcpu: flavor.ramGbPerVcpu,
    price: { perVcpuHour: flavor.pricePerVcpuHour, currency: "USD" },
    availability: {
      stockStatus: stock.stockStatus(flavor.id),
      availableVcpuCounts: allowed.filter((n) => stock.slots(flavor.id, n) > 0),
      byDataCenter: flavor.dataCenterIds.map((dataCenterId) => ({ dataCenterId, stockStatus: stock.stockStatus(flavor.id, { dataCenterId }) })),
    },
    dataCenters: [...flavor.dataCenterIds],
  };
}

export const listCpuFlavors: Operation = ({ platform }) =>
  respond(json(200, { cpus: platform.catalog.cpuFlavors.map((f) => cpuFlavorEntry(f, platform.cpuStock)) }));

/**
 * `GET /v2/catalog/cpus/{id}`: one entry of the list (404 for an unknown flavor). With
 * `include=AVAILABILITY`, `dataCenters` becomes `[{id, availability}]` for `vcpuCount` vCPUs
 * (default the flavor's smallest size), as the newest apps client reads it (catalog-availability.ts).
 */
export const getCpuFlavor: Operation = ({ platform, params, request }) => {
  const flavor = platform.catalog.cpuFlavors.find((f) => f.id === params.id);
  if (flavor === undefined) return respond(problem(404, `No CPU flavor ${JSON.stringify(params.id ?? "")}; list them with GET /v2/catalog/cpus.`));
  const entry = cpuFlavorEntry(flavor, platform.cpuStock);
  if (!wantsAvailability(request.query)) return respond(json(200, entry));
  const vcpuCount = countParam(request.query.vcpuCount, entry.vcpu.min);
  if (vcpuCount === undefined || !flavor.vcpuCounts.includes(vcpuCount)) {
    return respond(problem(400, `vcpuCount must be one of the flavor's sizes: ${entry.vcpu.allowed.join(", ")}.`));
  }
  const dataCenters = availabilityIn(flavor.dataCenterIds, (dataCenterId) => platform.cpuStock.stockStatus(flavor.id, { dataCenterId, vcpuCount }));
  return respond(json(200, { ...entry, dataCenters }));
};
