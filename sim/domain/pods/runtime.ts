/**
 * Live runtime values of a RUNNING pod: uptime, per-GPU and container utilization, port mappings.
 *
 * They are functions of (pod seed, time bucket), never draws, so reading a pod changes nothing.
 * Each pod has a workload profile fixed by its seed (a busy trainer near 90% or a notebook idling
 * near 20%), and within each bucket (10 s by default) the values wobble around it:
 *   GPU util     base 20..95,  +-15 per bucket
 *   GPU memory   base 10..90,  +-5
 *   CPU          base 5..60,   +-10
 *   memory       base 10..70,  +-5
 * all clamped to 0..100.
 */
import type { Micros } from "../../core/index.ts";
import { hashInts, intIn } from "./hash.ts";
import { hostPublicIp, podPrivateIp } from "./machine.ts";
import type { PodRecord } from "./pod-record.ts";

export interface GpuUtilization {
  readonly util: number;
  readonly memoryUtil: number;
}

export interface PortMapping {
  readonly privatePort: number;
  readonly publicPort: number | null;
  readonly type: string;
  readonly ip: string | null;
  readonly isIpPublic: boolean;
}

export interface RuntimeSample {
  readonly uptimeSeconds: number;
  readonly gpus: GpuUtilization[];
  readonly cpuUtil: number;
  readonly memoryUtil: number;
  readonly ports: PortMapping[];
}

const clamp = (x: number) => Math.max(0, Math.min(100, x));

/** Channels of the hash, so that no two values share an input. */
const Ch = { GpuBase: 1, GpuMemBase: 2, CpuBase: 3, MemBase: 4, Gpu: 5, GpuMem: 6, Cpu: 7, Mem: 8, Port: 9 } as const;

/** The runtime of a pod at `now`, or null unless it is RUNNING. */
export function runtimeSample(pod: PodRecord, now: Micros): RuntimeSample | null {
  if (pod.status !== "RUNNING" || pod.startedAt === null) return null;
  const s = pod.seed;
  const b = Math.floor(now / pod.runtimeBucket);
  const gpuBase = intIn(hashInts(s, Ch.GpuBase), 20, 95);
  const gpuMemBase = intIn(hashInts(s, Ch.GpuMemBase), 10, 90);
  const gpus: GpuUtilization[] = [];
  for (let g = 0; g < (pod.gpu?.count ?? 0); g++) {
    gpus.push({
      util: clamp(gpuBase + intIn(hashInts(s, Ch.Gpu, b, g), -15, 15)),
      memoryUtil: clamp(gpuMemBase + intIn(hashInts(s, Ch.GpuMem, b, g), -5, 5)),
    });
  }
  return {
    uptimeSeconds: Math.max(0, Math.floor((now - pod.startedAt) / 1_000_000)),
    gpus,
    cpuUtil: clamp(intIn(hashInts(s, Ch.CpuBase), 5, 60) + intIn(hashInts(s, Ch.Cpu, b), -10, 10)),
    memoryUtil: clamp(intIn(hashInts(s, Ch.MemBase), 10, 70) + intIn(hashInts(s, Ch.Mem, b), -5, 5)),
    ports: portMappings(pod),
  };
}

/**
 * Port mappings: HTTP ports go through the platform's proxy (the pod's private overlay address,
 * not public); TCP and UDP ports are exposed on the host's public address. Public ports are
 * fixed for one container start (they change when the pod restarts, as the real platform's do).
 */
export function portMappings(pod: PodRecord): PortMapping[] {
  const out: PortMapping[] = [];
  for (const entry of pod.ports) {
    const [portText, type = "tcp"] = entry.split("/");
    const privatePort = Number(portText);
    if (!Number.isInteger(privatePort)) continue;
    const proxied = type === "http";
    out.push({
      privatePort,
      publicPort: intIn(hashInts(pod.seed, Ch.Port, pod.starts, privatePort), 10000, 64999),
      type,
      ip: proxied ? podPrivateIp(pod.seed) : hostPublicIp(pod.hostId),
      isIpPublic: !proxied,
    });
  }
  return out;
}
