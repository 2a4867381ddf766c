/**
 * Reading an integer query parameter. Only plain decimal digits are accepted ("90000", not
 * "9e4", "90000.0" or "+90000"): a value a client meant differently is refused, not guessed.
 * An absent or empty parameter means "use the default"; a repeated one is refused.
 */
import type { RuleId } from "../rules/index.ts";
import { fail, type Validated } from "./violation.ts";

export interface IntegerQuery {
  readonly name: string;
  readonly ruleId: RuleId;
  readonly minimum: number;
  readonly maximum: number;
  /** What the message suggests, e.g. "a whole number of milliseconds from 1000 to 300000". */
  readonly expect: string;
}

export function parseIntegerQuery(raw: unknown, q: IntegerQuery): Validated<number | undefined> {
  const path = `?${q.name}`;
  const refuse = (what: string) => fail([{ ruleId: q.ruleId, path, message: `The query parameter ${q.name} ${what}; send ${q.expect}.` }]);
  if (raw === undefined || raw === null || raw === "") return { ok: true, value: undefined };
  if (Array.isArray(raw)) return raw.length === 1 ? parseIntegerQuery(raw[0], q) : refuse(`is given ${raw.length} times`);
  if (typeof raw !== "string" || !/^[0-9]+$/.test(raw)) return refuse(`is ${JSON.stringify(raw)}, which is not a whole number`);
  const value = Number(raw);
  if (value < q.minimum) return refuse(`is ${raw}, below the minimum of ${q.minimum}`);
  if (value > q.maximum) return refuse(`is ${raw}, above the maximum of ${q.maximum}`);
  return { ok: true, value };
}
