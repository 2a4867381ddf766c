/**
 * Test-only: this area's helpers over the shared broken target (test-support/broken-target.ts).
 */
import type { ApiRequest } from "../../../sim/api/types.ts";

export { breakBackend, mapResponse, startBroken, type Breakage, type BrokenTarget } from "../broken-target.ts";

/** The key of the request's Authorization header or `api_key`, whichever it carries. */
export function keyOfRequest(request: ApiRequest): string | undefined {
  const header = request.headers["authorization"]?.trim();
  if (header) return header.replace(/^bearer\s+/i, "");
  return request.query["api_key"];
}

export function withAuthorization(request: ApiRequest, key: string): ApiRequest {
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${key}` } };
}
