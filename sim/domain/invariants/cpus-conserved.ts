/** vCPUs and memory are conserved per CPU host: live leases account for every used unit, within the host's size. */
import type { CpuStock } from "../stock/index.ts";

export interface CpusConservedState {
  readonly cpuStock: CpuStock;
}

export const cpusConserved = {
  id: "stock.cpus-conserved",
  title: "vCPUs and memory conserved per CPU host",
  check(state: CpusConservedState): string[] {
    const stock = state.cpuStock;
    const hosts = stock.catalog.hosts;
    const vcpu = new Int32Array(hosts.length);
    const mem = new Int32Array(hosts.length);
    for (const l of stock.liveLeases()) {
      vcpu[l.hostIndex] += l.vcpuCount;
      mem[l.hostIndex] += l.memoryInGb;
    }
    const out: string[] = [];
    hosts.forEach((host, h) => {
      const usedV = stock.usedVcpus(h);
      const usedM = stock.usedMemory(h);
      if (usedV !== vcpu[h] || usedM !== mem[h]) out.push(`host ${host.id}: used ${usedV} vCPU / ${usedM} GB, leases hold ${vcpu[h]} / ${mem[h]}`);
      if (stock.freeVcpus(h) < 0 || stock.freeMemory(h) < 0 || usedV < 0 || usedM < 0) {
        out.push(`host ${host.id}: negative count (free ${stock.freeVcpus(h)} vCPU, ${stock.freeMemory(h)} GB)`);
      }
    });
    return out;
  },
};
