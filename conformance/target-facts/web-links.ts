/**
 * Links a service publishes about itself, read by the standards services use: RFC 8288 `Link`
 * headers (`<url>; rel="service-desc next"; type="..."`, several per header), and links inside
 * JSON bodies: HAL's `_links` (`{"rel": {"href": ...}}` or a list of them), JSON:API's `links`
 * (`{"rel": "url"}` or `{"rel": {"href": ...}}`), a `links` array of `{rel, href}`, and an RFC
 * 9264 linkset (`{"linkset": [{"anchor": ..., "rel": [{"href": ...}]}]}`, the form of RFC 9727's
 * `/.well-known/api-catalog`). Every href is resolved against the URL of the answer that held it;
 * relation names compare in lower case (RFC 8288 §2.1.1).
 */

export interface WebLink {
  readonly href: string;
  /** Relation types, lower case. */
  readonly rels: readonly string[];
  readonly type?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** Links read at most from one header or body. */
const MAX_LINKS = 200;

function resolve(href: string, base: string): string | undefined {
  try {
    const url = new URL(href, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The links of a `Link` header value (RFC 8288 §3): commas and semicolons inside quotes or `<>` kept. */
export function parseLinkHeader(header: string | undefined, base: string): WebLink[] {
  if (!header) return [];
  const out: WebLink[] = [];
  let i = 0;
  while (i < header.length && out.length < MAX_LINKS) {
    const open = header.indexOf("<", i);
    if (open < 0) break;
    const close = header.indexOf(">", open);
    if (close < 0) break;
    const target = header.slice(open + 1, close);
    // Parameters run to the next comma outside quotes.
    let j = close + 1;
    let quoted = false;
    while (j < header.length && (quoted || header[j] !== ",")) {
      if (header[j] === '"' && header[j - 1] !== "\\") quoted = !quoted;
      j++;
    }
    const params = new Map<string, string>();
    for (const m of header.slice(close + 1, j).matchAll(/;\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^;,\s]*))?/g)) {
      const name = m[1]!.toLowerCase();
      const raw = m[2] ?? "";
      // The first occurrence of a parameter wins (RFC 8288 §3.3 for rel).
      if (!params.has(name)) params.set(name, raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw);
    }
    const href = resolve(target.trim(), base);
    const rels = (params.get("rel") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    if (href && rels.length > 0) out.push({ href, rels, ...(params.get("type") ? { type: params.get("type")! } : {}) });
    i = j + 1;
  }
  return out;
}

/** One link value of a body: a URL string, `{href, type?}`, or a list of those. */
function hrefsOf(value: unknown): { href: string; type?: string }[] {
  if (typeof value === "string") return [{ href: value }];
  if (Array.isArray(value)) return value.flatMap(hrefsOf).slice(0, MAX_LINKS);
  if (isObject(value) && typeof value["href"] === "string") return [{ href: value["href"], ...(typeof value["type"] === "string" ? { type: value["type"] } : {}) }];
  return [];
}

function linkObject(links: Json, base: string, skip: ReadonlySet<string> = new Set()): WebLink[] {
  const out: WebLink[] = [];
  for (const [rel, value] of Object.entries(links)) {
    if (skip.has(rel)) continue;
    for (const { href, type } of hrefsOf(value)) {
      const url = resolve(href, base);
      if (url && out.length < MAX_LINKS) out.push({ href: url, rels: [rel.toLowerCase()], ...(type ? { type } : {}) });
    }
  }
  return out;
}

/** The links a JSON body carries at its top level (HAL, JSON:API, a `links` array, an RFC 9264 linkset). */
export function bodyLinks(json: unknown, base: string): WebLink[] {
  if (!isObject(json)) return [];
  const out: WebLink[] = [];
  if (isObject(json["_links"])) out.push(...linkObject(json["_links"], base, new Set(["curies"])));
  const links = json["links"];
  if (isObject(links)) out.push(...linkObject(links, base));
  if (Array.isArray(links)) {
    for (const l of links.slice(0, MAX_LINKS)) {
      if (!isObject(l) || typeof l["href"] !== "string" || typeof l["rel"] !== "string") continue;
      const url = resolve(l["href"], base);
      if (url) out.push({ href: url, rels: l["rel"].toLowerCase().split(/\s+/).filter(Boolean), ...(typeof l["type"] === "string" ? { type: l["type"] } : {}) });
    }
  }
  if (Array.isArray(json["linkset"])) {
    for (const context of json["linkset"].slice(0, MAX_LINKS)) {
      if (!isObject(context)) continue;
      const anchor = typeof context["anchor"] === "string" ? (resolve(context["anchor"], base) ?? base) : base;
      out.push(...linkObject(context, anchor, new Set(["anchor"])));
    }
  }
  return out.slice(0, MAX_LINKS);
}

/** The first link with relation `rel`, among `links`. */
export const linkTo = (links: readonly WebLink[], rel: string): WebLink | undefined => links.find((l) => l.rels.includes(rel.toLowerCase()));
