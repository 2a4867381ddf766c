/**
 * What the spec requires of a REST error body: `application/problem+json` following
 * ErrorResponse (title, status, detail), `status` equal to the HTTP status and the title the
 * errors table gives for it. Returned as the list of what is wrong, empty when nothing is.
 */
import type { ClientResponse } from "../../client.ts";
import { SPEC_TITLES } from "../../passive/error-body.ts";
import { schemaErrors } from "../support/schema.ts";

export { SPEC_TITLES };

export function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

export function problemIssues(res: ClientResponse): string[] {
  const issues: string[] = [];
  const type = mediaType(res.headers["content-type"]);
  if (type !== "application/problem+json") issues.push(`Content-Type is ${type ? `"${type}"` : "absent"}, not application/problem+json`);
  if (typeof res.json !== "object" || res.json === null || Array.isArray(res.json)) {
    issues.push("the body is not a JSON object");
    return issues;
  }
  issues.push(...schemaErrors("ErrorResponse", res.json).map((e) => `ErrorResponse ${e}`));
  const body = res.json as Record<string, unknown>;
  if (body.status !== res.status) issues.push(`body status ${JSON.stringify(body.status)} differs from the HTTP status ${res.status}`);
  const title = SPEC_TITLES[res.status];
  if (title !== undefined && body.title !== title) issues.push(`title ${JSON.stringify(body.title)} is not "${title}"`);
  return issues;
}

/** The words for a failure's `expected`. */
export function problemText(status: number): string {
  const title = SPEC_TITLES[status];
  return `an application/problem+json ErrorResponse body (title${title ? ` "${title}"` : ""}, status ${status}, detail), as every REST error (Errors › REST v2)`;
}
