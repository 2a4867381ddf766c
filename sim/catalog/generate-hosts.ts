/**
 * The generator of fixtures/catalog/hosts.json. Hundreds of host records are easier to review
 * as the plan below (how many hosts of which GPU type, cloud and size per data center) than as
 * JSON, and the plan keeps the fleet's shape deliberate: a few hundred GPUs of each popular
 * type, scarce H200 and MI300X, consumer cards mostly in the community cloud, some types in
 * one cloud only. Nothing here is random; the same plan always gives the same file, which
 * generate-hosts.part.test.ts checks against the committed JSON.
 *
 * Regenerate after editing the plan:  node --import tsx sim/catalog/generate-hosts.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CpuHostRecord, GpuHostRecord, HostRecord } from "./schema/host.ts";

interface GpuProfile {
  readonly id: string;
  /** Host resources per GPU: a host with n GPUs has n times these. */
  readonly vcpuPerGpu: number;
  readonly memoryGbPerGpu: number;
  /** The oldest CUDA version the part runs (Blackwell needs 12.8); null: AMD, no CUDA. */
  readonly minCuda: string | null;
}

export const GPU_PROFILES = {
  "4090": { id: "NVIDIA GeForce RTX 4090", vcpuPerGpu: 16, memoryGbPerGpu: 62, minCuda: "11.8" },
  "5090": { id: "NVIDIA GeForce RTX 5090", vcpuPerGpu: 16, memoryGbPerGpu: 92, minCuda: "12.8" },
  "3090": { id: "NVIDIA GeForce RTX 3090", vcpuPerGpu: 12, memoryGbPerGpu: 46, minCuda: "11.8" },
  "3080": { id: "NVIDIA GeForce RTX 3080", vcpuPerGpu: 8, memoryGbPerGpu: 30, minCuda: "11.8" },
  A5000: { id: "NVIDIA RTX A5000", vcpuPerGpu: 9, memoryGbPerGpu: 50, minCuda: "11.8" },
  A6000: { id: "NVIDIA RTX A6000", vcpuPerGpu: 12, memoryGbPerGpu: 62, minCuda: "11.8" },
  A40: { id: "NVIDIA A40", vcpuPerGpu: 9, memoryGbPerGpu: 50, minCuda: "11.8" },
  L4: { id: "NVIDIA L4", vcpuPerGpu: 12, memoryGbPerGpu: 50, minCuda: "11.8" },
  L40S: { id: "NVIDIA L40S", vcpuPerGpu: 16, memoryGbPerGpu: 94, minCuda: "11.8" },
  A100P: { id: "NVIDIA A100 80GB PCIe", vcpuPerGpu: 16, memoryGbPerGpu: 125, minCuda: "11.8" },
  A100S: { id: "NVIDIA A100-SXM4-80GB", vcpuPerGpu: 24, memoryGbPerGpu: 188, minCuda: "11.8" },
  H100P: { id: "NVIDIA H100 PCIe", vcpuPerGpu: 24, memoryGbPerGpu: 188, minCuda: "11.8" },
  H100S: { id: "NVIDIA H100 80GB HBM3", vcpuPerGpu: 32, memoryGbPerGpu: 250, minCuda: "11.8" },
  H100N: { id: "NVIDIA H100 NVL", vcpuPerGpu: 32, memoryGbPerGpu: 250, minCuda: "12.1" },
  H200: { id: "NVIDIA H200", vcpuPerGpu: 32, memoryGbPerGpu: 250, minCuda: "12.2" },
  MI300X: { id: "AMD Instinct MI300X OAM", vcpuPerGpu: 32, memoryGbPerGpu: 283, minCuda: null },
} as const satisfies Record<string, GpuProfile>;

type Alias = keyof typeof GPU_PROFILES;
/** S: secure cloud, C: community cloud. */
type CloudCode = "S" | "C";
/** [GPU type, cloud, GPUs per host, number of hosts]. */
type GpuRow = readonly [Alias, CloudCode, 1 | 2 | 4 | 8, number];
/** [CPU flavors served, vCPUs per host, GB of memory per host, number of hosts]; all secure cloud. */
type CpuRow = readonly [readonly string[], number, number, number];

interface DataCenterPlan {
  readonly gpu: readonly GpuRow[];
  readonly cpu: readonly CpuRow[];
}

const CPU3 = ["cpu3c", "cpu3g"];
const CPU5 = ["cpu5c", "cpu5g"];

