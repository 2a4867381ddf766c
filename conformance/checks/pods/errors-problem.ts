/**
 * Judging a REST error answer against the spec's ErrorResponse: content type
 * `application/problem+json` ("Bodies follow ErrorResponse with content type
 * `application/problem+json`"), and a JSON object with `title` (string), `status` (integer),
 * `detail` (string) and optionally `errors` (array of strings). Extra members are allowed, as
 * RFC 9457 allows them.
 */
import type { ClientResponse } from "../../client.ts";
import { schemaErrors } from "../support/schema.ts";

/** The media type of an answer, lower-case, without parameters ("application/problem+json"). */
export function mediaType(res: ClientResponse): string {
  return (res.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
}

/** What is wrong with an error answer's format; empty when it follows ErrorResponse. */
export function problemIssues(res: ClientResponse): string[] {
  const out: string[] = [];
  const type = mediaType(res);
  if (type !== "application/problem+json") out.push(`Content-Type ${type === "" ? "missing" : JSON.stringify(type)} instead of application/problem+json`);
  if (res.json === undefined || typeof res.json !== "object" || res.json === null || Array.isArray(res.json)) {
    out.push(res.text === "" ? "no body" : "a body that is not a JSON object");
    return out;
  }
  out.push(...schemaErrors("ErrorResponse", res.json).map((e) => `ErrorResponse ${e}`));
  return out;
}

export const isError = (res: ClientResponse): boolean => res.status >= 400;
