/**
 * Harmless probes of the common conventions, cheapest first, for the facts the target's OpenAPI
 * document did not give. A probe only reads, or asks about a pod id that cannot exist: it never
 * creates, changes or deletes anything. Whether a route exists is told by comparing its answer
 * with the answer to a path nobody serves (`.../cpsim-no-such-route`): a target that knows the
 * route answers differently (404 "pod not found" against 404 "no route", a 400 against a 404).
 */
import type { ClientResponse, RequestSpec } from "../client.ts";
import { fieldOf, listOf } from "./read-list.ts";
import type { FactValues, VolumeSource } from "./target-facts.ts";

export { listOf };

/** Sends one probe; undefined when the target did not answer (a connection error). */
export type Prober = (spec: Omit<RequestSpec, "url"> & { readonly base: "rest" | "serverless"; readonly path: string }) => Promise<ClientResponse | undefined>;

export interface ProbeFinding<K extends keyof FactValues> {
  readonly value: FactValues[K];
  readonly evidence: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** A pod id no target has issued. */
export const PROBE_POD_ID = "cpsim-probe-0000000000";
const NO_ROUTE = "cpsim-no-such-route";

/** The answer with everything that names the request (its path, its last segment, the probe id) blanked. */
function shape(res: ClientResponse, path: string): string {
  // Fields that differ on every answer (request ids, times) say nothing about the route.
  const body = isObject(res.json) ? JSON.stringify(Object.entries(res.json).filter(([k]) => !/id$|time|trace|instance|request|date/i.test(k))) : res.text;
  let text = body.split(path).join("<path>");
  for (const word of [PROBE_POD_ID, path.split("/").pop() ?? ""]) if (word) text = text.split(word).join("<x>");
  return `${res.status} ${text}`;
}

/** Whether `method path` is a route of the target: it answers otherwise than a path nobody serves. */
async function routeExists(probe: Prober, method: string, path: string, json: unknown, noRoute: ClientResponse | undefined): Promise<boolean | undefined> {
  const res = await probe({ method, base: "rest", path, json, auth: { key: "api" } });
  if (!res || !noRoute) return undefined;
  if (res.status === 405 || res.status === 501) return false;
  return shape(res, path) !== shape(noRoute, `/v2/pods/${PROBE_POD_ID}/${NO_ROUTE}`);
}

export async function probePodActions(probe: Prober): Promise<ProbeFinding<"podActionPath"> | undefined> {
  const noRoute = await probe({ method: "POST", base: "rest", path: `/v2/pods/${PROBE_POD_ID}/${NO_ROUTE}`, json: {}, auth: { key: "api" } });
  const body = await routeExists(probe, "POST", `/v2/pods/${PROBE_POD_ID}/action`, { action: "stop" }, noRoute);
  if (body) return { value: "/v2/pods/{podId}/action", evidence: `POST /v2/pods/<unknown id>/action answered otherwise than a path nobody serves` };
  const inPath = await routeExists(probe, "POST", `/v2/pods/${PROBE_POD_ID}/stop`, {}, noRoute);
  if (inPath) return { value: "/v2/pods/{podId}/{action}", evidence: `POST /v2/pods/<unknown id>/stop answered otherwise than a path nobody serves` };
  // A custom method (`/{id}:stop`): against a target without one, the path is its pod route's, where POST is no method (405) or no route.
  const custom = await routeExists(probe, "POST", `/v2/pods/${PROBE_POD_ID}:stop`, {}, noRoute);
  if (custom) return { value: "/v2/pods/{podId}:{action}", evidence: `POST /v2/pods/<unknown id>:stop answered otherwise than a path nobody serves` };
  return undefined;
}

/** The methods an `Allow` header lists (RFC 9110 §10.2.1), upper case; undefined without one. */
export function allowedMethods(res: ClientResponse | undefined): Set<string> | undefined {
  const allow = res?.headers["allow"];
  return allow === undefined ? undefined : new Set(allow.split(",").map((m) => m.trim().toUpperCase()).filter(Boolean));
}

export async function probePodDelete(probe: Prober): Promise<ProbeFinding<"podDeletePath"> | undefined> {
  const res = await probe({ method: "DELETE", base: "rest", path: `/v2/pods/${PROBE_POD_ID}`, auth: { key: "api" } });
  if (!res) return undefined;
  if (res.status === 405 || res.status === 501) {
    const allow = allowedMethods(res);
    return { value: null, evidence: `DELETE /v2/pods/<unknown id> answered ${res.status}${allow ? ` (Allow: ${[...allow].join(", ")})` : ""}` };
  }
  // OPTIONS names the methods the route serves (`Allow`), whatever the 404 of an unknown id looks like.
  const options = await probe({ method: "OPTIONS", base: "rest", path: `/v2/pods/${PROBE_POD_ID}`, auth: { key: "api" } });
  const allow = options && options.status < 300 ? allowedMethods(options) : undefined;
  if (allow?.has("DELETE")) return { value: "/v2/pods/{podId}", evidence: `OPTIONS /v2/pods/<unknown id> answered Allow: ${[...allow].join(", ")}` };
  if (res.status === 404 || res.status === 410) {
    // A 404 is a fact only when it is not the answer to any path: one a made-up path gets alike
    // says "no such route", and no fact is found from it.
    const noRoutePath = `/v2/${NO_ROUTE}/${PROBE_POD_ID}`;
    const noRoute = await probe({ method: "DELETE", base: "rest", path: noRoutePath, auth: { key: "api" } });
    if (!noRoute || shape(res, `/v2/pods/${PROBE_POD_ID}`) === shape(noRoute, noRoutePath)) return undefined;
    return { value: "/v2/pods/{podId}", evidence: `DELETE /v2/pods/<unknown id> answered ${res.status}, unlike the made-up path DELETE ${noRoutePath} (${noRoute.status})` };
  }
  if (res.status >= 200 && res.status < 300) {
    return { value: "/v2/pods/{podId}", evidence: `DELETE /v2/pods/<unknown id> answered ${res.status}` };
  }
  return undefined;
}

async function firstList(probe: Prober, paths: readonly string[]): Promise<{ path: string; field?: string; list: unknown[] } | undefined> {
  for (const path of paths) {
    const res = await probe({ method: "GET", base: "rest", path, auth: { key: "api" } });
    if (res?.status !== 200) continue;
    const list = listOf(res.json);
    if (!list) continue;
    const field = fieldOf(res.json, list);
    return { path, ...(field ? { field } : {}), list };
  }
  return undefined;
}

export async function probePodList(probe: Prober): Promise<ProbeFinding<"podListPath"> | undefined> {
  const found = await firstList(probe, ["/v2/pods"]);
  return found ? { value: found.path, evidence: `GET ${found.path} answered 200 with a list` } : undefined;
}

const VOLUME_COLLECTIONS = ["/v2/networkvolumes", "/v2/network-volumes", "/v2/networkVolumes", "/v2/volumes"] as const;

/** A volume collection, else a field of the data-center catalog's entries holding volume records, else none. */
export async function probeNetworkVolumes(probe: Prober, dataCenterPath = "/v2/catalog/datacenters"): Promise<ProbeFinding<"networkVolumes"> | undefined> {
  const collection = await firstList(probe, VOLUME_COLLECTIONS);
  if (collection) {
    const value: VolumeSource = { path: collection.path, ...(collection.field ? { field: collection.field } : {}) };
    return { value, evidence: `GET ${collection.path} answered 200 with a list` };
  }
  const dcs = await firstList(probe, [dataCenterPath]);
  if (!dcs) return undefined;
  for (const entry of dcs.list.filter(isObject)) {
    const field = Object.keys(entry).find((k) => /volume/i.test(k) && Array.isArray(entry[k]) && (entry[k] as unknown[]).some((v) => isObject(v) && typeof v["id"] === "string"));
    if (field) return { value: { dataCenterField: field }, evidence: `the entries of GET ${dataCenterPath} list volume records under "${field}"` };
    // A link from the data center to its volumes (HAL, JSON:API, or a field holding the URL).
    const rel = volumeLinkOf(entry);
    if (rel) return { value: { dataCenterLink: rel }, evidence: `the entries of GET ${dataCenterPath} link to their volumes (relation "${rel}")` };
  }
  return { value: null, evidence: `none of ${VOLUME_COLLECTIONS.join(", ")} answers a list, and the data-center catalog's entries carry no volume records or links` };
}

/** The relation under which a data-center entry links to its volumes, if it does. */
export function volumeLinkOf(entry: Record<string, unknown>): string | undefined {
  const url = (v: unknown) => (typeof v === "string" && /^(https?:\/\/|\/)/i.test(v)) || (isObject(v) && typeof v["href"] === "string");
  for (const holder of [entry["_links"], entry["links"]].filter(isObject)) {
    const rel = Object.keys(holder).find((k) => /volume/i.test(k) && url(holder[k]));
    if (rel) return rel;
  }
  return Object.keys(entry).find((k) => /volume/i.test(k) && url(entry[k]));
}

/** The CPU flavor catalog: the first of the usual paths that answers 200 with a list. */
export async function probeCpuCatalog(probe: Prober): Promise<ProbeFinding<"cpuCatalogPath"> | undefined> {
  const found = await firstList(probe, ["/v2/catalog/cpus", "/v2/cpu-flavors", "/v2/catalog/cpu-flavors", "/v2/cpu-types"]);
  return found ? { value: found.path, evidence: `GET ${found.path} answered 200 with a list` } : undefined;
}

/** The data-center catalog: the first of the usual paths that answers 200 with a list. */
export async function probeDataCenterCatalog(probe: Prober): Promise<ProbeFinding<"dataCenterCatalogPath"> | undefined> {
  const found = await firstList(probe, ["/v2/catalog/datacenters", "/v2/datacenters", "/v2/data-centers"]);
  return found ? { value: found.path, evidence: `GET ${found.path} answered 200 with a list` } : undefined;
}

export async function probeGpuCatalog(probe: Prober): Promise<ProbeFinding<"gpuCatalogPath"> | undefined> {
  const found = await firstList(probe, ["/v2/catalog/gpus", "/v2/gpu-types", "/v2/gputypes"]);
  return found ? { value: found.path, evidence: `GET ${found.path} answered 200 with a list` } : undefined;
}

/** Slugs public image models are known under, most likely first. */
export const WELL_KNOWN_IMAGE_MODELS = [
  "flux-1-schnell",
  "black-forest-labs-flux-1-schnell",
  "flux-1-dev",
  "black-forest-labs-flux-1-dev",
  "sdxl-turbo",
  "stable-diffusion-xl",
  "sd3-medium",
] as const;
const MODEL_CATALOGS = ["/v2/catalog/models", "/v2/models", "/v2/public-endpoints"] as const;
const IMAGE_HINT = /image|flux|diffusion|sdxl|txt2img|text-to-image/i;

/** A public image model: from a model catalog when the target has one, else the first well-known slug whose health answers. */
export async function probeImageModel(probe: Prober): Promise<ProbeFinding<"imageModel"> | undefined> {
  const healthy = async (slug: string) => {
    const res = await probe({ method: "GET", base: "serverless", path: `/v2/${encodeURIComponent(slug)}/health`, auth: { key: "api" } });
    return res !== undefined && res.status >= 200 && res.status < 300;
  };
  const catalog = await firstList(probe, MODEL_CATALOGS);
  for (const entry of (catalog?.list ?? []).filter(isObject)) {
    const slug = [entry["slug"], entry["id"], entry["endpointId"]].find((v): v is string => typeof v === "string" && /^[A-Za-z0-9._~-]+$/.test(v));
    if (slug && IMAGE_HINT.test(JSON.stringify(entry)) && (await healthy(slug))) {
      return { value: slug, evidence: `GET ${catalog!.path} lists the image model "${slug}", and its health answers` };
    }
  }
  for (const slug of WELL_KNOWN_IMAGE_MODELS) {
    if (await healthy(slug)) return { value: slug, evidence: `GET /v2/${slug}/health answered 2xx` };
  }
  return { value: null, evidence: `no model catalog (${MODEL_CATALOGS.join(", ")}) lists an image model, and none of ${WELL_KNOWN_IMAGE_MODELS.join(", ")} answers its health` };
}

const REGISTRY_COLLECTIONS = ["/v2/containerregistryauth", "/v2/registries", "/v2/container-registry-auths"] as const;

/** The registry credentials' list: the first of the usual paths that answers 200 with a list. */
export async function probeRegistries(probe: Prober): Promise<ProbeFinding<"registriesPath"> | undefined> {
  const found = await firstList(probe, REGISTRY_COLLECTIONS);
  return found ? { value: found.path, evidence: `GET ${found.path} answered 200 with a list` } : { value: null, evidence: `none of ${REGISTRY_COLLECTIONS.join(", ")} answers a list` };
}
