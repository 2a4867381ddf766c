/**
 * What every REST and job answer goes through last under a point of the space: date-time
 * spelling, extra members, member order, header-name spelling and the description's Link header.
 * Handler-defined data (`input`, `output`, `stream`) is left as the model holds it.
 */
import type { ApiResponse } from "../api/types.ts";
import type { Conventions } from "./dimensions.ts";
import { descriptionPath } from "./description.ts";

type Json = Record<string, unknown>;
const isPlain = (v: unknown): v is Json => typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;
const HANDLER_DATA = new Set(["input", "output", "stream"]);
const ISO_Z = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/;
const MAX_DEPTH = 6;

function time(c: Conventions, v: string): string {
  const m = ISO_Z.exec(v);
  if (!m) return v;
  const fraction = (m[2] ?? "").padEnd(3, "0");
  switch (c.times) {
    case "z-millis":
      return v;
    case "offset-seconds":
      return `${m[1]}+00:00`;
    case "z-seconds":
      return `${m[1]}Z`;
    case "z-micros":
      return `${m[1]}.${fraction.padEnd(6, "0")}Z`;
  }
}

/** Bodies rewritten member by member: times, `_links`, order. */
function rewrite(c: Conventions, body: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) return body;
  if (Array.isArray(body)) return body.map((v) => rewrite(c, v, depth + 1));
  if (!isPlain(body)) return body;
  let entries = Object.entries(body).map(([k, v]): [string, unknown] => {
    if (HANDLER_DATA.has(k)) return [k, v];
    if (typeof v === "string" && k.endsWith("At")) return [k, time(c, v)];
    return [k, rewrite(c, v, depth + 1)];
  });
  if (c.extraFields === "links" && typeof body["id"] === "string" && !("_links" in body)) entries.push(["_links", { self: { href: `#${body["id"]}` } }]);
  if (c.memberOrder === "sorted") entries = entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  else if (c.memberOrder === "reversed") entries = entries.reverse();
  return Object.fromEntries(entries);
}

const spell = (c: Conventions, name: string): string =>
  name === "content-type" || c.headerCase === "lower" ? name : c.headerCase === "upper" ? name.toUpperCase() : name.replace(/(^|-)([a-z])/g, (_, dash: string, ch: string) => dash + ch.toUpperCase());

/** `requestId`: the next request id, for extraFields request-id. */
export function presented(c: Conventions, r: ApiResponse, requestId: () => string): ApiResponse {
  let body = r.body;
  const rewrites = c.times !== "z-millis" || c.extraFields === "links" || c.memberOrder !== "model";
  if (c.extraFields === "request-id" && isPlain(body) && !("requestId" in body)) body = { ...body, requestId: requestId() };
  if (body !== undefined && typeof body !== "string" && rewrites) body = rewrite(c, body, 0);
  let headers: Record<string, string> = { ...r.headers };
  if (c.description === "link-header") {
    const link = `<${descriptionPath(c)}>; rel="service-desc"`;
    headers["link"] = headers["link"] ? `${headers["link"]}, ${link}` : link;
  }
  if (c.headerCase !== "lower") headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [spell(c, k), v]));
  return { ...r, headers, ...(body !== undefined ? { body } : {}) };
}
