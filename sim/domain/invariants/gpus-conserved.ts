/**
 * GPUs are conserved per host: what the platform's live leases hold plus what outside tenants
 * hold is exactly the host's used count, never negative and never above the host's GPUs.
 * (free + used = total then holds by construction.)
 */
import type { GpuStock } from "../stock/index.ts";

export interface GpusConservedState {
  readonly stock: GpuStock;
}

export const gpusConserved = {
  id: "stock.gpus-conserved",
  title: "GPUs conserved per host: free + used = total, nothing negative",
  check(state: GpusConservedState): string[] {
    const stock = state.stock;
    const n = stock.hostCount;
    const leased = new Int32Array(n);
    const outside = new Int32Array(n);
    for (const lease of stock.liveLeases()) leased[lease.hostIndex] += lease.count;
    for (const [h, count] of stock.outsideLeases()) outside[h] += count;
    const out: string[] = [];
    for (let h = 0; h < n; h++) {
      const total = stock.total(h);
      const platform = stock.platformUsed(h);
      const outsideUsed = stock.outsideUsed(h);
      const free = stock.free(h);
      const host = stock.catalog.hosts[h]!;
      const expectedTotal = host.kind === "gpu" ? host.gpuCount : 0;
      if (total !== expectedTotal) out.push(`host ${host.id}: total ${total} GPUs, catalog says ${expectedTotal}`);
      if (platform < 0 || outsideUsed < 0 || free < 0) out.push(`host ${host.id}: negative count (platform ${platform}, outside ${outsideUsed}, free ${free})`);
      if (free + platform + outsideUsed !== total) out.push(`host ${host.id}: free ${free} + platform ${platform} + outside ${outsideUsed} != total ${total}`);
      if (leased[h] !== platform) out.push(`host ${host.id}: platform-used ${platform} but live leases hold ${leased[h]}`);
      if (outside[h] !== outsideUsed) out.push(`host ${host.id}: outside-used ${outsideUsed} but outside leases hold ${outside[h]}`);
    }
    return out;
  },
};
