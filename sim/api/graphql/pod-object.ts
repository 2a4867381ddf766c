/**
 * The GraphQL Pod object of a pod: the domain's GraphQL view (every field, env as `KEY=value`),
 * with `machine` completed by the fields the schema adds: the data center, the free GPUs on the
 * pod's host now (null for CPU pods) and the maintenance window, which the model does not have
 * (null). graphql-js then keeps only what the document selected.
 */
import type { Micros } from "../../core/index.ts";
import { podGraphqlView, type PodGraphqlView, type PodRecord } from "../../domain/pods/index.ts";
import type { GpuStock } from "../../domain/stock/index.ts";

export interface MachineObject extends Readonly<PodGraphqlView["machine"]> {
  readonly dataCenterId: string;
  readonly gpuAvailable: number | null;
  readonly maintenanceStart: null;
  readonly maintenanceEnd: null;
  readonly maintenanceNote: null;
}

export type PodObject = Omit<PodGraphqlView, "machine"> & { readonly machine: MachineObject };

export function podObject(pod: PodRecord, now: Micros, stock: Pick<GpuStock, "free">): PodObject {
  const view = podGraphqlView(pod, now);
  return {
    ...view,
    machine: {
      ...view.machine,
      dataCenterId: pod.dataCenterId,
      gpuAvailable: pod.gpu ? stock.free(pod.hostIndex) : null,
      maintenanceStart: null,
      maintenanceEnd: null,
      maintenanceNote: null,
    },
  };
}
