// The suite's RFC 8941 parser against structured-headers, the ecosystem's implementation (RFC 8941
// and RFC 9651): on every input both accept the same lists with the same values, and reject the
// same inputs, except RFC 9651's additions (Dates `@…`, Display Strings `%"…"`), which RFC 8941
// and so the suite refuse.
import t from "tap";
import fc from "fast-check";
import { parseList as libraryParseList, Token, type BareItem as LibraryBare, type Item as LibraryItem, type InnerList as LibraryInner } from "structured-headers";
import { parseList, serializeList, type BareItem, type ListMember, type Parameters } from "./structured-fields.ts";

/** One value notation for both parsers: integers and decimals are both numbers in structured-headers. */
function bare(b: BareItem): unknown {
  return b.type === "bytes" ? ["bytes", [...b.value]] : b.type === "decimal" || b.type === "integer" ? ["number", b.value === 0 ? 0 : b.value] : [b.type, b.value];
}
function libraryBare(b: LibraryBare): unknown {
  if (typeof b === "number") return ["number", b === 0 ? 0 : b];
  if (typeof b === "string") return ["string", b];
  if (typeof b === "boolean") return ["boolean", b];
  if (b instanceof Token) return ["token", b.toString()];
  if (b instanceof ArrayBuffer) return ["bytes", [...new Uint8Array(b)]];
  return ["other", String(b)];
}
const ours = (list: readonly ListMember[]) =>
  list.map((m) =>
    m.kind === "item"
      ? [bare(m.value), params(m.params)]
      : [m.items.map((i) => [bare(i.value), params(i.params)]), params(m.params)],
  );
const params = (p: Parameters) => p.map(([k, v]) => [k, bare(v)]);
const libraryParams = (p: Map<string, LibraryBare>) => [...p.entries()].map(([k, v]) => [k, libraryBare(v)]);
const theirs = (list: (LibraryItem | LibraryInner)[]) =>
  list.map(([value, p]) =>
    Array.isArray(value)
      ? [(value as LibraryItem[]).map(([v, ip]) => [libraryBare(v), libraryParams(ip)]), libraryParams(p)]
      : [libraryBare(value as LibraryBare), libraryParams(p)],
  );

function both(input: string): { ours?: unknown; theirs?: unknown } {
  let a: unknown;
  let b: unknown;
  try {
    a = ours(parseList(input));
  } catch {
    a = undefined;
  }
  try {
    b = theirs(libraryParseList(input));
  } catch {
    b = undefined;
  }
  return { ours: a, theirs: b };
}

t.test("the spec's rate-limit headers read the same in both", async (t) => {
  for (const h of [`"minute";r=59;t=12, "hour";r=2999;t=1812`, `"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400`, ``]) {
    const r = both(h);
    t.ok(r.ours !== undefined, h);
    t.same(r.ours, r.theirs, h);
  }
});

t.test("property: the same verdict and values on text made of structured-field characters", async (t) => {
  const piece = fc.constantFrom('"', "a", "Z", "*", "1", "0", "-", ".", ";", "=", ",", " ", "\t", "(", ")", ":", "?", "\\", "x=", "AQI=", '"ab"', "1.5", "tok/x");
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }).map((p) => p.join("")), (input) => {
        const r = both(input);
        if (r.theirs === undefined) return r.ours === undefined;
        return r.ours !== undefined && JSON.stringify(r.ours) === JSON.stringify(r.theirs);
      }),
      { seed: 9651, numRuns: 3000 },
    ),
  );
});

t.test("property: lists serialized by the suite parse to the same values in both", async (t) => {
  const item = fc.record({
    kind: fc.constant("item" as const),
    value: fc.oneof(
      fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }).map((value) => ({ type: "integer" as const, value })),
      fc.stringMatching(/^[ -~]{0,8}$/).map((value) => ({ type: "string" as const, value })),
      fc.stringMatching(/^[A-Za-z*][a-z0-9:/]{0,5}$/).map((value) => ({ type: "token" as const, value })),
      fc.boolean().map((value) => ({ type: "boolean" as const, value })),
    ),
    params: fc.constant([] as Parameters),
  });
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(fc.array(item, { maxLength: 5 }), (list) => {
        const r = both(serializeList(list));
        return r.ours !== undefined && JSON.stringify(r.ours) === JSON.stringify(r.theirs);
      }),
      { seed: 8941, numRuns: 500 },
    ),
  );
});

t.test("RFC 9651's Dates and Display Strings are refused: the suite judges RFC 8941", async (t) => {
  for (const input of [`@1659578233`, `"minute";t=@12`, `%"caf%c3%a9"`]) {
    const r = both(input);
    t.ok(r.theirs !== undefined, `structured-headers reads ${input}`);
    t.equal(r.ours, undefined, `the suite refuses ${input}`);
  }
});
