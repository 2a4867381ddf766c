/**
 * `?include=AVAILABILITY` on one catalog entry (`GET /v2/catalog/gpus/{id}`, `GET /v2/catalog/cpus/{id}`),
 * as the newest apps client reads it: `dataCenters: [{id, availability}]`, `availability` one of
 * HIGH, MEDIUM, LOW, listing only the data centers where the asked configuration (a GPU count, a
 * vCPU count) has stock; the client takes a missing data center as NONE. `product` (POD or
 * SERVERLESS) is accepted and changes nothing: pods and workers draw on one stock in the model.
 */
import type { StockStatus } from "../../../domain/stock/index.ts";

export interface DataCenterAvailability {
  readonly id: string;
  readonly availability: "HIGH" | "MEDIUM" | "LOW";
}

/** True when the query's `include` (a comma list) names AVAILABILITY. */
export function wantsAvailability(query: Readonly<Record<string, string>>): boolean {
  return (query.include ?? "").split(",").some((part) => part.trim().toUpperCase() === "AVAILABILITY");
}

/** A positive whole number from the query, the default when absent, or undefined when malformed. */
export function countParam(text: string | undefined, fallback: number): number | undefined {
  if (text === undefined) return fallback;
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= 1024 ? n : undefined;
}

export function availabilityIn(dataCenterIds: readonly string[], status: (dataCenterId: string) => StockStatus): DataCenterAvailability[] {
  const out: DataCenterAvailability[] = [];
  for (const id of dataCenterIds) {
    const s = status(id);
    if (s !== "None") out.push({ id, availability: s.toUpperCase() as DataCenterAvailability["availability"] });
  }
  return out;
}
