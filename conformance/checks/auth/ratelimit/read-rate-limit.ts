/**
 * Reading RateLimit and RateLimit-Policy for the rules about their meaning. The spec says what
 * the headers carry (a member per window; `r`, `t`; `q`, `w`), not their syntax: structured
 * fields are choices.md's, checked by ratelimit.structured-fields under --profile strict. So a
 * header that is not a valid RFC 8941 list is read again tolerantly (spaces around `;` and `=`,
 * unquoted names) before any other rule calls it unreadable.
 */
import { parseRateLimit, parseRateLimitPolicy } from "../../../rate-limit-headers.ts";
import { BoundedMap } from "../../../passive/bounded-map.ts";

export interface LimitMember {
  readonly name: string;
  readonly remaining?: number;
  readonly reset?: number;
}

export interface PolicyMember {
  readonly name: string;
  readonly quota?: number;
  readonly window?: number;
}

interface LooseMember {
  readonly name: string;
  readonly params: ReadonlyMap<string, string>;
}

/** `name;k=v;k=v, name;k=v`, names quoted or not, whitespace anywhere between parts. */
function looseList(value: string): LooseMember[] {
  return value.split(",").map((raw) => {
    const parts = raw.split(";").map((p) => p.trim());
    const name = parts[0].replace(/^"(.*)"$/, "$1");
    if (!/^[A-Za-z0-9_.*:/+-]+$/.test(name)) throw new Error(`member ${JSON.stringify(raw.trim())} has no window name`);
    const params = new Map<string, string>();
    for (const p of parts.slice(1)) {
      const m = /^([A-Za-z*][A-Za-z0-9_.*-]*)\s*(?:=\s*(.*))?$/.exec(p);
      if (!m) throw new Error(`parameter ${JSON.stringify(p)} of member "${name}" is not key=value`);
      params.set(m[1].toLowerCase(), (m[2] ?? "").trim());
    }
    return { name, params };
  });
}

function looseInteger(value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value)) throw new Error(`${what} ${JSON.stringify(value)} is not a non-negative integer`);
  return Number(value);
}

/** `strictError`: why the value is not a valid structured field (ratelimit.structured-fields' finding); absent when it is. */
export type Read<T> =
  | { readonly ok: true; readonly members: readonly T[]; readonly strict: boolean; readonly strictError?: string }
  | { readonly ok: false; readonly error: string; readonly strictError?: string };

function read<T>(value: string | undefined, header: string, strict: () => T[], loose: (m: LooseMember) => T): Read<T> {
  if (value === undefined) return { ok: false, error: `no ${header} header` };
  try {
    return { ok: true, members: strict(), strict: true };
  } catch (strictError) {
    const because = (strictError as Error).message;
    try {
      return { ok: true, members: looseList(value).map(loose), strict: false, strictError: because };
    } catch (error) {
      return { ok: false, error: `${header} ${JSON.stringify(value)} cannot be read: ${(error as Error).message} (as a structured field: ${because})`, strictError: because };
    }
  }
}

/**
 * The last few values read, per header: the passive checks read one answer's headers for several
 * rules, and one account's RateLimit-Policy stays the same, so each value is parsed once. The
 * results are frozen, as every caller only reads them.
 */
const MEMO = 16;
function memo<T>(fn: (value: string | undefined) => Read<T>): (value: string | undefined) => Read<T> {
  const seen = new BoundedMap<string, Read<T>>(MEMO);
  return (value) => {
    if (value === undefined) return fn(value);
    const hit = seen.get(value);
    if (hit) return hit;
    const r = fn(value);
    if (r.ok) {
      for (const m of r.members) Object.freeze(m);
      Object.freeze(r.members);
    }
    Object.freeze(r);
    seen.set(value, r);
    return r;
  };
}

export const readLimits: (value: string | undefined) => Read<LimitMember> = memo((value) =>
  read(
    value,
    "RateLimit",
    () => parseRateLimit(value as string).map((w) => ({ name: w.name, remaining: w.remaining, reset: w.reset })),
    (m) => ({ name: m.name, remaining: looseInteger(m.params.get("r"), `${m.name} r`), reset: looseInteger(m.params.get("t"), `${m.name} t`) }),
  ),
);

export const readPolicy: (value: string | undefined) => Read<PolicyMember> = memo((value) =>
  read(
    value,
    "RateLimit-Policy",
    () => parseRateLimitPolicy(value as string).map((p) => ({ name: p.name, quota: p.quota, window: p.window })),
    (m) => ({ name: m.name, quota: looseInteger(m.params.get("q"), `${m.name} q`), window: looseInteger(m.params.get("w"), `${m.name} w`) }),
  ),
);

/** The windows of an answer by name, when its RateLimit header can be read; undefined otherwise. */
export function limitsOf(headers: Readonly<Record<string, string>>): Map<string, LimitMember> | undefined {
  const r = readLimits(headers["ratelimit"]);
  if (!r.ok || r.members.length === 0) return undefined;
  return new Map(r.members.map((m) => [m.name, m]));
}
