/**
 * The `ttl` query of `status`: a per-job time-to-live in whole milliseconds. The spec's own
 * example is 6000 (6 s), below the 10 s minimum of `policy.ttl`, so any positive value up to
 * the policy's 7-day maximum is accepted. Absent means the job keeps its ttl.
 */
import { JOB_TTL_RANGE } from "../schemas/index.ts";
import { parseIntegerQuery } from "./query-integer.ts";
import type { Validated } from "./violation.ts";

export function validateTtlQuery(raw: unknown): Validated<number | undefined> {
  return parseIntegerQuery(raw, {
    name: "ttl",
    ruleId: "jobs.status.ttl-query",
    minimum: 1,
    maximum: JOB_TTL_RANGE.maximum,
    expect: `a whole number of milliseconds from 1 to ${JOB_TTL_RANGE.maximum}, e.g. ttl=6000 for 6 seconds`,
  });
}
