/**
 * `GET /v2/catalog/cpus` → `{"cpus": [{id, name, group, vcpu, ramGbPerVcpu, price, availability,
 * dataCenters}]}` (choices.md). Prices and sizes come from the catalog; availability from the
 * live CPU stock (pure reads: nothing is drawn, nothing changes).
 */
import type { CpuFlavor } from "../../../catalog/index.ts";
import type { CpuStock } from "../../../domain/stock/index.ts";
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { respond } from "../../types.ts";
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
