/**
 * Facts read from the target's own OpenAPI document (3.0, 3.1 or Swagger 2.0; service-description.ts
 * finds it and reads JSON or YAML): its pod action, delete and list operations, its network-volume
 * collection (or each data center's), its GPU, CPU and data-center catalogs, its registry credentials' list, and the REST groups it serves (templates, endpoints,
 * registries, volumes ... under whatever names: none may be a job endpoint's id). Only a document that describes pods is read (a document of another API says nothing
 * about this one); path parameters are renamed to the suite's `{podId}` and `{action}`.
 */
import { DEFAULT_REST_SEGMENTS, type FactValues } from "./target-facts.ts";

/** Where documents usually are, most common first (JSON or YAML: service-description.ts reads both). */
export const OPENAPI_LOCATIONS = [
  "/openapi.json",
  "/openapi.yaml",
  "/v2/openapi.json",
  "/v2/openapi.yaml",
  "/swagger.json",
  "/swagger.yaml",
  "/docs/openapi.json",
  "/api/openapi.json",
  "/v2/swagger.json",
  "/openapi.yml",
  "/api-docs",
  "/.well-known/openapi.json",
  "/.well-known/openapi.yaml",
] as const;

type Operations = Readonly<Record<string, unknown>>;
export interface OpenApiFindings {
  readonly values: Partial<FactValues>;
  /** Per fact: which operation said so. */
  readonly evidence: Partial<Record<keyof FactValues, string>>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The path prefix every operation of the document sits under: Swagger 2.0's `basePath`, or the
 * path of OpenAPI 3's first server URL (absolute or relative; its host is not the suite's
 * business: the target is where it was asked). "" when there is none.
 */
export function pathPrefix(doc: Record<string, unknown>): string {
  let prefix = "";
  if (typeof doc["basePath"] === "string") prefix = doc["basePath"];
  else if (Array.isArray(doc["servers"]) && isObject(doc["servers"][0]) && typeof doc["servers"][0]["url"] === "string") {
    const server = doc["servers"][0];
    const variables = isObject(server["variables"]) ? server["variables"] : {};
    // A server variable takes its default; one without a default leaves the prefix unknown.
    let known = true;
    const url = (server["url"] as string).replace(/\{([^}]*)\}/g, (_, name: string) => {
      const v = variables[name];
      if (isObject(v) && typeof v["default"] === "string") return v["default"];
      known = false;
      return "";
    });
    try {
      prefix = known ? new URL(url, "http://relative.invalid").pathname : "";
    } catch {
      prefix = "";
    }
  }
  return prefix.replace(/\/+$/, "");
}

/**
 * The document's paths (with the prefix its servers or basePath give), with their methods in
 * lower case; undefined when it is not an OpenAPI 3.x or Swagger 2.0 document with paths.
 */
export function pathsOf(doc: unknown): ReadonlyMap<string, Operations> | undefined {
  if (!isObject(doc) || !(typeof doc["openapi"] === "string" || typeof doc["swagger"] === "string") || !isObject(doc["paths"])) return undefined;
  const prefix = pathPrefix(doc);
  const out = new Map<string, Operations>();
  for (const [path, ops] of Object.entries(doc["paths"])) {
    if (!isObject(ops)) continue;
    const full = prefix && !path.startsWith(`${prefix}/`) ? `${prefix}${path}` : path;
    out.set(full, Object.fromEntries(Object.entries(ops).map(([m, o]) => [m.toLowerCase(), o])));
  }
  return out;
}

const POD_ITEM = /^((?:\/[^/{}]+)*)\/pods\/\{[^}]+\}$/i;
const POD_ACTION_BODY = /^((?:\/[^/{}]+)*)\/pods\/\{[^}]+\}\/action$/i;
const POD_ACTION_PARAM = /^((?:\/[^/{}]+)*)\/pods\/\{[^}]+\}\/\{[^}]+\}$/i;
const POD_ACTION_LITERAL = /^((?:\/[^/{}]+)*)\/pods\/\{[^}]+\}\/(start|stop|restart|resume)$/i;
/** A custom method: `/pods/{id}:stop`, or `/pods/{id}:{verb}`. */
const POD_ACTION_CUSTOM = /^((?:\/[^/{}]+)*)\/pods\/\{[^}]+\}:(?:start|stop|restart|resume|\{[^}]+\})$/i;
const POD_LIST = /^((?:\/[^/{}]+)*)\/pods$/i;
const VOLUMES = /^(?:\/[^/{}]+)*\/network[-_]?volumes$/i;
const GPUS = /^(?:\/[^/{}]+)*\/(?:catalog\/gpus|gpu[-_]?types)$/i;
const CPUS = /^(?:\/[^/{}]+)*\/(?:catalog\/cpus|cpu[-_]?(?:flavors|types)|catalog\/cpu[-_]?flavors)$/i;
const DATA_CENTERS = /^(?:\/[^/{}]+)*\/(?:catalog\/datacenters|data[-_]?centers|datacenters)$/i;
/** A data center's own volumes: `/v2/datacenters/{id}/volumes`. */
const DC_VOLUMES = /^((?:\/[^/{}]+)*\/(?:catalog\/)?(?:data[-_]?centers|datacenters))\/\{[^}]+\}\/((?:network[-_]?)?volumes)$/i;
const REGISTRIES = /^(?:\/[^/{}]+)*\/(?:containerregistryauths?|container[-_]registry[-_]auths?|registries|registry[-_]?auths?|registry[-_]credentials)$/i;
/** A versioned REST path's group: `/v2/<group>/...` (or `/api/v2/...`), the group a literal segment. */
const GROUP = /^(?:\/[^/{}]+)*?\/v[0-9]+\/([^/{}]+)(?:\/|$)/i;

