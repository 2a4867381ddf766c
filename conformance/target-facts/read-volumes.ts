/**
 * The account's network volumes, read from where the target's facts say it lists them: a
 * collection, or a field of each data-center catalog entry (whose id is then the volume's data
 * center when the record does not say).
 */
import type { CheckContext } from "../check.ts";
import { listOf } from "./probe-facts.ts";
import { missingFact } from "./target-facts.ts";

export interface ListedVolume {
  readonly id: string;
  readonly dataCenterId: string | undefined;
}

export type VolumeRead = { readonly volumes: readonly ListedVolume[]; readonly from: string } | { readonly missing: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

async function getJson(ctx: CheckContext, path: string): Promise<unknown> {
  const res = await ctx.client.request({ method: "GET", url: `${ctx.target.rest}${path}`, auth: { key: "api" } });
  return res.status === 200 ? res.json : undefined;
}

export async function readNetworkVolumes(ctx: CheckContext): Promise<VolumeRead> {
  const fact = ctx.facts.networkVolumes;
  const source = fact.value;
  if (source === null) return { missing: missingFact("networkVolumes", fact.evidence) };
  if ("dataCenterField" in source) {
    const path = "/v2/catalog/datacenters";
    const dcs = listOf(await getJson(ctx, path), "dataCenters") ?? listOf(await getJson(ctx, path));
    if (dcs === undefined) return { missing: missingFact("networkVolumes", `GET ${path} gave no list`) };
    const volumes = dcs.filter(isObject).flatMap((dc) => {
      const list = Array.isArray(dc[source.dataCenterField]) ? (dc[source.dataCenterField] as unknown[]) : [];
      return list.filter(isObject).flatMap((e) => (str(e["id"]) ? [{ id: str(e["id"])!, dataCenterId: str(e["dataCenterId"]) ?? str(dc["id"]) }] : []));
    });
    return { volumes, from: `the "${source.dataCenterField}" of GET ${path}'s entries` };
  }
  const json = await getJson(ctx, source.path);
  const list = (source.field !== undefined ? listOf(json, source.field) : undefined) ?? listOf(json);
  if (list === undefined) return { missing: missingFact("networkVolumes", `GET ${source.path} (${fact.source}) gave no list`) };
  const volumes = list.filter(isObject).flatMap((e) => (str(e["id"]) ? [{ id: str(e["id"])!, dataCenterId: str(e["dataCenterId"]) }] : []));
  return { volumes, from: `GET ${source.path}` };
}
