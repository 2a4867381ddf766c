/**
 * Judgements of one answer's format, shared by `conform` (its own probes) and `proxy` (a
 * client's traffic): an error answer is an ErrorResponse as application/problem+json
 * ("Bodies follow ErrorResponse with content type `application/problem+json`": title, status,
 * detail, optionally `errors`; extra members allowed, as RFC 9457 allows them), its `status` is
 * the HTTP status, its title the errors table's, and a success answer is JSON.
 */
import { schemaErrors } from "../checks/support/schema.ts";
import type { AnswerView } from "./answer.ts";

export type Profile = "lenient" | "strict";

/** The spec's table of REST error titles (Errors › REST v2). */
export const SPEC_TITLES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
};

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The media type of an answer, lower-case, without parameters ("application/problem+json"). */
export function mediaType(res: Pick<AnswerView, "headers">): string {
  return (res.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
}

/** What is wrong with an error answer's format; empty when it follows ErrorResponse. */
export function problemIssues(res: AnswerView): string[] {
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

/** errors.problem-json / errors.same-body: the words of a failure, or undefined (a success answer is not judged). */
export function problemFormatProblem(res: AnswerView, quote: string): string | undefined {
  if (res.status < 400) return undefined;
  const issues = problemIssues(res);
  return issues.length === 0 ? undefined : `an ErrorResponse body (title, status, detail) as application/problem+json ("${quote}"); found ${issues.join("; ")}`;
}

/** errors.status-matches: undefined when it holds or the answer says nothing about it. */
export function statusMatchesProblem(res: AnswerView): string | undefined {
  if (res.status < 400 || !isObj(res.json) || !Object.hasOwn(res.json, "status")) return undefined;
  const status = res.json.status;
  return status === res.status ? undefined : `the ErrorResponse's status ${res.status}, the HTTP status code ("status | integer | yes | HTTP status code"); found ${JSON.stringify(status)}`;
}

/** Whether errors.title-matches-status can judge this answer at all. */
export function titleJudgeable(res: AnswerView): boolean {
  return SPEC_TITLES[res.status] !== undefined && isObj(res.json) && typeof res.json.title === "string";
}

/** Lenient: the table's title in any case, and RFC 9110's newer name for 422. Strict: the table's, exactly. */
export function titleFits(profile: Profile, status: number, title: string): boolean {
  const want = SPEC_TITLES[status]!;
  if (profile === "strict") return title === want;
  const norm = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();
  return norm(title) === norm(want) || (status === 422 && norm(title) === "unprocessable content");
}

/** errors.title-matches-status. */
export function titleProblem(res: AnswerView, profile: Profile): string | undefined {
  if (!titleJudgeable(res)) return undefined;
  const title = (res.json as { title: string }).title;
  return titleFits(profile, res.status, title) ? undefined : `title ${JSON.stringify(SPEC_TITLES[res.status])}, the spec's title for ${res.status}; found ${JSON.stringify(title)}`;
}

/** errors.json-bodies: whether a success answer is JSON as the spec says (the media type, and a body that parses). */
export function jsonIssue(res: AnswerView): string | undefined {
  const type = mediaType(res);
  if (type !== "application/json") return `Content-Type ${type === "" ? "missing" : JSON.stringify(type)} instead of application/json`;
  if (res.json === undefined) return "a body that is not JSON";
  return undefined;
}
