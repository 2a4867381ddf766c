/**
 * The account's network volumes, read from where the target's facts say it lists them: a
 * collection, or a field of each data-center catalog entry (whose id is then the volume's data
 * center when the record does not say).
 */
import type { CheckContext } from "../check.ts";
import { readList } from "./read-list.ts";
import { missingFact } from "./target-facts.ts";

export interface ListedVolume {
  readonly id: string;
  readonly dataCenterId: string | undefined;
}

export type VolumeRead = { readonly volumes: readonly ListedVolume[]; readonly from: string } | { readonly missing: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

async function getList(ctx: CheckContext, path: string, field?: string): Promise<unknown[] | undefined> {
  return (await readList(ctx.client, { method: "GET", url: `${ctx.target.rest}${path}`, auth: { key: "api" } }, field))?.items;
}

export async function readNetworkVolumes(ctx: CheckContext): Promise<VolumeRead> {
  const fact = ctx.facts.networkVolumes;
  const source = fact.value;
  if (source === null) return { missing: missingFact("networkVolumes", fact.evidence) };
  if ("ids" in source) return { volumes: source.ids.map((v) => ({ id: v.id, dataCenterId: v.dataCenterId })), from: `the volume ids the --target-profile names` };
  if ("dataCenterField" in source) {
    const path = "/v2/catalog/datacenters";
    const dcs = await getList(ctx, path, "dataCenters");
    if (dcs === undefined) return { missing: missingFact("networkVolumes", `GET ${path} gave no list`) };
    const volumes = dcs.filter(isObject).flatMap((dc) => {
      const list = Array.isArray(dc[source.dataCenterField]) ? (dc[source.dataCenterField] as unknown[]) : [];
      return list.filter(isObject).flatMap((e) => (str(e["id"]) ? [{ id: str(e["id"])!, dataCenterId: str(e["dataCenterId"]) ?? str(dc["id"]) }] : []));
    });
    return { volumes, from: `the "${source.dataCenterField}" of GET ${path}'s entries` };
  }
  const list = await getList(ctx, source.path, source.field);
  if (list === undefined) return { missing: missingFact("networkVolumes", `GET ${source.path} (${fact.source}) gave no list`) };
  const volumes = list.filter(isObject).flatMap((e) => (str(e["id"]) ? [{ id: str(e["id"])!, dataCenterId: str(e["dataCenterId"]) }] : []));
  return { volumes, from: `GET ${source.path}` };
}
