/** A list answer in a point's list envelope, paged as its `lists` and `pageSize` say. */
import type { ApiResponse } from "../api/types.ts";
import type { Conventions } from "./dimensions.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The query parameters that page a list: never passed to the emulator. */
export const PAGE_PARAMS = ["cursor", "page", "pageToken", "offset", "limit"];

const token = (n: number) => Buffer.from(String(n)).toString("base64url");
const untoken = (s: string | undefined) => Number.parseInt(Buffer.from(s ?? "", "base64url").toString() || "0", 10) || 0;

/** The page of `res`'s list (choices.md's envelope field `field`) that `query` asks for; `path` is the request's. */
export function listAnswer(c: Conventions, res: ApiResponse, field: string, path: string, query: Readonly<Record<string, string>>): ApiResponse {
  const items = isObject(res.body) && Array.isArray(res.body[field]) ? (res.body[field] as unknown[]) : undefined;
  if (res.status !== 200 || items === undefined || c.lists === "choices") return res;
  const headers: Record<string, string> = { ...res.headers };
  if (c.lists === "bare") return { ...res, headers, body: items };
  const offset = c.lists === "results-offset";
  const from = Math.max(0, offset ? Number.parseInt(query["offset"] ?? "0", 10) || 0 : untoken(query["cursor"] ?? query["page"] ?? query["pageToken"]));
  const size = c.pageSize;
  const page = items.slice(from, from + size);
  const more = from + size < items.length;
  const rest = Object.entries(query).filter(([k]) => !PAGE_PARAMS.includes(k));
  const nextUrl = (params: [string, string][]) => `${path}?${new URLSearchParams([...rest, ...params]).toString()}`;
  switch (c.lists) {
    case "items-cursor":
      return { ...res, headers, body: { items: page, nextCursor: more ? token(from + size) : null } };
    case "page-token":
      return { ...res, headers, body: { items: page, ...(more ? { nextPageToken: token(from + size) } : {}) } };
    case "data-link":
      if (more) headers["link"] = `<${nextUrl([["page", token(from + size)]])}>; rel="next"`;
      return { ...res, headers, body: { data: page } };
    case "data-links":
      return { ...res, headers, body: { data: page, links: { next: more ? nextUrl([["cursor", token(from + size)]]) : null } } };
    case "results-offset":
      return { ...res, headers, body: { count: items.length, results: page, next: more ? nextUrl([["offset", String(from + size)], ["limit", String(size)]]) : null } };
  }
}