export const HOST_PLAN: Readonly<Record<string, DataCenterPlan>> = {
  "US-TX-3": {
    gpu: [
      ["4090", "C", 8, 12], ["4090", "S", 8, 4], ["5090", "C", 8, 4], ["3090", "C", 8, 10], ["3090", "C", 4, 6],
      ["A5000", "C", 4, 10], ["A6000", "S", 8, 6], ["L40S", "S", 8, 8], ["A100S", "S", 8, 10],
      ["H100S", "S", 8, 12], ["H100P", "S", 4, 6], ["H200", "S", 8, 2], ["A40", "S", 8, 4],
    ],
    cpu: [[CPU3, 64, 256, 4], [["cpu3m"], 32, 256, 2], [CPU5, 96, 384, 3]],
  },
  "US-GA-1": {
    gpu: [
      ["4090", "C", 8, 8], ["3090", "C", 2, 10], ["A6000", "S", 8, 6], ["A6000", "C", 4, 6], ["L4", "S", 8, 5],
      ["L40S", "S", 8, 6], ["A100P", "S", 8, 6], ["A100S", "S", 8, 8], ["H100S", "S", 8, 10], ["H100N", "S", 8, 4],
      ["H200", "S", 8, 1], ["MI300X", "S", 8, 1],
    ],
    cpu: [[CPU3, 64, 256, 3], [["cpu3m"], 32, 256, 2]],
  },
  "US-KS-2": {
    gpu: [
      ["4090", "S", 8, 4], ["4090", "C", 4, 10], ["5090", "S", 8, 2], ["A5000", "S", 8, 6], ["A40", "S", 8, 8],
      ["L40S", "S", 8, 6], ["A100S", "S", 8, 8], ["H100P", "S", 8, 4], ["H100S", "S", 8, 8], ["H100N", "S", 8, 4],
      ["MI300X", "S", 8, 1],
    ],
    cpu: [[CPU3, 64, 256, 2], [CPU5, 96, 384, 3], [["cpu5m"], 32, 256, 2]],
  },
  "US-CA-2": {
    gpu: [
      ["4090", "C", 8, 6], ["3090", "C", 8, 6], ["3080", "C", 4, 10], ["A5000", "C", 2, 12], ["A6000", "C", 8, 4],
      ["A100P", "C", 8, 4], ["H100P", "C", 4, 4], ["L40S", "C", 4, 6],
    ],
    cpu: [],
  },
  "CA-MTL-1": {
    gpu: [
      ["4090", "C", 8, 4], ["3090", "C", 8, 4], ["3080", "C", 2, 10], ["A6000", "S", 8, 4], ["A40", "S", 8, 6],
      ["L4", "S", 4, 4], ["A100P", "S", 8, 4], ["A100S", "C", 8, 4], ["H100S", "C", 8, 4],
    ],
    cpu: [[CPU3, 64, 256, 2]],
  },
  "EU-RO-1": {
    gpu: [
      ["4090", "S", 8, 6], ["4090", "C", 8, 4], ["5090", "S", 8, 2], ["3090", "S", 4, 4], ["A5000", "S", 4, 6],
      ["A6000", "S", 8, 4], ["L40S", "S", 8, 6], ["L4", "S", 8, 2], ["A100P", "S", 8, 4], ["A100S", "S", 8, 6], ["H100S", "S", 8, 8],
      ["H100P", "S", 8, 2], ["H200", "S", 8, 1],
    ],
    cpu: [[CPU3, 64, 256, 3], [["cpu3m"], 32, 256, 1], [CPU5, 96, 384, 2], [["cpu5m"], 32, 256, 1]],
  },
  "EU-SE-1": {
    gpu: [
      ["4090", "C", 8, 4], ["3090", "C", 8, 4], ["3080", "C", 1, 8], ["A5000", "C", 4, 8], ["A40", "S", 8, 2],
      ["L40S", "C", 8, 4], ["A100S", "S", 8, 4], ["H100S", "C", 8, 4],
    ],
    cpu: [[CPU3, 64, 256, 2]],
  },
  "EUR-IS-1": {
    gpu: [
      ["4090", "S", 8, 2], ["5090", "C", 8, 2], ["A6000", "S", 4, 6], ["L40S", "S", 8, 2], ["A100S", "S", 8, 4],
      ["H100S", "S", 8, 4], ["H100N", "S", 8, 2],
    ],
    cpu: [[CPU5, 96, 384, 2]],
  },
  "AP-JP-1": {
    gpu: [["4090", "C", 8, 4], ["A6000", "S", 8, 2], ["L4", "S", 4, 2], ["A100S", "S", 8, 2], ["H100S", "S", 8, 2]],
    cpu: [],
  },
};

