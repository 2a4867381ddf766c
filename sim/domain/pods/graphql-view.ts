/**
 * The GraphQL Pod of a pod at `now`: the spec's fields (id, name, imageName, env as `KEY=value`,
 * machineId, machine { podHostId }, desiredStatus, runtime) and those official clients also select
 * (choices.md). Every field is present; the resolver picks what the query selected.
 *
 * Choices: desiredStatus is RUNNING for every status but EXITED and TERMINATED (it is what the
 * user asked for, and an ERROR pod was asked to run); podType is RESERVED (on-demand) for every
 * pod; dockerId is the current container's id while the pod holds its host, else null;
 * volumeInGb is the persistent mount's size (network volumes are not the pod's volume).
 */
import type { Micros } from "../../core/index.ts";
import { costPerHour } from "./cost.ts";
import { hexFrom } from "./hash.ts";
import type { PodRecord } from "./pod-record.ts";
import { HOLDING_STATUSES, desiredStatusOf } from "./pod-status.ts";
import { runtimeSample } from "./runtime.ts";
import { statusChangeText } from "./status-text.ts";

export interface GraphqlPortView {
  ip: string | null;
  isIpPublic: boolean;
  privatePort: number;
  publicPort: number | null;
  type: string;
}

export interface GraphqlRuntimeView {
  uptimeInSeconds: number;
  ports: GraphqlPortView[];
  gpus: Array<{ id: string; gpuUtilPercent: number; memoryUtilPercent: number }>;
  container: { cpuPercent: number; memoryPercent: number };
}

export interface PodGraphqlView {
  id: string;
  name: string;
  imageName: string;
  env: string[];
  machineId: string;
  machine: { podHostId: string; gpuDisplayName: string | null };
  desiredStatus: "RUNNING" | "EXITED" | "TERMINATED";
  runtime: GraphqlRuntimeView | null;
  costPerHr: number;
  lastStatusChange: string;
  gpuCount: number;
  vcpuCount: number;
  memoryInGb: number;
  containerDiskInGb: number;
  volumeInGb: number;
  uptimeSeconds: number;
  dockerArgs: string;
  dockerId: string | null;
  podType: "RESERVED";
  port: number | null;
  ports: string;
  volumeMountPath: string | null;
}

/** A GPU's id as the platform shows it: `GPU-` and a UUID-shaped hex string, stable per pod and index. */
function gpuId(pod: PodRecord, index: number): string {
  const h = hexFrom(`gpu:${pod.id}:${index}`, 32);
  return `GPU-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export function podGraphqlView(pod: PodRecord, now: Micros): PodGraphqlView {
  const sample = runtimeSample(pod, now);
  const firstPort = pod.ports.length > 0 ? Number(pod.ports[0]!.split("/")[0]) : NaN;
  return {
    id: pod.id,
    name: pod.name,
    imageName: pod.image,
    env: Object.entries(pod.env).map(([k, v]) => `${k}=${v}`),
    machineId: pod.machineId,
    machine: { podHostId: pod.podHostId, gpuDisplayName: pod.gpu?.displayName ?? null },
    desiredStatus: desiredStatusOf(pod.status),
    runtime: sample && {
      uptimeInSeconds: sample.uptimeSeconds,
      ports: sample.ports.map((p) => ({ ip: p.ip, isIpPublic: p.isIpPublic, privatePort: p.privatePort, publicPort: p.publicPort, type: p.type })),
      gpus: sample.gpus.map((g, i) => ({ id: gpuId(pod, i), gpuUtilPercent: g.util, memoryUtilPercent: g.memoryUtil })),
      container: { cpuPercent: sample.cpuUtil, memoryPercent: sample.memoryUtil },
    },
    costPerHr: costPerHour(pod),
    lastStatusChange: statusChangeText(pod.lastStatusVerb, pod.epochMs + Math.floor(pod.lastStatusChange / 1000)),
    gpuCount: pod.gpu?.count ?? 0,
    vcpuCount: pod.vcpuCount,
    memoryInGb: pod.memoryInGb,
    containerDiskInGb: pod.disk,
    volumeInGb: pod.mounts.persistent?.size ?? 0,
    uptimeSeconds: sample?.uptimeSeconds ?? 0,
    dockerArgs: pod.args,
    dockerId: HOLDING_STATUSES.has(pod.status) ? hexFrom(`container:${pod.id}:${pod.starts}`, 12) : null,
    podType: "RESERVED",
    port: Number.isInteger(firstPort) ? firstPort : null,
    ports: pod.ports.join(","),
    volumeMountPath: pod.mounts.persistent?.path ?? pod.mounts.network?.[0]?.path ?? null,
  };
}
