/**
 * The platform's serverless GPU pools (`AMPERE_16`, `ADA_24`, ...), which the official clients
 * send where the model wants GPU type ids. Each pool lists the GPU types the real platform puts
 * in it; a pool none of whose types the catalog holds falls back to the catalog's smallest GPUs
 * with at least the pool's memory (the number in its name), so the clients' default
 * `AMPERE_16` still finds workers. A GPU type id is accepted as itself, and `-<type>` excludes one.
 */
import type { Catalog } from "../../catalog/index.ts";

export const GPU_POOLS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  AMPERE_16: ["NVIDIA RTX A4000", "NVIDIA RTX A4500", "NVIDIA RTX 4000 Ada Generation", "NVIDIA RTX 2000 Ada Generation"],
  AMPERE_24: ["NVIDIA RTX A5000", "NVIDIA L4", "NVIDIA GeForce RTX 3090"],
  ADA_24: ["NVIDIA GeForce RTX 4090"],
  ADA_32_PRO: ["NVIDIA GeForce RTX 5090"],
  AMPERE_48: ["NVIDIA RTX A6000", "NVIDIA A40"],
  ADA_48_PRO: ["NVIDIA L40S", "NVIDIA L40", "NVIDIA RTX 6000 Ada Generation"],
  AMPERE_80: ["NVIDIA A100 80GB PCIe", "NVIDIA A100-SXM4-80GB"],
  ADA_80_PRO: ["NVIDIA H100 PCIe", "NVIDIA H100 80GB HBM3", "NVIDIA H100 NVL"],
  HOPPER_141: ["NVIDIA H200"],
  BLACKWELL_96: ["NVIDIA RTX PRO 6000 Blackwell Server Edition", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition"],
  BLACKWELL_180: ["NVIDIA B200"],
});

export type GpuIdsResult = { readonly ok: true; readonly gpuTypeIds: string[] } | { readonly ok: false; readonly message: string };

function poolMembers(pool: string, catalog: Catalog): string[] {
  const known = new Set(catalog.gpuTypes.map((g) => g.id));
  const members = (GPU_POOLS[pool] ?? []).filter((id) => known.has(id));
  if (members.length > 0) return members;
  const memory = Number(/_(\d+)/.exec(pool)?.[1] ?? 0);
  const bigEnough = catalog.gpuTypes.filter((g) => g.memoryInGb >= memory);
  const least = Math.min(...bigEnough.map((g) => g.memoryInGb));
  return bigEnough.filter((g) => g.memoryInGb === least).map((g) => g.id);
}

/** Resolves pools and type ids, in order and without repeats, minus the excluded types. */
export function resolveGpuIds(entries: readonly string[], catalog: Catalog): GpuIdsResult {
  const out: string[] = [];
  const excluded = new Set<string>();
  const known = new Set(catalog.gpuTypes.map((g) => g.id));
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === "") continue;
    if (entry.startsWith("-")) {
      excluded.add(entry.slice(1).trim());
      continue;
    }
    let ids: string[];
    if (known.has(entry)) ids = [entry];
    else if (entry in GPU_POOLS) ids = poolMembers(entry, catalog);
    else return { ok: false, message: `unknown GPU pool or type ${JSON.stringify(entry)}; use a pool (${Object.keys(GPU_POOLS).join(", ")}) or a GPU type id from GET /v2/catalog/gpus` };
    for (const id of ids) if (!out.includes(id)) out.push(id);
  }
  const kept = out.filter((id) => !excluded.has(id));
  if (kept.length === 0) return { ok: false, message: "no GPU type is left once the exclusions are applied; name at least one pool or GPU type" };
  return { ok: true, gpuTypeIds: kept };
}

/** The pool string the GraphQL `gpuIds` field reads back: the pools (or type ids) as sent, comma-separated. */
export function splitGpuIds(value: string): string[] {
  return value.split(",").map((s) => s.trim()).filter((s) => s !== "");
}
