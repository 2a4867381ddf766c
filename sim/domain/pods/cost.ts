/**
 * Cost per hour of a pod: its GPUs (the host cloud's per-GPU price times the count) or its vCPUs
 * (the flavor's per-vCPU price times the count), plus storage (container disk and a persistent
 * volume at storagePricePerGbMonth, default USD 0.10 per GB-month, over 730 hours a month).
 * Network volumes are billed on the volume, not the pod. 0.0 when EXITED or TERMINATED, as the
 * spec says; an ERROR pod still holds its machine and keeps costing. Rounded to 1e-6 USD so that
 * the sum of a few floats prints cleanly.
 */
import type { PodRecord } from "./pod-record.ts";

export function costPerHour(pod: PodRecord): number {
  if (pod.status === "EXITED" || pod.status === "TERMINATED") return 0;
  const storageGb = pod.disk + (pod.mounts.persistent?.size ?? 0);
  return Math.round((pod.computePricePerHour + storageGb * pod.storagePricePerGbHour) * 1e6) / 1e6;
}