/** What a document of the target says, fact by fact; facts it does not describe are absent. */
export function readOpenApi(doc: unknown, where: string): OpenApiFindings | undefined {
  const paths = pathsOf(doc);
  if (!paths) return undefined;
  const entries = [...paths.entries()];
  const podPaths = entries.filter(([p]) => /\/pods(\/|$)/i.test(p));
  if (podPaths.length === 0) return undefined;
  const values: Record<string, unknown> = {};
  const evidence: Record<string, string> = {};
  const said = (key: keyof FactValues, value: unknown, method: string, path: string) => {
    values[key] = value;
    evidence[key] = `${method.toUpperCase()} ${path} in ${where}`;
  };

  const body = entries.find(([p, ops]) => POD_ACTION_BODY.test(p) && "post" in ops);
  const literal = entries.find(([p, ops]) => POD_ACTION_LITERAL.test(p) && "post" in ops);
  const param = entries.find(([p, ops]) => POD_ACTION_PARAM.test(p) && "post" in ops);
  const custom = entries.find(([p, ops]) => POD_ACTION_CUSTOM.test(p) && "post" in ops);
  if (body) said("podActionPath", `${POD_ACTION_BODY.exec(body[0])![1]}/pods/{podId}/action`, "post", body[0]);
  else if (literal) said("podActionPath", `${POD_ACTION_LITERAL.exec(literal[0])![1]}/pods/{podId}/{action}`, "post", literal[0]);
  else if (param) said("podActionPath", `${POD_ACTION_PARAM.exec(param[0])![1]}/pods/{podId}/{action}`, "post", param[0]);
  else if (custom) said("podActionPath", `${POD_ACTION_CUSTOM.exec(custom[0])![1]}/pods/{podId}:{action}`, "post", custom[0]);

  const item = entries.find(([p]) => POD_ITEM.test(p));
  if (item) {
    if ("delete" in item[1]) said("podDeletePath", `${POD_ITEM.exec(item[0])![1]}/pods/{podId}`, "delete", item[0]);
    else {
      values["podDeletePath"] = null;
      evidence["podDeletePath"] = `${where} describes ${item[0]} without DELETE`;
    }
  }
  const list = entries.find(([p, ops]) => POD_LIST.test(p) && "get" in ops);
  if (list) said("podListPath", list[0], "get", list[0]);
  const volumes = entries.find(([p, ops]) => VOLUMES.test(p) && "get" in ops);
  if (volumes) said("networkVolumes", { path: volumes[0] }, "get", volumes[0]);
  const gpus = entries.find(([p, ops]) => GPUS.test(p) && "get" in ops);
  if (gpus) said("gpuCatalogPath", gpus[0], "get", gpus[0]);
  const cpus = entries.find(([p, ops]) => CPUS.test(p) && "get" in ops);
  if (cpus) said("cpuCatalogPath", cpus[0], "get", cpus[0]);
  const dataCenters = entries.find(([p, ops]) => DATA_CENTERS.test(p) && "get" in ops);
  if (dataCenters) said("dataCenterCatalogPath", dataCenters[0], "get", dataCenters[0]);
  const dcVolumes = entries.find(([p, ops]) => DC_VOLUMES.test(p) && "get" in ops);
  if (!volumes && dcVolumes) {
    const m = DC_VOLUMES.exec(dcVolumes[0])!;
    said("networkVolumes", { dataCenterPath: `${m[1]}/{dataCenterId}/${m[2]}` }, "get", dcVolumes[0]);
  }
  const registries = entries.find(([p, ops]) => REGISTRIES.test(p) && "get" in ops);
  if (registries) said("registriesPath", registries[0], "get", registries[0]);
  // Every group the document names is reserved beside the defaults (a job route's first segment is a parameter).
  const groups = new Set(entries.map(([p]) => GROUP.exec(p)?.[1]).filter((g): g is string => g !== undefined && /^[A-Za-z0-9._~-]+$/.test(g)));
  const extra = [...groups].filter((g) => !DEFAULT_REST_SEGMENTS.includes(g)).sort();
  values["restSegments"] = [...DEFAULT_REST_SEGMENTS, ...extra];
  evidence["restSegments"] = extra.length > 0 ? `the groups ${extra.join(", ")} named in ${where}, beside docs/choices.md's` : `${where} names no group beyond docs/choices.md's`;
  return { values: values as Partial<FactValues>, evidence };
}
