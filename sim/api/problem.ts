/**
 * RFC 9457 problem details, the error body of every REST and job-endpoint error
 * (`application/problem+json` with title, status, detail and, for validation, `errors`).
 */
import type { ApiResponse } from "./types.ts";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

const TITLES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export function statusTitle(status: number): string {
  return TITLES[status] ?? "Error";
}

export interface ProblemBody {
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly errors?: readonly string[];
}

export function problemBody(status: number, detail: string, errors?: readonly string[]): ProblemBody {
  return errors && errors.length > 0
    ? { title: statusTitle(status), status, detail, errors: [...errors] }
    : { title: statusTitle(status), status, detail };
}

export function problem(
  status: number,
  detail: string,
  options: { errors?: readonly string[]; headers?: Readonly<Record<string, string>> } = {},
): ApiResponse {
  return {
    status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...options.headers },
    body: problemBody(status, detail, options.errors),
  };
}
