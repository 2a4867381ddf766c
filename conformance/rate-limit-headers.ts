/**
 * The meaning of the RateLimit and RateLimit-Policy headers: one member per window, named by a
 * string (or token), with `r`/`t` (remaining, seconds to reset) or `q`/`w` (quota, window
 * seconds). Members may come in any order and carry parameters this suite does not know; those
 * are kept in `params` and otherwise ignored. Whether `t` and `w` are present is for the rules
 * to judge, so they are optional here.
 */
import { param, parseList, StructuredFieldError, type BareItem, type Parameters } from "./structured-fields.ts";

export interface RateLimitWindow {
  readonly name: string;
  /** Remaining requests in the window. */
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly reset?: number;
  readonly params: Parameters;
}

export interface RateLimitPolicy {
  readonly name: string;
  readonly quota: number;
  /** Window length in seconds. */
  readonly window?: number;
  readonly params: Parameters;
}

function nonNegativeInteger(item: BareItem | undefined, what: string, input: string): number | undefined {
  if (item === undefined) return undefined;
  if (item.type !== "integer" || item.value < 0) {
    throw new StructuredFieldError(`${what} must be a non-negative integer`, input, 0);
  }
  return item.value;
}

function members(input: string, header: string): { name: string; params: Parameters }[] {
  return parseList(input).map((m) => {
    if (m.kind !== "item") throw new StructuredFieldError(`${header} members are items, not inner lists`, input, 0);
    if (m.value.type !== "string" && m.value.type !== "token") {
      throw new StructuredFieldError(`${header} members are named by a string`, input, 0);
    }
    return { name: m.value.value, params: m.params };
  });
}

export function parseRateLimit(input: string): RateLimitWindow[] {
  return members(input, "RateLimit").map(({ name, params }) => {
    const remaining = nonNegativeInteger(param(params, "r"), `RateLimit "${name}" r`, input);
    if (remaining === undefined) throw new StructuredFieldError(`RateLimit "${name}" has no r parameter`, input, 0);
    return { name, remaining, reset: nonNegativeInteger(param(params, "t"), `RateLimit "${name}" t`, input), params };
  });
}

export function parseRateLimitPolicy(input: string): RateLimitPolicy[] {
  return members(input, "RateLimit-Policy").map(({ name, params }) => {
    const quota = nonNegativeInteger(param(params, "q"), `RateLimit-Policy "${name}" q`, input);
    if (quota === undefined) throw new StructuredFieldError(`RateLimit-Policy "${name}" has no q parameter`, input, 0);
    return { name, quota, window: nonNegativeInteger(param(params, "w"), `RateLimit-Policy "${name}" w`, input), params };
  });
}
