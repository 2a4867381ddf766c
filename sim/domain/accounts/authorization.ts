/**
 * Reading the `Authorization` header of REST v2 and job-endpoint requests. The spec's Bearer form
 * and the bare key that the job-endpoint reference shows are both accepted; anything else that is
 * present is malformed (a 401 upstream, like a missing or unknown key).
 */
export type AuthorizationParse =
  | { readonly kind: "missing" }
  | { readonly kind: "malformed"; readonly reason: string }
  | { readonly kind: "key"; readonly key: string };

/** Keys are visible ASCII without spaces; the catalog narrows them further, but any such token is looked up. */
const TOKEN = /^[\x21-\x7e]+$/;
/** Header values past this are not keys; a bound keeps a hostile header from being scanned at length. */
const MAX_HEADER_LENGTH = 4096;

export function parseAuthorization(value: string | readonly string[] | undefined): AuthorizationParse {
  if (value === undefined) return { kind: "missing" };
  if (typeof value !== "string") {
    if (value.length === 0) return { kind: "missing" };
    if (value.length > 1) return { kind: "malformed", reason: "more than one Authorization header" };
    return parseAuthorization(value[0]);
  }
  const trimmed = value.trim();
  if (trimmed === "") return { kind: "missing" };
  if (trimmed.length > MAX_HEADER_LENGTH) return { kind: "malformed", reason: "header too long" };
  const parts = trimmed.split(/[ \t]+/);
  if (parts.length === 1) {
    const [only] = parts;
    if (/^bearer$/i.test(only)) return { kind: "malformed", reason: "Bearer without a key" };
    return TOKEN.test(only) ? { kind: "key", key: only } : { kind: "malformed", reason: "not a key" };
  }
  if (parts.length === 2 && /^bearer$/i.test(parts[0])) {
    return TOKEN.test(parts[1]) ? { kind: "key", key: parts[1] } : { kind: "malformed", reason: "not a key" };
  }
  return { kind: "malformed", reason: "expected `Bearer <key>` or the key alone" };
}
