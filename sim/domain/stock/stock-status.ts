/**
 * How free stock reads as the platform's `stockStatus`.
 *
 * The unit is a "slot": one place where a pod of the asked size could start right now, counted
 * per host as floor(free GPUs / gpuCount) and summed over the hosts in scope (a GPU type, a cloud
 * or both, optionally one data center). Counting slots rather than free GPUs keeps the status
 * honest for multi-GPU requests: eight hosts with one free GPU each are High for one GPU and None
 * for two. The same rule reads CPU stock with vCPUs in place of GPUs.
 *
 * Thresholds (inclusive):
 *   None   0 slots
 *   Low    1..3 slots      ("very few GPUs are available", the spec's own words)
 *   Medium 4..11 slots
 *   High   12 or more slots
 */

export type StockStatus = "High" | "Medium" | "Low" | "None";

export const STOCK_STATUS_THRESHOLDS = Object.freeze({
  /** The most slots that still read Low. */
  lowMax: 3,
  /** The most slots that still read Medium; above is High. */
  mediumMax: 11,
});

export function stockStatusFor(slots: number): StockStatus {
  if (slots <= 0) return "None";
  if (slots <= STOCK_STATUS_THRESHOLDS.lowMax) return "Low";
  if (slots <= STOCK_STATUS_THRESHOLDS.mediumMax) return "Medium";
  return "High";
}

/** Powers of two 1, 2, 4, ... up to and including `max`: the GPU counts the platform offers. */
export function gpuCountSteps(max: number): number[] {
  const out: number[] = [];
  for (let n = 1; n <= max; n *= 2) out.push(n);
  return out;
}
