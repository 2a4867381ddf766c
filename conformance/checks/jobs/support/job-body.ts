/**
 * Reading a job endpoint's answers: which job statuses exist, which are final, and the body of
 * an answer seen as a job (an object with a string `status`). Answers are data from an unknown
 * target, so nothing here trusts a field's type.
 */
import { JOB_STATUSES } from "../../../../sim/api/schemas/index.ts";

export type JobStatusName = (typeof JOB_STATUSES)[number];

export const FINAL_STATUSES: ReadonlySet<string> = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);
export const ACTIVE_STATUSES: ReadonlySet<string> = new Set(["IN_QUEUE", "IN_PROGRESS"]);

export type JobBody = Readonly<Record<string, unknown>> & { readonly status: string };

export function isJobStatus(value: unknown): value is JobStatusName {
  return typeof value === "string" && (JOB_STATUSES as readonly string[]).includes(value);
}

export function isFinal(status: string | undefined): boolean {
  return status !== undefined && FINAL_STATUSES.has(status);
}

export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The answer as a job, when it is an object with a string `status`. */
export function asJob(json: unknown): JobBody | undefined {
  return isObject(json) && typeof json["status"] === "string" ? (json as JobBody) : undefined;
}

export function has(body: Readonly<Record<string, unknown>>, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, field);
}

export function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** A short rendering of a value for a failure's text. */
export function show(value: unknown, max = 160): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}
