/**
 * The spec's Pod record (createPod, getPod, listPods, updatePod, the actions) of a pod at `now`:
 * every required field, `gpu` on GPU pods and `cpu` on CPU pods, never both. A pure function of
 * the record and the time; it copies what it hands out, so a caller may keep or change the result.
 */
import type { Micros } from "../../core/index.ts";
import { isoFromMicros } from "../iso-time.ts";
import { costPerHour } from "./cost.ts";
import type { PodMounts, PodRecord } from "./pod-record.ts";
import { actionsFor, type PodAction, type PodStatus } from "./pod-status.ts";
import { runtimeSample } from "./runtime.ts";

export interface PodRestRuntime {
  uptime: number;
  gpus: Array<{ util: number; memoryUtil: number }>;
  cpu: { util: number };
  memory: { util: number };
  ports: Array<{ private: number; public: number | null; type: string; ip: string | null }>;
}

export interface PodRestView {
  id: string;
  name: string;
  status: PodStatus;
  actions: PodAction[];
  image: string;
  args: string;
  disk: number;
  mounts: {
    persistent?: { size: number; path: string };
    network?: Array<{ volumeId: string; path: string }>;
  };
  ports: string[];
  env: Record<string, string>;
  registry: string | null;
  gpu?: { id: string; count: number };
  cpu?: { id: string; vcpuCount: number; memory: number };
  cloud: "SECURE" | "COMMUNITY";
  dataCenterId: string | null;
  template: string | null;
  cost: number;
  locked: boolean;
  globalNetworking: { enabled: boolean; ip?: string; internalDns?: string };
  runtime: PodRestRuntime | null;
  createdAt: string;
  startedAt: string | null;
}

export function copyMounts(m: PodMounts): PodRestView["mounts"] {
  const out: PodRestView["mounts"] = {};
  if (m.persistent) out.persistent = { size: m.persistent.size, path: m.persistent.path };
  if (m.network) out.network = m.network.map((n) => ({ volumeId: n.volumeId, path: n.path }));
  return out;
}

export function podRestView(pod: PodRecord, now: Micros): PodRestView {
  const sample = runtimeSample(pod, now);
  const view: PodRestView = {
    id: pod.id,
    name: pod.name,
    status: pod.status,
    actions: actionsFor(pod.status),
    image: pod.image,
    args: pod.args,
    disk: pod.disk,
    mounts: copyMounts(pod.mounts),
    ports: [...pod.ports],
    env: { ...pod.env },
    registry: pod.registry,
    cloud: pod.cloud,
    dataCenterId: pod.dataCenterId,
    template: pod.template,
    cost: costPerHour(pod),
    locked: pod.locked,
    globalNetworking: pod.globalAddress
      ? { enabled: true, ip: pod.globalAddress.ip, internalDns: pod.globalAddress.internalDns }
      : { enabled: false },
    runtime: sample && {
      uptime: sample.uptimeSeconds,
      gpus: sample.gpus.map((g) => ({ util: g.util, memoryUtil: g.memoryUtil })),
      cpu: { util: sample.cpuUtil },
      memory: { util: sample.memoryUtil },
      ports: sample.ports.map((p) => ({ private: p.privatePort, public: p.publicPort, type: p.type, ip: p.ip })),
    },
    createdAt: isoFromMicros(pod.createdAt, pod.epochMs),
    startedAt: pod.startedAt === null ? null : isoFromMicros(pod.startedAt, pod.epochMs),
  };
  if (pod.gpu) view.gpu = { id: pod.gpu.id, count: pod.gpu.count };
  if (pod.cpu) view.cpu = { id: pod.cpu.id, vcpuCount: pod.cpu.vcpuCount, memory: pod.cpu.memory };
  return view;
}
