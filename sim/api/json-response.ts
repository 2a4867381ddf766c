import type { ApiResponse } from "./types.ts";

/** A JSON response; 204 carries no body. */
export function json(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): ApiResponse {
  if (status === 204) return { status, headers: { ...headers } };
  return { status, headers: { "content-type": "application/json", ...headers }, body };
}
