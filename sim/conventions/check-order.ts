/**
 * The `checkOrder` dimension: what a request no route serves (an unknown path, or a method its
 * path does not serve) answers, by the order in which the point checks the route, the key and the
 * rate limit. The emulator checks the route first (404/405 whatever the key); a point that checks
 * the key first answers 401 there; one that also counts the request first answers 429 when a
 * window is spent, and its 404 carries the RateLimit headers, as every authenticated answer does.
 * The transport passes such requests to the backend (`answersUnrouted`) only under those points.
 */
import { KeyDirectory } from "../domain/accounts/index.ts";
import { problem } from "../api/problem.ts";
import type { ApiOutcome, ApiRequest, ApiResponse } from "../api/types.ts";
import type { BackendApiKey } from "../http/backend.ts";
import type { Conventions } from "./dimensions.ts";

const AUTH_DETAIL = {
  missing: "The request carries no API key. Send it as `Authorization: Bearer <API_KEY>`.",
  malformed: "The Authorization header is malformed. Send `Authorization: Bearer <API_KEY>`.",
  invalid: "The API key is not valid (unknown, revoked or expired). Use a key from your account settings.",
} as const;
/** A read the model answers after its key and rate-limit checks, without changing anything else: a pod no one has. */
const COUNTED_READ = "/v2/pods/unrouted-request";
const RATE_HEADERS = ["ratelimit", "ratelimit-policy", "retry-after"];

/** Whether the point's answer to an unknown route or method comes from the backend (the transport then passes them on). */
export const answersUnrouted = (c: Conventions): boolean => c.checkOrder !== "route-auth-rate";

/** An answer of the routing step: an unknown path (404) or a method its path does not serve (405). */
export function isUnroutedAnswer(r: ApiResponse, layerNoRoute: boolean): boolean {
  if (layerNoRoute) return true;
  const detail = typeof r.body === "object" && r.body !== null ? (r.body as { detail?: unknown }).detail : undefined;
  return (r.status === 404 && typeof detail === "string" && detail.startsWith("No route serves")) || (r.status === 405 && r.headers["allow"] !== undefined);
}

export class CheckOrder {
  private keys: KeyDirectory | undefined;
  constructor(
    private readonly c: Conventions,
    private readonly apiKeys: () => readonly BackendApiKey[],
  ) {}

  /**
   * `routed` is the route-first answer to a request no route serves; the answer under the point's
   * order, or undefined to keep it. `inner` answers the counted read.
   */
  answer(request: ApiRequest, routed: ApiResponse, inner: (r: ApiRequest) => ApiOutcome): ApiResponse | undefined {
    if (this.c.checkOrder === "route-auth-rate") return undefined;
    const auth = this.directory().authenticate(request.headers["authorization"]);
    if (!auth.ok) return problem(401, AUTH_DETAIL[auth.error]);
    if (this.c.checkOrder === "auth-route-rate") return undefined;
    const counted = inner({ method: "GET", path: COUNTED_READ, query: {}, headers: request.headers, body: undefined });
    if (counted.kind !== "response") return undefined;
    if (counted.response.status === 429) return counted.response;
    const rate = Object.fromEntries(Object.entries(counted.response.headers).filter(([k]) => RATE_HEADERS.includes(k.toLowerCase())));
    const base = this.c.checkOrder === "auth-rate-route-no-405" && routed.status === 405 ? problem(404, `No route serves ${request.method} ${request.path}.`) : routed;
    return { ...base, headers: { ...(base === routed ? Object.fromEntries(Object.entries(routed.headers)) : base.headers), ...rate } };
  }

  private directory(): KeyDirectory {
    if (this.keys === undefined) {
      const accounts = new Map<string, { key: string; access: BackendApiKey["access"] }[]>();
      for (const k of this.apiKeys()) accounts.set(k.account, [...(accounts.get(k.account) ?? []), { key: k.key, access: k.access }]);
      this.keys = new KeyDirectory([...accounts].map(([id, keys]) => ({ id, keys })));
    }
    return this.keys;
  }
}
