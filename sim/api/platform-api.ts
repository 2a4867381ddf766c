/**
 * The front door of sim/api: one request in, one outcome out, at the platform's current time.
 * In order: route (404, 405 with Allow), authentication (401), the per-user rate limit (429 with
 * Retry-After), write permission (403), then the operation. Every authenticated answer carries
 * the RateLimit and RateLimit-Policy headers, including errors and answers that wait.
 */
import type { Platform } from "../domain/platform.ts";
import { formatRateLimitHeaders, rateLimitDetail, type RateDecision } from "../domain/ratelimit/index.ts";
import type { Authentication } from "../domain/accounts/index.ts";
import { keylessGraphqlAllowed } from "./graphql/keyless-operations.ts";
import { matchRoute, routes as defaultRoutes, type RouteDef } from "./routes.ts";
import { problem } from "./problem.ts";
import { json } from "./json-response.ts";
import type { OperationTable, Principal } from "./op-context.ts";
import type { ApiOutcome, ApiRequest, ApiResponse } from "./types.ts";
import { respond } from "./types.ts";

const AUTH_DETAIL: Record<"missing" | "malformed" | "invalid", string> = {
  missing: "The request carries no API key. Send it as `Authorization: Bearer <API_KEY>`.",
  malformed: "The Authorization header is malformed. Send `Authorization: Bearer <API_KEY>`.",
  invalid: "The API key is not valid (unknown, revoked or expired). Use a key from your account settings.",
};

const GRAPHQL_AUTH_DETAIL: Record<"missing" | "malformed" | "invalid", string> = {
  missing: "The request carries no API key. Send it as the `api_key` query parameter or `Authorization: Bearer <API_KEY>`.",
  malformed: AUTH_DETAIL.malformed,
  invalid: AUTH_DETAIL.invalid,
};

/** A GraphQL-shaped error answer (choices.md: the standard `errors` envelope). */
export function graphqlError(status: number, message: string, code: string, headers: Readonly<Record<string, string>> = {}): ApiResponse {
  return json(status, { errors: [{ message, extensions: { code } }] }, headers);
}

function withHeaders(response: ApiResponse, headers: Readonly<Record<string, string>> | undefined): ApiResponse {
  if (headers === undefined) return response;
  return { ...response, headers: { ...response.headers, ...headers } };
}

export class PlatformApi {
  constructor(
    readonly platform: Platform,
    private readonly operations: OperationTable,
    readonly routes: readonly RouteDef[] = defaultRoutes,
  ) {
    for (const r of routes) {
      if (operations[r.op] === undefined) throw new Error(`sim/api: route ${r.method} ${r.pattern} has no operation "${r.op}"`);
    }
  }

  handle(request: ApiRequest): ApiOutcome {
    const match = matchRoute(request.method, request.path, this.routes);
    if (match.kind === "not-found") {
      return respond(problem(404, `No route serves ${request.method} ${request.path}. See /openapi.json for the routes.`));
    }
    if (match.kind === "method-not-allowed") {
      return respond(
        problem(405, `${request.method} is not allowed on ${request.path}; allowed: ${match.allow.join(", ")}.`, {
          headers: { allow: match.allow.join(", ") },
        }),
      );
    }
    const { route, params } = match;
    const now = this.platform.now;
    const operation = this.operations[route.op];
    if (route.auth === "none") {
      return operation({ platform: this.platform, request, params, principal: { accountId: "", access: "read-only" }, now });
    }

    const auth = this.authenticate(route, request);
    // Flash's browser login runs before the caller has a key: those two GraphQL fields alone may
    // be sent without one (no account, so no rate-limit window; the open requests are bounded).
    if (!auth.ok && auth.error === "missing" && route.auth === "graphql" && keylessGraphqlAllowed(request)) {
      return operation({ platform: this.platform, request, params, principal: { accountId: "", access: "full" }, now });
    }
    if (!auth.ok) {
      return respond(
        route.auth === "graphql"
          ? graphqlError(401, GRAPHQL_AUTH_DETAIL[auth.error], "UNAUTHENTICATED")
          : problem(401, AUTH_DETAIL[auth.error]),
      );
    }
    const principal: Principal = { accountId: auth.accountId, access: auth.access };
    const decision = this.platform.rateLimits.check(principal.accountId, now, { exempt: principal.access === "exempt" });
    const rateHeaders = rateHeadersOf(decision);
    if (!decision.allowed) {
      const detail = rateLimitDetail(decision) ?? "rate limit exceeded";
      return respond(
        route.auth === "graphql" ? graphqlError(429, detail, "RATE_LIMITED", rateHeaders) : problem(429, detail, { headers: rateHeaders }),
      );
    }
    if (route.write && principal.access === "read-only") {
      return respond(
        problem(403, `This API key is read-only; ${request.method} ${request.path} needs a key with write access.`, {
          headers: rateHeaders,
        }),
      );
    }
    const outcome = operation({ platform: this.platform, request, params, principal, now });
    // An operation that charged more units (a multi-mutation GraphQL document) carries its own.
    if (outcome.kind === "response") return respond(outcome.response.headers["ratelimit"] !== undefined ? outcome.response : withHeaders(outcome.response, rateHeaders));
    // A wait is answered later; the headers describe the windows as they stood at the request.
    return { ...outcome, render: (t) => withHeaders(outcome.render(t), rateHeaders) };
  }

  private authenticate(route: RouteDef, request: ApiRequest): Authentication {
    const keys = this.platform.keys;
    if (route.auth === "graphql") {
      const apiKey = request.query["api_key"];
      if (apiKey !== undefined) {
        if (apiKey === "") return { ok: false, error: "malformed" };
        const info = keys.lookup(apiKey);
        return info === undefined ? { ok: false, error: "invalid" } : { ok: true, accountId: info.accountId, access: info.access };
      }
    }
    return keys.authenticate(request.headers["authorization"]);
  }
}

function rateHeadersOf(decision: RateDecision): Record<string, string> | undefined {
  const h = formatRateLimitHeaders(decision);
  if (h === undefined) return undefined;
  const out: Record<string, string> = { ratelimit: h.RateLimit, "ratelimit-policy": h["RateLimit-Policy"] };
  if (h["Retry-After"] !== undefined) out["retry-after"] = h["Retry-After"];
  return out;
}
