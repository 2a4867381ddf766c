/**
 * Values written inline into GraphQL documents, as the official clients write them (the spec's
 * requests carry only `{query}`, so arguments are literals, never variables). Strings are
 * escaped for GraphQL: quotes, backslashes and every character outside printable ASCII as
 * `\uXXXX`, which GraphQL and JSON read alike.
 */

/** An enum value: written bare (`ALL`), not quoted. */
export class GqlEnum {
  constructor(readonly name: string) {}
}

export function gqlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (code >= 0x20 && code < 0x7f) out += ch;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else {
      // A pair of escaped surrogates, which GraphQL reads as one character.
      const v = code - 0x10000;
      out += `\\u${(0xd800 + (v >> 10)).toString(16)}\\u${(0xdc00 + (v & 0x3ff)).toString(16)}`;
    }
  }
  return `${out}"`;
}

export type GqlValue = string | number | boolean | null | GqlEnum | readonly GqlValue[] | { readonly [k: string]: GqlValue | undefined };

export function gqlValue(v: GqlValue): string {
  if (v === null) return "null";
  if (v instanceof GqlEnum) return v.name;
  if (typeof v === "string") return gqlString(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => gqlValue(x as GqlValue)).join(", ")}]`;
  const fields = Object.entries(v as Record<string, GqlValue | undefined>)
    .filter(([, x]) => x !== undefined)
    .map(([k, x]) => `${k}: ${gqlValue(x as GqlValue)}`);
  return `{${fields.join(", ")}}`;
}
