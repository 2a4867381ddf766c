/**
 * Which exchanges shadow mode sends to the second implementation, and how a request is made to
 * mean the same thing there: the ids the two implementations gave the same object (a pod, a job)
 * differ, as the spec leaves ids open, so the target's ids in a path or a body are replaced by the
 * shadow's, learnt from the answers both gave to the same write. A request naming an object the
 * shadow never saw (a read of a pod made before the proxy started, a job run without
 * --shadow-writes) is not sent: the two could not answer alike, and the spec is not why.
 */
import type { Operation } from "../passive/classify.ts";
import { BoundedMap } from "../passive/bounded-map.ts";

export type ShadowKind = "read" | "write";

/** A GraphQL body whose operation is a mutation (the first keyword of its document). */
function isMutation(text: string | undefined): boolean {
  if (text === undefined) return false;
  let query: unknown;
  try {
    query = (JSON.parse(text) as { query?: unknown }).query;
  } catch {
    return false;
  }
  if (typeof query !== "string") return false;
  const doc = query.replace(/#[^\n]*/g, "").trimStart();
  return /^mutation\b/.test(doc);
}

/** Whether the exchange reads or writes; undefined: never sent to the shadow (the emulator's control API). */
export function shadowKind(method: string, path: string, op: Operation, requestText: string | undefined): ShadowKind | undefined {
  if (path.startsWith("/_sim/") || path === "/_sim") return undefined;
  const reads = method === "GET" || method === "HEAD";
  switch (op.kind) {
    case "listPods":
    case "getPod":
    case "catalog":
      return "read";
    case "createPod":
    case "updatePod":
    case "deletePod":
    case "podAction":
      return "write";
    case "graphql":
      return reads || !isMutation(requestText) ? "read" : "write";
    case "job":
      return op.op === "status" || op.op === "status-sync" || op.op === "stream" || op.op === "health" ? "read" : "write";
    default:
      return reads ? "read" : "write";
  }
}

/** The id the request names in its path (a pod's, a job's), which the shadow must know by its own id. */
export function pathObjectId(op: Operation): string | undefined {
  if (op.kind === "getPod" || op.kind === "updatePod" || op.kind === "deletePod" || op.kind === "podAction") return op.podId;
  if (op.kind === "job") return op.jobId;
  return undefined;
}

/** The `id` strings of a JSON answer, by where they sit (`pods[0].id`), up to a bound. */
export function idsByPlace(json: unknown, limit = 64): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, at: string, depth: number) => {
    if (out.size >= limit || depth > 8 || typeof v !== "object" || v === null) return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${at}[${i}]`, depth + 1));
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      if (k === "id" && typeof x === "string" && x !== "") out.set(`${at}.id`, x);
      else walk(x, `${at}.${k}`, depth + 1);
    }
  };
  walk(json, "", 0);
  return out;
}

/**
 * The target's ids and the shadow's for the same objects, learnt from the answers to the same
 * writes; an id whose write is still at the shadow is pending, and a request naming it waits for it.
 */
export class IdMap {
  private readonly known = new BoundedMap<string, string>(20_000);
  private readonly pending = new BoundedMap<string, Promise<string | undefined>>(1_000);

  /**
   * The target's ids a write's answer carried, before the shadow answered it: requests naming
   * them wait until `learn` is called with the two answers' bodies (the shadow's undefined: it gave none).
   */
  expect(primaryJson: unknown): (shadowJson: unknown) => void {
    const primary = idsByPlace(primaryJson);
    const ids = [...primary.values()].filter((id) => !this.known.has(id));
    let settle: (pairs: Map<string, string>) => void = () => {};
    const learnt = new Promise<Map<string, string>>((resolve) => (settle = resolve));
    for (const id of ids) this.pending.set(id, learnt.then((pairs) => pairs.get(id)));
    return (shadowJson) => {
      const pairs = new Map<string, string>();
      const theirs = idsByPlace(shadowJson);
      for (const [place, id] of primary) {
        const other = theirs.get(place);
        if (other !== undefined) pairs.set(id, other);
      }
      for (const [a, b] of pairs) this.known.set(a, b);
      for (const id of ids) this.pending.delete(id);
      settle(pairs);
    };
  }

  /** The shadow's id for a target's id: known, waited for when its write is at the shadow, else undefined. */
  async shadowIdOf(primaryId: string): Promise<string | undefined> {
    const k = this.known.get(primaryId);
    if (k !== undefined) return k;
    return this.pending.get(primaryId);
  }

  /** The ids the text holds as JSON strings that the map knows, replaced by the shadow's. */
  rewriteText(text: string): string {
    if (this.known.size === 0) return text;
    return text.replace(/"((?:[^"\\]|\\.){1,200})"/g, (whole, inner: string) => {
      const to = this.known.get(inner);
      return to === undefined ? whole : JSON.stringify(to);
    });
  }

  /** The path with each segment the map knows replaced by the shadow's id. */
  rewritePath(path: string): string {
    if (this.known.size === 0) return path;
    const [p, q] = splitQuery(path);
    const out = p
      .split("/")
      .map((seg) => {
        let raw = seg;
        try {
          raw = decodeURIComponent(seg);
        } catch {
          // kept as sent
        }
        const to = this.known.get(raw);
        return to === undefined ? seg : encodeURIComponent(to);
      })
      .join("/");
    return q === undefined ? out : `${out}?${q}`;
  }
}

function splitQuery(path: string): [string, string | undefined] {
  const i = path.indexOf("?");
  return i < 0 ? [path, undefined] : [path.slice(0, i), path.slice(i + 1)];
}

/** The path with the job endpoint id replaced (--shadow-endpoint): `/v2/{endpoint}/...`. */
export function withEndpoint(path: string, op: Operation, endpoint: string | undefined): string {
  if (endpoint === undefined || op.kind !== "job" || op.endpointId === endpoint) return path;
  const [p, q] = splitQuery(path);
  const segs = p.split("/");
  if (segs[1] === "v2" && segs.length > 2) segs[2] = encodeURIComponent(endpoint);
  const out = segs.join("/");
  return q === undefined ? out : `${out}?${q}`;
}
