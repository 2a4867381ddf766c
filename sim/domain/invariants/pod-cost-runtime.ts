/**
 * Cost, runtime and the host follow the status:
 *   cost is 0 exactly when EXITED or TERMINATED (the spec), and positive otherwise;
 *   runtime and startedAt are non-null exactly when RUNNING (the spec: "null when the pod is not RUNNING");
 *   the pod holds capacity on its host exactly in PROVISIONING, STARTING, RUNNING and ERROR.
 */
import type { Micros } from "../../core/index.ts";
import { podRestView, type PodRegistry } from "../pods/index.ts";

const FREE_STATUSES = new Set(["EXITED", "TERMINATED"]);

export interface PodCostRuntimeState {
  readonly pods: PodRegistry;
  readonly now: Micros;
}

export const podCostRuntimeFollowStatus = {
  id: "pods.cost-runtime-follow-status",
  title: "cost, runtime, startedAt and held capacity follow the status",
  check(state: PodCostRuntimeState): string[] {
    const out: string[] = [];
    for (const pod of state.pods.all()) {
      const v = podRestView(pod, state.now);
      const stopped = FREE_STATUSES.has(v.status);
      if (stopped && v.cost !== 0) out.push(`pod ${pod.id}: ${v.status} but cost ${v.cost}`);
      if (!stopped && !(v.cost > 0)) out.push(`pod ${pod.id}: ${v.status} but cost ${v.cost}`);
      const running = v.status === "RUNNING";
      if (running !== (v.runtime !== null)) out.push(`pod ${pod.id}: ${v.status} with runtime ${v.runtime === null ? "null" : "present"}`);
      if (running !== (v.startedAt !== null)) out.push(`pod ${pod.id}: ${v.status} with startedAt ${String(v.startedAt)}`);
      if (v.runtime && pod.gpu && v.runtime.gpus.length !== pod.gpu.count) out.push(`pod ${pod.id}: ${v.runtime.gpus.length} GPU samples for ${pod.gpu.count} GPUs`);
      const holds = pod.gpuLease !== undefined || pod.cpuLease !== undefined;
      if (holds === stopped) out.push(`pod ${pod.id}: ${v.status} ${holds ? "holds" : "does not hold"} capacity on its host`);
      if (Boolean(v.gpu) === Boolean(v.cpu)) out.push(`pod ${pod.id}: must carry exactly one of gpu and cpu`);
    }
    return out;
  },
};
