/**
 * What the pod checks need to know of the target: its GPU types, CPU flavors, data centers and
 * the account's network volumes, read from the target itself (never the emulator's fixtures), as
 * the ArbitraryCatalog that sim/api/validate's generators draw from. The catalog routes are
 * choices.md's, the volume list the real platform's: a target without one of them still gets
 * pods to test, only fewer kinds of them, and the reason is kept for the skips it causes.
 */
import { flavorVcpuCounts } from "./flavor-vcpu-counts.ts";
import { readGlobalNetwork } from "./global-network-reading.ts";
import type { ArbitraryCatalog } from "../../../sim/api/validate/index.ts";
import type { CheckContext } from "../../check.ts";
import { readList, readNetworkVolumes } from "../../target-facts/index.ts";
import { volumeAcceptedInCreate } from "./accepted-volume.ts";

export interface TargetVolume {
  readonly id: string;
  /** Undefined when the target's volume record does not say. */
  readonly dataCenterId: string | undefined;
}

export interface TargetCatalog {
  /** GPU types most likely to have stock first, CPU flavors, data centers, volumes with a data center. */
  readonly catalog: ArbitraryCatalog;
  /** The account's network volumes, or undefined when the target does not list them. */
  readonly volumes: readonly TargetVolume[] | undefined;
  /** Why something could not be read, for skip reasons. */
  readonly notes: readonly string[];
}

/** How many GPU types the generators may pick from: the best-stocked few, so creates mostly succeed. */
const MAX_GPU_TYPES = 4;
const MAX_CPU_FLAVORS = 3;
const STOCK_RANK: Readonly<Record<string, number>> = { High: 0, Medium: 1, Low: 2, None: 4 };
const NVIDIA_HINT = /nvidia|geforce|rtx|tesla|\b[ahl]\d{2,3}\b|a100|h100|h200|l40/i;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The list a GET answers: under `key` (choices.md's field), else the body itself or its only array. */
async function getList(ctx: CheckContext, path: string, key?: string): Promise<unknown[] | undefined> {
  return (await readList(ctx.client, { method: "GET", url: `${ctx.target.rest}${path}`, auth: { key: "api" } }, key))?.items;
}

function stockRank(entry: Json): number {
  const availability = isObject(entry.availability) ? entry.availability : entry;
  const status = str(availability.stockStatus);
  return status === undefined ? 3 : (STOCK_RANK[status] ?? 3);
}

/** GPU types from the REST catalog (choices.md), else from GraphQL `gpuTypes` (the spec's own). */
async function gpuTypes(ctx: CheckContext, notes: string[]): Promise<ArbitraryCatalog["gpuTypes"]> {
  const catalogPath = ctx.facts.gpuCatalogPath.value;
  let entries = catalogPath === null ? undefined : await getList(ctx, catalogPath, "gpus");
  if (entries === undefined) {
    const res = await ctx.client.request({
      method: "POST",
      url: `${ctx.target.rest}/graphql`,
      auth: { key: "api", via: "query" },
      json: { query: "query { gpuTypes { id displayName memoryInGb } }" },
    });
    const data = isObject(res.json) && isObject(res.json.data) ? res.json.data.gpuTypes : undefined;
    entries = Array.isArray(data) ? data : [];
    if (entries.length === 0) notes.push("the target lists no GPU types (GET /v2/catalog/gpus, GraphQL gpuTypes)");
  }
  return entries
    .filter(isObject)
    .filter((e) => str(e.id) !== undefined && stockRank(e) < 4)
    .sort((a, b) => stockRank(a) - stockRank(b))
    .slice(0, MAX_GPU_TYPES)
    .map((e) => {
      const named = str(e.manufacturer);
      const guess = NVIDIA_HINT.test(`${str(e.id)} ${str(e.displayName) ?? ""}`) ? "Nvidia" : "unknown";
      return { id: str(e.id)!, manufacturer: named ?? guess };
    });
}

async function cpuFlavors(ctx: CheckContext, notes: string[]): Promise<ArbitraryCatalog["cpuFlavors"]> {
  const path = ctx.facts.cpuCatalogPath.value;
  const entries = path === null ? undefined : await getList(ctx, path, "cpus");
  if (entries === undefined) notes.push(`the target does not list CPU flavors (${path === null ? "it has no CPU catalog" : `GET ${path}`}), so no CPU pod was created`);
  return (entries ?? [])
    .filter(isObject)
    .filter((e) => str(e.id) !== undefined && stockRank(e) < 4)
    .sort((a, b) => stockRank(a) - stockRank(b))
    .slice(0, MAX_CPU_FLAVORS)
    .map((e) => ({ id: str(e.id)!, vcpuCounts: (flavorVcpuCounts(e) ?? []).slice(0, 3) }))
    .filter((f) => f.vcpuCounts.length > 0);
}

async function dataCenters(ctx: CheckContext): Promise<ArbitraryCatalog["dataCenters"]> {
  const path = ctx.facts.dataCenterCatalogPath.value;
  const entries = (path === null ? undefined : await getList(ctx, path, "dataCenters")) ?? [];
  return entries.filter(isObject).flatMap((e) => (str(e.id) ? [{ id: str(e.id)!, globalNetwork: readGlobalNetwork(e.globalNetwork) === "eligible" }] : []));
}

async function networkVolumes(ctx: CheckContext, notes: string[], computes: readonly Record<string, unknown>[]): Promise<TargetVolume[] | undefined> {
  const read = await readNetworkVolumes(ctx);
  if (!("missing" in read) && read.volumes.length > 0) return [...read.volumes];
  // None listed: a volume id the target itself accepts in a create, if it takes one.
  const accepted = await volumeAcceptedInCreate(ctx, computes);
  if ("id" in accepted) return [{ id: accepted.id, dataCenterId: accepted.dataCenterId }];
  if ("missing" in read) {
    notes.push(`${read.missing}; ${accepted.reason}; so no pod with a network mount was created`);
    return undefined;
  }
  notes.push(`the account has no network volume (${accepted.reason}), so no pod with a network mount was created`);
  return [];
}

export async function readTargetCatalog(ctx: CheckContext): Promise<TargetCatalog> {
  const notes: string[] = [];
  const gpus = await gpuTypes(ctx, notes);
  const cpus = await cpuFlavors(ctx, notes);
  const dcs = await dataCenters(ctx);
  const computes = [
    ...cpus.slice(0, 1).map((c) => ({ cpu: { id: c.id, vcpuCount: c.vcpuCounts[0] } })),
    ...gpus.slice(0, 1).map((g) => ({ gpu: { id: g.id } })),
  ];
  const volumes = await networkVolumes(ctx, notes, computes);
  const withDc = (volumes ?? []).flatMap((v) => (v.dataCenterId ? [{ id: v.id, dataCenterId: v.dataCenterId }] : []));
  return { catalog: { gpuTypes: gpus, cpuFlavors: cpus, dataCenters: dcs, networkVolumes: withDc }, volumes, notes };
}
