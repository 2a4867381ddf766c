/**
 * Which GPU types to deploy on, read from the target's own `gpuTypes` answer (another
 * implementation names its types as it likes, so no id is ever hard-coded): types with stock
 * first (High, Medium, Low), cheapest first within a level so a run against a real platform
 * costs little; types the target says are out of stock last. Stock read here may be stale by
 * the time a pod is deployed; it only steers, and a refusal for capacity is never a verdict.
 */
import type { CheckContext } from "../../check.ts";
import { gql } from "./graphql-request.ts";
import { isObj, nonEmptyString } from "./json-shape.ts";

export interface GpuCandidate {
  readonly id: string;
  /** GPU counts the target says it could give now; undefined when it does not say. */
  readonly counts: readonly number[] | undefined;
  readonly stockStatus: string | undefined;
  readonly price: number | undefined;
}

const RANK: Readonly<Record<string, number>> = { High: 0, Medium: 1, Low: 2 };
const rank = (c: GpuCandidate): number => (c.stockStatus === "None" || c.counts?.length === 0 ? 9 : (RANK[c.stockStatus ?? ""] ?? 3));

const STOCK_QUERY = "{ gpuTypes { id lowestPrice(input: {gpuCount: 1}) { uninterruptablePrice stockStatus availableGpuCounts } } }";

/** The target's GPU types, most likely to deploy first; empty when it lists none. */
export async function gpuCandidates(ctx: CheckContext): Promise<GpuCandidate[]> {
  let answer = await gql(ctx, STOCK_QUERY);
  // A target that cannot answer the stock selection still names its types.
  if (!answer.ok) answer = await gql(ctx, "{ gpuTypes { id } }");
  const list = answer.data?.gpuTypes;
  const out: GpuCandidate[] = [];
  for (const t of Array.isArray(list) ? list : []) {
    if (!isObj(t) || !nonEmptyString(t.id)) continue;
    const lp = isObj(t.lowestPrice) ? t.lowestPrice : {};
    const counts = Array.isArray(lp.availableGpuCounts) && lp.availableGpuCounts.every((n) => Number.isInteger(n)) ? (lp.availableGpuCounts as number[]) : undefined;
    out.push({
      id: t.id,
      counts,
      stockStatus: typeof lp.stockStatus === "string" ? lp.stockStatus : undefined,
      price: typeof lp.uninterruptablePrice === "number" ? lp.uninterruptablePrice : undefined,
    });
  }
  return out.sort((a, b) => rank(a) - rank(b) || (a.price ?? Infinity) - (b.price ?? Infinity) || a.id.localeCompare(b.id));
}

/** Candidates that can take `gpuCount` GPUs as far as the target says; all of them when it says none can. */
export function candidatesFor(all: readonly GpuCandidate[], gpuCount: number): GpuCandidate[] {
  const fit = all.filter((c) => c.counts === undefined || c.counts.includes(gpuCount));
  return fit.length > 0 ? fit : [...all];
}

/** A GPU count the first candidates offer, chosen by `pick` among 1 and 2 (few GPUs: cheap). */
export function gpuCountFor(all: readonly GpuCandidate[], pick: number): number {
  const offered = new Set((all[0]?.counts ?? [1]).filter((n) => n >= 1 && n <= 2));
  const choices = [1, 2].filter((n) => n === 1 || offered.has(n));
  return choices[pick % choices.length];
}
