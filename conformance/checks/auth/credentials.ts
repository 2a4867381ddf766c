/**
 * Credentials that must each be refused with 401 (Authentication rule 4), as fast-check
 * arbitraries, for the `Authorization` header (REST v2, job endpoints) or the `api_key` query
 * parameter (GraphQL). Under the lenient profile none of them holds a key of the run: whatever a
 * target makes of an unusual header, a correct one cannot find a valid key in these (strict adds
 * malformed headers around the run's own key, see malformedArb).
 */
import * as fc from "fast-check";
import type { Auth } from "../../client.ts";
import type { Keys } from "../../keys.ts";

export type Credential =
  | { readonly kind: "none" }
  | { readonly kind: "header"; readonly value: string }
  | { readonly kind: "query"; readonly value: string };

export type Placement = "header" | "query";

export function toAuth(c: Credential): Auth | undefined {
  if (c.kind === "none") return undefined;
  return { literal: c.value, via: c.kind === "header" ? "raw" : "query" };
}

export function describeCredential(c: Credential): string {
  if (c.kind === "none") return "without any key";
  const where = c.kind === "header" ? "Authorization header" : "api_key query parameter";
  return `with the ${where} ${JSON.stringify(c.value)}`;
}

const token = fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/);

/** Well-formed keys that no account holds: shaped like keys, never equal to the run's. */
export function unknownKeyArb(keys: Keys): fc.Arbitrary<string> {
  const real = new Set(Object.values(keys).filter((k): k is string => typeof k === "string"));
  return fc.stringMatching(/^[A-Za-z0-9_]{20,48}$/).filter((k) => !real.has(k) && !/^bearer$/i.test(k));
}

const header = (value: string): Credential => ({ kind: "header", value });
const query = (value: string): Credential => ({ kind: "query", value });

export function missingArb(placement: Placement): fc.Arbitrary<Credential> {
  const none: Credential = { kind: "none" };
  // An Authorization header with nothing in it carries no key either.
  return placement === "header" ? fc.constantFrom(none, header("")) : fc.constant(none);
}

/**
 * Malformed credentials. Under strict, half of the headers also carry the run's own valid key in
 * a form the spec does not give (another scheme, or words after it): a target that digs the key
 * out of a malformed header must still answer 401. The lenient profile leaves those out, so that
 * what a target makes of an unusual but key-bearing header is not judged there.
 */
export function malformedArb(placement: Placement, keys?: Keys): fc.Arbitrary<Credential> {
  const own = keys?.api;
  if (placement === "header" && own !== undefined) {
    const keyBearing = fc.oneof(
      fc.constantFrom("Basic", "Digest", "Token", "ApiKey", "Bearer:").map((s) => `${s} ${own}`),
      token.map((t) => `${t} ${own}`),
      token.map((t) => `Bearer ${own} ${t}`),
    );
    return fc.oneof(malformedArb(placement), keyBearing.map(header));
  }
  if (placement === "query") {
    return fc
      .oneof(
        fc.constantFrom("", " "),
        token.map((t) => `Bearer ${t}`),
        fc.tuple(token, token).map(([a, b]) => `${a} ${b}`),
      )
      .map(query);
  }
  return fc
    .oneof(
      fc.constantFrom("Bearer", "Bearer ", "bearer", "Bearer\t"),
      fc.tuple(fc.constantFrom("Basic", "Digest", "Token", "ApiKey", "Bearer:"), token).map(([s, t]) => `${s} ${t}`),
      fc.tuple(token, token).map(([a, b]) => `Bearer ${a} ${b}`),
      token.map((t) => `Bearer "${t}"`),
    )
    .map(header);
}

/** Unknown keys in every form the spec accepts: `Bearer <key>`, the bare key (job endpoints), `api_key`. */
export function invalidArb(placement: Placement, keys: Keys, bareToo: boolean): fc.Arbitrary<Credential> {
  const key = unknownKeyArb(keys);
  if (placement === "query") return key.map(query);
  const forms = bareToo ? fc.constantFrom("bearer" as const, "bare" as const) : fc.constant("bearer" as const);
  return fc.tuple(forms, key).map(([form, k]) => header(form === "bearer" ? `Bearer ${k}` : k));
}
