/**
 * A list as any target serves it, without knowing its spelling: the body itself when it is an
 * array, else the one array field of an envelope (`items`, `data`, `results` first when there are
 * several, else whatever single array the object holds), followed through its pages: a `Link:
 * <...>; rel="next"` header, a next URL in the body (`next`, `links.next`, `_links.next.href`,
 * `pagination.next`), or a next cursor (`nextCursor`, `next_cursor`, `nextPageToken`, `cursor` ...)
 * sent back as the query parameter it is named after. Pages, items and repeated cursors are
 * bounded, so a target that pages forever cannot hold a run.
 */
import type { Client, ClientResponse, RequestSpec } from "../client.ts";
import { linkTo, parseLinkHeader } from "./web-links.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Envelope fields preferred when an object holds more than one array. */
export const ENVELOPE_FIELDS = ["items", "data", "results", "records", "list", "values", "content", "entries"] as const;

/** The array a list answer carries: the body itself, the named field, else the envelope's list field. */
export function listOf(json: unknown, field?: string): unknown[] | undefined {
  if (Array.isArray(json)) return json;
  if (!isObject(json)) return undefined;
  if (field !== undefined) return Array.isArray(json[field]) ? (json[field] as unknown[]) : undefined;
  const arrays = Object.entries(json).filter(([, v]) => Array.isArray(v));
  if (arrays.length === 1) return arrays[0]![1] as unknown[];
  for (const name of ENVELOPE_FIELDS) if (Array.isArray(json[name])) return json[name] as unknown[];
  return undefined;
}

/** The field of `json` that holds `list`, when it is an envelope. */
export function fieldOf(json: unknown, list: unknown[]): string | undefined {
  return isObject(json) ? Object.keys(json).find((k) => json[k] === list) : undefined;
}

/** `Link: <url>; rel="next"` (RFC 8288, web-links.ts), resolved against the request's URL. */
export function linkNext(header: string | undefined, base: string): string | undefined {
  return linkTo(parseLinkHeader(header, base), "next")?.href;
}

function safeUrl(href: string, base: string): string | undefined {
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}

const CURSOR_FIELDS = ["nextCursor", "next_cursor", "nextPageToken", "next_page_token", "nextToken", "next_token", "cursor", "nextPage", "next_page"] as const;

/** The query parameter a cursor field is sent back as: `nextCursor` → `cursor`, `nextPageToken` → `pageToken`, `next_page` → `page`. */
export function cursorParam(field: string): string {
  if (field === "cursor") return "cursor";
  const rest = field.replace(/^next_?/i, "");
  return rest.charAt(0).toLowerCase() + rest.slice(1);
}

/** Where the page after `res` (an answer to `url`) is, if the answer says. */
export function nextPage(res: ClientResponse, url: string): string | undefined {
  const linked = linkNext(res.headers["link"], url);
  if (linked) return linked;
  const body = res.json;
  if (!isObject(body)) return undefined;
  const holders: Json[] = [body, ...["pagination", "page", "meta", "paging"].map((k) => body[k]).filter(isObject)];
  for (const h of holders) {
    const links = [h["links"], h["_links"]].find(isObject);
    const hrefs = [h["next"], links?.["next"], isObject(links?.["next"]) ? (links!["next"] as Json)["href"] : undefined];
    for (const href of hrefs) {
      // A next that looks like a URL or a path is followed; a bare token is a cursor.
      if (typeof href === "string" && href !== "" && /^(https?:\/\/|\/|\?)/i.test(href)) return safeUrl(href, url);
    }
    for (const field of [...CURSOR_FIELDS, "next"]) {
      const v = h[field];
      if ((typeof v === "string" && v !== "") || (typeof v === "number" && Number.isSafeInteger(v))) {
        const next = new URL(url);
        next.searchParams.set(field === "next" ? "cursor" : cursorParam(field), String(v));
        return next.href;
      }
    }
  }
  return undefined;
}

export interface ListRead {
  /** Every page's items, in order. */
  readonly items: unknown[];
  /** The envelope field of the first page, when the list came in one. */
  readonly field?: string;
  /** Pages read. */
  readonly pages: number;
  /** The first page's answer. */
  readonly first: ClientResponse;
}

export interface ListLimits {
  readonly maxPages?: number;
  readonly maxItems?: number;
}

/** Pages read at most per list, and items kept. */
export const MAX_LIST_PAGES = 20;
export const MAX_LIST_ITEMS = 5_000;

/**
 * The whole list `spec` reads (a GET), page after page; undefined when the first answer is not a
 * 200 with a list. `field` names the envelope field choices.md uses, tried first.
 */
export async function readList(client: Pick<Client, "request">, spec: RequestSpec, field?: string, limits: ListLimits = {}): Promise<ListRead | undefined> {
  const maxPages = limits.maxPages ?? MAX_LIST_PAGES;
  const maxItems = limits.maxItems ?? MAX_LIST_ITEMS;
  const { query, ...plain } = spec;
  const start = new URL(spec.url);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) start.searchParams.set(k, String(v));
  const first = await client.request({ ...plain, url: start.href });
  if (first.status !== 200) return undefined;
  const list = (field !== undefined ? listOf(first.json, field) : undefined) ?? listOf(first.json);
  if (!list) return undefined;
  const envelope = fieldOf(first.json, list);
  const items = [...list];
  const seen = new Set<string>([start.href]);
  let url = start.href;
  let res = first;
  let pages = 1;
  while (pages < maxPages && items.length < maxItems && list.length > 0) {
    const next = nextPage(res, url);
    if (!next || seen.has(next)) break;
    seen.add(next);
    res = await client.request({ ...plain, url: next });
    if (res.status !== 200) break;
    const page = (envelope !== undefined ? listOf(res.json, envelope) : undefined) ?? listOf(res.json);
    if (!page || page.length === 0) break;
    items.push(...page);
    url = next;
    pages++;
  }
  return { items: items.slice(0, maxItems), ...(envelope ? { field: envelope } : {}), pages, first };
}
