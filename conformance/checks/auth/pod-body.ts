/**
 * A createPod body the target should accept, built from the target's own GPU catalog (the
 * spec's GraphQL `gpuTypes` query, with stock for one GPU), never from the emulator's ids. The
 * auth checks send it so that the key is the only thing wrong with a request: a target that
 * validates the body before the key would otherwise be judged on the body. Read once per run.
 */
import * as fc from "fast-check";
import type { CheckContext } from "../../check.ts";
import type { KeyRole } from "../../keys.ts";
import { graphqlRequest, is2xx } from "./target.ts";

export interface PodBody {
  readonly name: string;
  readonly image: string;
  readonly gpu: { readonly id: string; readonly count: number };
  readonly cloud: "SECURE" | "COMMUNITY";
}

interface GpuChoice {
  readonly id: string;
  readonly cloud: "SECURE" | "COMMUNITY";
}

const GPU_QUERY = "{ gpuTypes { id secureCloud communityCloud lowestPrice(input: {gpuCount: 1}) { stockStatus availableGpuCounts } } }";
const STOCK_ORDER = ["High", "Medium", "Low"];

const cache = new WeakMap<object, Promise<GpuChoice | undefined>>();

function pickGpu(json: unknown): GpuChoice | undefined {
  const types = (json as { data?: { gpuTypes?: unknown } } | undefined)?.data?.gpuTypes;
  if (!Array.isArray(types)) return undefined;
  const candidates: (GpuChoice & { rank: number })[] = [];
  for (const t of types as Record<string, unknown>[]) {
    if (typeof t?.id !== "string") continue;
    const price = t.lowestPrice as { stockStatus?: unknown; availableGpuCounts?: unknown } | null | undefined;
    const rank = STOCK_ORDER.indexOf(String(price?.stockStatus));
    if (rank < 0) continue;
    if (Array.isArray(price?.availableGpuCounts) && !price.availableGpuCounts.includes(1)) continue;
    const cloud = t.secureCloud !== false ? "SECURE" : t.communityCloud === true ? "COMMUNITY" : undefined;
    if (cloud) candidates.push({ id: t.id, cloud, rank });
  }
  candidates.sort((a, b) => a.rank - b.rank);
  return candidates[0] && { id: candidates[0].id, cloud: candidates[0].cloud };
}

async function readGpu(ctx: CheckContext): Promise<GpuChoice | undefined> {
  const role: KeyRole | undefined = (["api", "other", "restricted"] as const).find((r) => ctx.keys[r]);
  if (!role) return undefined;
  const res = await ctx.client.request(graphqlRequest(ctx, GPU_QUERY, { key: role, via: "query" }));
  return is2xx(res.status) ? pickGpu(res.json) : undefined;
}

/** The GPU type a createPod of this run uses, or undefined when the target's catalog offers none in stock. */
export function gpuChoice(ctx: CheckContext): Promise<GpuChoice | undefined> {
  let found = cache.get(ctx.options);
  if (!found) {
    found = readGpu(ctx);
    cache.set(ctx.options, found);
  }
  return found;
}

const podName = fc.stringMatching(/^cpsim-auth-[a-z0-9]{1,8}$/);

/** Valid createPod bodies for one GPU of the chosen type; names vary so shrinking has something to do. */
export function podBodyArb(gpu: GpuChoice): fc.Arbitrary<PodBody> {
  return podName.map((name) => podBody(gpu, name));
}

export function podBody(gpu: GpuChoice, name = "cpsim-auth"): PodBody {
  return { name, image: "ubuntu:22.04", gpu: { id: gpu.id, count: 1 }, cloud: gpu.cloud };
}
