/**
 * The transport's view of the backend's routes: enough to answer 404 or 405 (with `Allow`) and
 * to know a route's body limit before the body is read. Dispatch itself is the backend's; this
 * table only decides what never reaches it.
 */
import { RESERVED_SEGMENTS } from "../api/routes.ts";
import type { HttpMethod } from "../api/types.ts";
import type { BackendRoute } from "./backend.ts";

export type RouteLookup =
  | { readonly kind: "match"; readonly bodyLimit: number; readonly anyContentType: boolean; readonly rawBody: boolean }
  | { readonly kind: "method-not-allowed"; readonly allow: string }
  | { readonly kind: "not-found" };

interface CompiledRoute {
  readonly method: HttpMethod;
  /** Literal segment, or null for a parameter. */
  readonly segments: readonly (string | null)[];
  /** Indexes of `:endpointId` segments, which never match a reserved word. */
  readonly endpointIdAt: readonly number[];
  readonly bodyLimit: number;
  readonly anyContentType: boolean;
  readonly rawBody: boolean;
}

const NOT_FOUND: RouteLookup = { kind: "not-found" };

export class RouteTable {
  /** Routes grouped by segment count, the cheapest first filter. */
  private readonly bySegments = new Map<number, CompiledRoute[]>();
  /** The largest body limit of any route: what the transport must be ready to read at most. */
  readonly maxBodyLimit: number;
  /** Answers reused for each path shape, so a lookup allocates nothing. */
  private readonly matches = new Map<number, RouteLookup>();

  constructor(routes: readonly BackendRoute[], defaultBodyLimit: number) {
    let max = defaultBodyLimit;
    for (const r of routes) {
      const parts = r.pattern.split("/");
      const segments = parts.map((p) => (p.startsWith(":") ? null : p));
      const endpointIdAt = parts.flatMap((p, i) => (p === ":endpointId" ? [i] : []));
      const bodyLimit = r.bodyLimit ?? defaultBodyLimit;
      max = Math.max(max, bodyLimit);
      const list = this.bySegments.get(parts.length) ?? [];
      const rawBody = r.rawBody === true;
      list.push({ method: r.method, segments, endpointIdAt, bodyLimit, anyContentType: rawBody || r.anyContentType === true, rawBody });
      this.bySegments.set(parts.length, list);
    }
    this.maxBodyLimit = max;
  }

  /** HEAD is served where GET is; OPTIONS is answered by the transport on any known path. */
  lookup(method: string, rawPath: string): RouteLookup {
    const path = rawPath.length > 1 && rawPath.endsWith("/") ? rawPath.slice(0, -1) : rawPath;
    const parts = path.split("/");
    const candidates = this.bySegments.get(parts.length);
    if (candidates === undefined) return NOT_FOUND;
    const wanted = method === "HEAD" ? "GET" : method;
    let allow: Set<string> | undefined;
    for (const r of candidates) {
      if (!matches(r, parts)) continue;
      if (r.method === wanted) return this.match(r);
      (allow ??= new Set()).add(r.method);
    }
    if (allow === undefined) return NOT_FOUND;
    if (allow.has("GET")) allow.add("HEAD");
    allow.add("OPTIONS");
    return { kind: "method-not-allowed", allow: [...allow].sort().join(", ") };
  }

  private match(r: CompiledRoute): RouteLookup {
    const { bodyLimit, anyContentType, rawBody } = r;
    const key = bodyLimit * 4 + (anyContentType ? 1 : 0) + (rawBody ? 2 : 0);
    let m = this.matches.get(key);
    if (m === undefined) {
      m = { kind: "match", bodyLimit, anyContentType, rawBody };
      this.matches.set(key, m);
    }
    return m;
  }
}

function matches(r: CompiledRoute, parts: readonly string[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    const literal = r.segments[i];
    if (literal === null) {
      if (parts[i] === "") return false;
    } else if (literal !== parts[i]) {
      return false;
    }
  }
  for (const i of r.endpointIdAt) {
    let value = parts[i];
    try {
      value = decodeURIComponent(value);
    } catch {
      return false;
    }
    if (RESERVED_SEGMENTS.has(value.toLowerCase())) return false;
  }
  return true;
}
