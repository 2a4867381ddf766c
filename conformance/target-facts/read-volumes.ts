/**
 * The account's network volumes, read from where the target's facts say it lists them: a
 * collection, or a field of each data-center catalog entry (whose id is then the volume's data
 * center when the record does not say).
 */
import type { CheckContext } from "../check.ts";
import { readList } from "./read-list.ts";
import { fillPath, missingFact } from "./target-facts.ts";

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

/** Data centers whose own volume lists are read at most. */
const MAX_DATA_CENTERS = 20;

/** The link an entry gives under `rel`: HAL `_links`, JSON:API `links`, or a field holding the URL. */
function linkOf(entry: Record<string, unknown>, rel: string): string | undefined {
  for (const holder of [entry["_links"], entry["links"], entry]) {
    if (!isObject(holder)) continue;
    const v = holder[rel];
    if (typeof v === "string" && v !== "") return v;
    if (isObject(v) && typeof v["href"] === "string") return v["href"];
  }
  return undefined;
}

/** Each data center's own volumes: a path template, or the entry's link. */
async function readPerDataCenter(ctx: CheckContext, source: { readonly dataCenterPath: string } | { readonly dataCenterLink: string }, path: string): Promise<VolumeRead> {
  const dcs = await getList(ctx, path, "dataCenters");
  if (dcs === undefined) return { missing: missingFact("networkVolumes", `GET ${path} gave no list`) };
  const volumes: ListedVolume[] = [];
  for (const dc of dcs.filter(isObject).slice(0, MAX_DATA_CENTERS)) {
    const dcId = str(dc["id"]);
    if (dcId === undefined) continue;
    const href = "dataCenterPath" in source ? fillPath(source.dataCenterPath, { dataCenterId: dcId }) : linkOf(dc, source.dataCenterLink);
    if (href === undefined) continue;
    let url: string;
    try {
      url = new URL(href, `${ctx.target.rest}${path}`).href;
    } catch {
      continue;
    }
    // The key goes to the target's own origin only.
    if (new URL(url).origin !== new URL(ctx.target.rest).origin) continue;
    const list = (await readList(ctx.client, { method: "GET", url, auth: { key: "api" } }))?.items ?? [];
    for (const e of list.filter(isObject)) if (str(e["id"])) volumes.push({ id: str(e["id"])!, dataCenterId: str(e["dataCenterId"]) ?? dcId });
  }
  const how = "dataCenterPath" in source ? `GET ${source.dataCenterPath} for each data center` : `each data center's "${source.dataCenterLink}" link`;
  return { volumes, from: how };
}

export async function readNetworkVolumes(ctx: CheckContext): Promise<VolumeRead> {
  const fact = ctx.facts.networkVolumes;
  const source = fact.value;
  if (source === null) return { missing: missingFact("networkVolumes", fact.evidence) };
  if ("ids" in source) return { volumes: source.ids.map((v) => ({ id: v.id, dataCenterId: v.dataCenterId })), from: `the volume ids the --target-profile names` };
  const path = ctx.facts.dataCenterCatalogPath.value ?? "/v2/catalog/datacenters";
  if ("dataCenterPath" in source || "dataCenterLink" in source) return readPerDataCenter(ctx, source, path);
  if ("dataCenterField" in source) {
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
