/**
 * Finding the target's own description of its API, by the standards services publish it with:
 *
 * 1. RFC 8631 links on the service's root (`GET /`, then `GET /v2`): a `Link` header or links in
 *    the body (HAL `_links`, JSON:API `links`, a `links` array) with relation `service-desc` (a
 *    machine-readable description), `describedby`, or `service-doc` (tried last: often HTML);
 * 2. RFC 9727's `/.well-known/api-catalog`, a linkset naming the `service-desc` of each API;
 * 3. the usual places (`/openapi.json`, `/openapi.yaml`, `/swagger.json`, ...).
 *
 * A document is read as JSON, or as YAML (the `yaml` package) when it is not JSON: OpenAPI 3.0,
 * 3.1 or Swagger 2.0. Only one that describes pods is taken (a description of another API says
 * nothing of this one). The key goes only to the target's own origin, never to a document
 * hosted elsewhere. The root's other links are kept: they may name collections (volumes, CPU
 * flavors) the facts use.
 */
import { parse as parseYaml } from "yaml";
import type { Client, ClientResponse } from "../client.ts";
import { TargetError } from "../errors.ts";
import { OPENAPI_LOCATIONS, readOpenApi, type OpenApiFindings } from "./openapi-facts.ts";
import { bodyLinks, parseLinkHeader, type WebLink } from "./web-links.ts";

/** RFC 8631's relations, in the order they are tried. */
export const DESCRIPTION_RELS = ["service-desc", "describedby", "service-doc"] as const;
const API_CATALOG = "/.well-known/api-catalog";
/** The largest document parsed (a YAML parse is bounded by it too). */
const MAX_DOCUMENT_CHARS = 8_000_000;
/** Documents tried at most from links. */
const MAX_LINKED = 6;

export interface FoundDescription {
  readonly findings: OpenApiFindings;
  /** The document's URL, and how it was found: "GET /openapi.yaml", "Link rel=\"service-desc\" on GET /". */
  readonly url: string;
  readonly via: string;
}

/** A link of the root, with where it was read. */
export interface RootLink extends WebLink {
  /** "the Link header of GET /", "the body of GET /v2". */
  readonly from: string;
}

export interface DescriptionSearch {
  readonly description?: FoundDescription;
  /** Every link the root answers carried (header and body), for facts they name. */
  readonly rootLinks: readonly RootLink[];
  /** What was tried, in words, for the log. */
  readonly tried: readonly string[];
}

export interface DescriptionInput {
  readonly client: Client;
  readonly rest: string;
  readonly hasApiKey: boolean;
  readonly timeoutMs: number;
}

/** A document's text as data: JSON, else YAML; undefined when it is neither. */
export function parseDescription(text: string, contentType = ""): unknown {
  if (text.length > MAX_DOCUMENT_CHARS) return undefined;
  const trimmed = text.trimStart();
  if (/json/i.test(contentType) || trimmed.startsWith("{")) {
    try {
      return JSON.parse(text);
    } catch {
      if (/json/i.test(contentType)) return undefined;
    }
  }
  if (/html/i.test(contentType) || trimmed.startsWith("<")) return undefined;
  try {
    return parseYaml(text, { maxAliasCount: 100, prettyErrors: false, uniqueKeys: false });
  } catch {
    return undefined;
  }
}

export async function findServiceDescription(input: DescriptionInput): Promise<DescriptionSearch> {
  const origin = new URL(input.rest).origin;
  const tried: string[] = [];
  const get = async (url: string): Promise<ClientResponse | undefined> => {
    const own = new URL(url).origin === origin;
    try {
      return await input.client.request({ method: "GET", url, timeoutMs: input.timeoutMs, ...(own && input.hasApiKey ? { auth: { key: "api" as const } } : {}) });
    } catch (err) {
      if (err instanceof TargetError) return undefined;
      throw err;
    }
  };
  const shown = (url: string) => (new URL(url).origin === origin ? new URL(url).pathname + new URL(url).search : url);
  const readAt = async (url: string, via: string): Promise<FoundDescription | undefined> => {
    tried.push(`${shown(url)} (${via})`);
    const res = await get(url);
    if (res?.status !== 200) return undefined;
    const doc = parseDescription(res.text, res.headers["content-type"]);
    const findings = doc === undefined ? undefined : readOpenApi(doc, shown(url));
    return findings ? { findings, url, via } : undefined;
  };

  const rootLinks: RootLink[] = [];
  for (const path of ["/", "/v2"]) {
    const url = `${input.rest}${path}`;
    const res = await get(url);
    if (!res) continue;
    rootLinks.push(...parseLinkHeader(res.headers["link"], url).map((l) => ({ ...l, from: `the Link header of GET ${path}` })));
    rootLinks.push(...bodyLinks(res.json, url).map((l) => ({ ...l, from: `the body of GET ${path}` })));
  }
  const seen = new Set<string>();
  let linked = 0;
  for (const rel of DESCRIPTION_RELS) {
    for (const link of rootLinks.filter((l) => l.rels.includes(rel))) {
      if (seen.has(link.href) || linked >= MAX_LINKED) continue;
      seen.add(link.href);
      linked++;
      const found = await readAt(link.href, `linked rel="${rel}" from ${link.from}`);
      if (found) return { description: found, rootLinks, tried };
    }
  }
  // RFC 9727: the API catalog, a linkset.
  const catalogUrl = `${input.rest}${API_CATALOG}`;
  const catalog = await get(catalogUrl);
  if (catalog?.status === 200) {
    const json = catalog.json ?? parseDescription(catalog.text, catalog.headers["content-type"]);
    for (const link of bodyLinks(json, catalogUrl).filter((l) => l.rels.includes("service-desc"))) {
      if (seen.has(link.href) || linked >= MAX_LINKED) continue;
      seen.add(link.href);
      linked++;
      const found = await readAt(link.href, `rel="service-desc" in ${API_CATALOG}`);
      if (found) return { description: found, rootLinks, tried };
    }
  }
  for (const path of OPENAPI_LOCATIONS) {
    const url = `${input.rest}${path}`;
    if (seen.has(url)) continue;
    const found = await readAt(url, "a usual place");
    if (found) return { description: found, rootLinks, tried };
  }
  return { rootLinks, tried };
}
