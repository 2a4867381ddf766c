/**
 * Whether the target serves a route, learned from its own answers: a 404 (or 405) counts as a
 * refusal only from a route the target is known to serve. A route is known served when it gave
 * some answer other than 404 or 405 during the run, or when its 404 differs from the 404 of a
 * made-up sibling path (same method, same depth, every segment after the version made up). A
 * target that answers 404 to everything, or that has no such route, answers both alike: its
 * 404 says "no such route", never "refused", and the rule it would have decided is skipped
 * with that reason (RouteMissing), never passed.
 *
 * Own code rather than a library: what "a route this target serves" means is the suite's own
 * judgement, a comparison of two answers.
 */
import type { Auth, Client, ClientResponse } from "./client.ts";
import type { Exchange } from "./recorder.ts";

/** A 404 or 405 that cannot be told from the answer to a made-up path: the route is not served. */
export class RouteMissing extends Error {
  override readonly name = "RouteMissing";
}

export interface RouteVerdict {
  readonly served: boolean;
  /** In words, for a skip reason: what was compared. */
  readonly why: string;
}

/** Whether an answer says nothing about the route: 404 Not Found or 405 Method Not Allowed. */
export function routeSilent(status: number): boolean {
  return status === 404 || status === 405;
}

const MADE_UP = "cpsim-no-such-route";
/** The most routes remembered (per process); the oldest go first. */
const CACHE_LIMIT = 256;
const served = new Map<string, RouteVerdict>();

/** Forgets every route: each run learns its target afresh (a port may serve another target later). */
export function forgetRoutes(): void {
  served.clear();
}

function idLike(segment: string): boolean {
  return !/^v\d+$/i.test(segment) && /\d/.test(segment) && segment.length >= 6;
}

/** The route of a URL, ids made general: `GET http://h/v2/conformance/status/*`. */
export function routeKey(method: string, url: string): string {
  const u = new URL(url);
  const path = u.pathname
    .split("/")
    .map((s) => (idLike(s.split(":")[0] ?? s) ? s.replace(/^[^:]*/, "*") : s))
    .join("/");
  return `${method.toUpperCase()} ${u.origin}${path}`;
}

/** The made-up sibling of a URL: the same depth, the version segment kept, every later segment made up. */
export function siblingUrl(url: string): string {
  const u = new URL(url);
  const segments = u.pathname.split("/").filter((s) => s !== "");
  const keep = segments[0] && /^v\d+$/i.test(segments[0]) ? 1 : 0;
  const path = segments.map((s, i) => (i < keep ? s : `${MADE_UP}-${i}`)).join("/");
  return `${u.origin}/${path}`;
}

function remember(key: string, verdict: RouteVerdict): RouteVerdict {
  if (served.size >= CACHE_LIMIT) served.delete(served.keys().next().value as string);
  served.set(key, verdict);
  return verdict;
}

/** Notes that a route answered something other than 404/405: it is served. */
export function noteServed(method: string, url: string, status: number): void {
  if (!routeSilent(status)) remember(routeKey(method, url), { served: true, why: `${method.toUpperCase()} ${new URL(url).pathname} answered ${status}` });
}

/** The body with everything that varies from request to request made general. */
function normalise(text: string, paths: readonly string[]): string {
  let out = text;
  for (const p of paths) for (const part of [p, ...p.split("/").filter((s) => s.length > 2)]) out = out.split(part).join("<path>");
  return out
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<id>")
    .replace(/\d+/g, "<n>")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Whether the route of `res` is served: known from earlier answers, or by sending its made-up
 * sibling once (a GET, or the same method with an empty JSON body) and comparing the answers.
 */
export async function routeServed(client: Client, res: Pick<ClientResponse, "status" | "text" | "headers"> & { readonly exchange: Exchange }, auth?: Auth): Promise<RouteVerdict> {
  const { method, url } = res.exchange.request;
  const key = routeKey(method, url);
  if (!routeSilent(res.status)) return remember(key, { served: true, why: `${method} ${new URL(url).pathname} answered ${res.status}` });
  const known = served.get(key);
  if (known) return known;
  const sibling = siblingUrl(url);
  const probe = await client.request({
    method,
    url: sibling,
    ...(auth ? { auth } : {}),
    ...(method === "GET" || method === "HEAD" || method === "DELETE" ? {} : { json: {} }),
  });
  const paths = [new URL(url).pathname, new URL(sibling).pathname];
  const same =
    probe.status === res.status &&
    (probe.headers["content-type"] ?? "").split(";")[0] === (res.headers["content-type"] ?? "").split(";")[0] &&
    normalise(probe.text, paths) === normalise(res.text, paths);
  const where = `${method} ${new URL(url).pathname} answered ${res.status}`;
  return remember(
    key,
    same
      ? { served: false, why: `${where}, as does the made-up path ${method} ${new URL(sibling).pathname}: the target has no such route` }
      : { served: true, why: `${where}, unlike the made-up path ${method} ${new URL(sibling).pathname} (${probe.status})` },
  );
}

/**
 * For a check about to count `res` as a refusal: returns when it may (a 4xx other than 404/405,
 * or a 404/405 from a served route), and throws RouteMissing when the route is not served.
 */
export async function assertServedRefusal(client: Client, res: ClientResponse, auth?: Auth): Promise<void> {
  if (!routeSilent(res.status)) return;
  const verdict = await routeServed(client, res, auth);
  if (!verdict.served) throw new RouteMissing(`no such route: ${verdict.why}, so its ${res.status} is no refusal`);
}

/**
 * For a check that passed while every answer it got was 404 or 405: the reason it judged nothing
 * (no route it asked is served), or undefined when one of them is served after all (its 404 was
 * an answer of a served route, such as "no such job").
 */
export async function nothingServed(client: Client, exchanges: readonly Exchange[], auth?: Auth, probes = 3): Promise<string | undefined> {
  const silent = exchanges.filter((e) => e.response && routeSilent(e.response.status));
  const seen = new Set<string>();
  const whys: string[] = [];
  for (const e of silent) {
    const key = routeKey(e.request.method, e.request.url);
    if (seen.has(key)) continue;
    seen.add(key);
    if (seen.size > probes) break;
    const r = e.response!;
    const verdict = await routeServed(client, { status: r.status, text: r.body ?? "", headers: r.headers, exchange: e }, auth);
    if (verdict.served) return undefined;
    whys.push(verdict.why);
  }
  if (whys.length === 0) return undefined;
  return `nothing was judged: every answer was 404 or 405 from a route the target does not serve (${whys.join("; ")})`;
}
