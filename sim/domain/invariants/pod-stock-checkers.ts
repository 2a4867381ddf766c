/** Every stock and pod checker, with the state they read together (what a Platform holds). */
import type { Micros } from "../../core/index.ts";
import type { Catalog } from "../../catalog/index.ts";
import type { PodRegistry } from "../pods/index.ts";
import type { CpuStock, GpuStock } from "../stock/index.ts";
import { cpusConserved } from "./cpus-conserved.ts";
import { gpusConserved } from "./gpus-conserved.ts";
import { podActionsMatchStatus } from "./pod-actions.ts";
import { podCostRuntimeFollowStatus } from "./pod-cost-runtime.ts";
import { podHostFit } from "./pod-host-fit.ts";

export interface PodStockCheckState {
  readonly now: Micros;
  readonly catalog: Catalog;
  readonly stock: GpuStock;
  readonly cpuStock: CpuStock;
  readonly pods: PodRegistry;
}

export interface PodStockChecker {
  readonly id: string;
  readonly title: string;
  check(state: PodStockCheckState): string[];
}

export const POD_STOCK_CHECKERS: readonly PodStockChecker[] = Object.freeze([
  gpusConserved,
  cpusConserved,
  podActionsMatchStatus,
  podCostRuntimeFollowStatus,
  podHostFit,
]);

/** Runs every checker; messages are prefixed with the checker id. */
export function checkPodsAndStock(state: PodStockCheckState, checkers: readonly PodStockChecker[] = POD_STOCK_CHECKERS): string[] {
  const out: string[] = [];
  for (const c of checkers) for (const m of c.check(state)) out.push(`${c.id}: ${m}`);
  return out;
}