function cudaNumber(version: string): number {
  const [major, minor] = version.split(".").map(Number);
  return major * 1000 + minor;
}

/**
 * The CUDA versions handed out to a row's hosts in turn: newer versions more often, the way a
 * fleet is upgraded, but every eligible version present so `allowedCudaVersions` has old-driver
 * hosts to find.
 */
function cudaCycle(cudaVersions: readonly string[], minCuda: string): string[] {
  const eligible = cudaVersions.filter((v) => cudaNumber(v) >= cudaNumber(minCuda)).sort((a, b) => cudaNumber(b) - cudaNumber(a));
  if (eligible.length === 0) throw new Error(`no CUDA version >= ${minCuda} among ${cudaVersions.join(", ")}`);
  const weights = [4, 3, 2];
  return eligible.flatMap((v, i) => Array<string>(weights[i] ?? 1).fill(v));
}

/** The host records of a plan, data center by data center, GPU hosts first. */
export function generateHosts(
  dataCenters: readonly { readonly id: string; readonly cudaVersions: readonly string[] }[],
  plan: Readonly<Record<string, DataCenterPlan>> = HOST_PLAN,
): HostRecord[] {
  const hosts: HostRecord[] = [];
  let row = 0;
  for (const [dcId, { gpu, cpu }] of Object.entries(plan)) {
    const dc = dataCenters.find((d) => d.id === dcId);
    if (!dc) throw new Error(`the host plan names data center ${dcId}, which data-centers.json lacks`);
    const prefix = dcId.toLowerCase();
    let n = 0;
    for (const [alias, cloud, gpuCount, count] of gpu) {
      const profile: GpuProfile = GPU_PROFILES[alias];
      const cycle = profile.minCuda === null ? [] : cudaCycle(dc.cudaVersions, profile.minCuda);
      for (let k = 0; k < count; k++) {
        const host: GpuHostRecord = {
          id: `${prefix}-g${String(++n).padStart(3, "0")}`,
          kind: "gpu",
          dataCenterId: dcId,
          cloud: cloud === "S" ? "SECURE" : "COMMUNITY",
          gpuTypeId: profile.id,
          gpuCount,
          // Offsetting by the row index spreads versions across rows that have few hosts.
          cudaVersion: profile.minCuda === null ? null : cycle[(k + row) % cycle.length],
          vcpuCount: gpuCount * profile.vcpuPerGpu,
          memoryInGb: gpuCount * profile.memoryGbPerGpu,
        };
        hosts.push(host);
      }
      row++;
    }
    let c = 0;
    for (const [cpuFlavorIds, vcpuCount, memoryInGb, count] of cpu) {
      for (let k = 0; k < count; k++) {
        const host: CpuHostRecord = {
          id: `${prefix}-c${String(++c).padStart(2, "0")}`,
          kind: "cpu",
          dataCenterId: dcId,
          cloud: "SECURE",
          cpuFlavorIds: [...cpuFlavorIds],
          vcpuCount,
          memoryInGb,
        };
        hosts.push(host);
      }
    }
  }
  return hosts;
}

/** The file text: one host per line, so a plan change reads as a short diff. */
export function renderHostsFile(hosts: readonly HostRecord[]): string {
  const comment =
    "Generated by sim/catalog/generate-hosts.ts from its HOST_PLAN; edit the plan and regenerate " +
    "(node --import tsx sim/catalog/generate-hosts.ts) rather than this file.";
  const lines = hosts.map((h) => "    " + JSON.stringify(h));
  return `{\n  "$comment": ${JSON.stringify(comment)},\n  "hosts": [\n${lines.join(",\n")}\n  ]\n}\n`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = new URL("../../fixtures/catalog/", import.meta.url);
  const dataCenters = (JSON.parse(readFileSync(new URL("data-centers.json", dir), "utf8")) as { dataCenters: { id: string; cudaVersions: string[] }[] }).dataCenters;
  const hosts = generateHosts(dataCenters);
  writeFileSync(new URL("hosts.json", dir), renderHostsFile(hosts));
  process.stdout.write(`wrote ${hosts.length} hosts to fixtures/catalog/hosts.json\n`);
}
