/** The `wait` query of runsync: whole milliseconds from 1000 to 300000, default 90000. */
import { parseIntegerQuery } from "./query-integer.ts";
import type { Validated } from "./violation.ts";

export const WAIT_RANGE = { minimum: 1000, maximum: 300_000, default: 90_000 } as const;

export function validateWaitQuery(raw: unknown): Validated<number> {
  const parsed = parseIntegerQuery(raw, {
    name: "wait",
    ruleId: "jobs.runsync.wait-range",
    minimum: WAIT_RANGE.minimum,
    maximum: WAIT_RANGE.maximum,
    expect: "a whole number of milliseconds from 1000 to 300000, or leave it out for 90000",
  });
  return parsed.ok ? { ok: true, value: parsed.value ?? WAIT_RANGE.default } : parsed;
}
