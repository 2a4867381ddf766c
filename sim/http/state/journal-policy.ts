/**
 * Which requests the `--state` journal keeps: those that changed the model, and nothing else.
 * Reads, refusals (401, 403, 404, 429, a 4xx on validation, a 5xx answered on purpose) and
 * GraphQL queries are left out, so that what a client without a key (or with a read-only key)
 * can send costs no disk and no restart time. A read that changes the model is kept: a job's
 * status with `ttl` (it sets the result's expiry), a stream read (it moves the stream's cursor),
 * and the outside workers' polls (they take jobs).
 *
 * Leaving out a request the model counted against a rate limit is safe: a replay then counts
 * fewer, and every change it replays was allowed with more counted.
 */
import type { ApiRequest } from "../../api/types.ts";

const TTL_READ = /^\/v2\/[^/]+\/status(-sync)?\/[^/]+$/;
const STATEFUL_READ = /^\/v2\/[^/]+\/(stream|job-take|job-take-batch|job-stop|ping)\/[^/]+$/;

/** Before handling: whether the request may change the model (while the journal cannot be written, these are refused). */
export function mayChange(request: Pick<ApiRequest, "method" | "path" | "query" | "body">): boolean {
  if (request.method === "GET" || request.method === "HEAD") {
    if (STATEFUL_READ.test(request.path)) return true;
    return request.query["ttl"] !== undefined && TTL_READ.test(request.path);
  }
  if (request.path === "/graphql") return isGraphqlMutation(request.body);
  return true;
}

/** After handling: whether the request changed the model, from its answer (`wait`: parked until its job ends; `threw`: a bug midway). */
export function changedModel(request: Pick<ApiRequest, "method" | "path" | "query" | "body">, answer: number | "wait" | "threw"): boolean {
  if (!mayChange(request)) return false;
  // A bug midway may have left half its change: replayed, it does the same half again.
  if (answer === "threw" || answer === "wait") return true;
  return answer < 400;
}

/** Whether a GraphQL body (one document or a batch) may hold a mutation; a string that only mentions one counts too (it is safe to keep). */
export function isGraphqlMutation(body: unknown): boolean {
  if (Array.isArray(body)) return body.some(isGraphqlMutation);
  if (typeof body !== "object" || body === null) return false;
  const query = (body as { query?: unknown }).query;
  return typeof query === "string" && /\bmutation\b/.test(query);
}
