/**
 * Catalog answers as a point of the open-choice space types them (its `globalNetwork` and
 * `catalogNumbers` dimensions): the emulator's GET /v2/catalog/* bodies with the data centers'
 * `globalNetwork` and the records' numbers in the point's JSON types. Applied before the list is
 * put in the point's envelope, so an envelope's own members (`count`) keep their type.
 */
import type { ApiResponse } from "../api/types.ts";
import type { Conventions } from "./dimensions.ts";

type Json = Record<string, unknown>;
const isPlain = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const MAX_DEPTH = 8;
const NETWORK_RANGE = "10.64.0.0/10";
const PRICE = /price|perVcpuHour|cost/i;

/** `globalNetwork` as the point spells it; undefined drops the member. */
function globalNetwork(c: Conventions, eligible: boolean): unknown {
  switch (c.globalNetwork) {
    case "boolean":
      return eligible;
    case "only-eligible":
      return eligible ? true : undefined;
    case "string":
      return eligible ? "enabled" : "disabled";
    case "object":
      return eligible ? { enabled: true, cidr: NETWORK_RANGE } : { enabled: false };
    case "range":
      return eligible ? NETWORK_RANGE : null;
  }
}

function numberAs(c: Conventions, key: string | undefined, n: number): unknown {
  if (c.catalogNumbers === "string") return String(n);
  if (c.catalogNumbers === "money-string" && key !== undefined && PRICE.test(key)) return n.toFixed(4);
  return n;
}

function typed(c: Conventions, value: unknown, key: string | undefined, depth: number): unknown {
  if (depth > MAX_DEPTH) return value;
  if (typeof value === "number") return numberAs(c, key, value);
  if (Array.isArray(value)) return value.map((v) => typed(c, v, key, depth + 1));
  if (!isPlain(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "globalNetwork" && typeof v === "boolean") {
      const spelt = globalNetwork(c, v);
      if (spelt !== undefined) out[k] = spelt;
      continue;
    }
    out[k] = typed(c, v, k, depth + 1);
  }
  return out;
}

/** Whether `c` types catalog answers otherwise than the emulator. */
export const retypesCatalog = (c: Conventions): boolean => c.globalNetwork !== "boolean" || c.catalogNumbers !== "number";

/** The answer to GET `path` (the emulator's path) as `c` types it. */
export function catalogAnswer(c: Conventions, method: string, path: string, r: ApiResponse): ApiResponse {
  if (method !== "GET" || !path.startsWith("/v2/catalog/") || r.status !== 200 || r.body === undefined || !retypesCatalog(c)) return r;
  return { ...r, body: typed(c, r.body, undefined, 0) };
}
