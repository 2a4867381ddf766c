import t from "tap";
import fc from "fast-check";
import { parseList, serializeList, StructuredFieldError, type BareItem, type Item, type ListMember } from "./structured-fields.ts";
import { parseRateLimit, parseRateLimitPolicy } from "./rate-limit-headers.ts";

t.test("parses the spec's RateLimit and RateLimit-Policy examples", async (t) => {
  const windows = parseRateLimit(`"minute";r=59;t=12, "hour";r=2999;t=1812, "day";r=49999;t=45012`);
  t.same(
    windows.map(({ name, remaining, reset }) => ({ name, remaining, reset })),
    [
      { name: "minute", remaining: 59, reset: 12 },
      { name: "hour", remaining: 2999, reset: 1812 },
      { name: "day", remaining: 49999, reset: 45012 },
    ],
  );
  const policy = parseRateLimitPolicy(`"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400`);
  t.same(policy.map((p) => [p.name, p.quota, p.window]), [["minute", 60, 60], ["hour", 3000, 3600], ["day", 50000, 86400]]);
});

t.test("tolerates member order, extra parameters, tokens and spacing the RFC allows", async (t) => {
  const w = parseRateLimit(`  "day";t=5;r=1;pk=:AQID:;x="y" ,\t"minute";r=0;t=0;flag  `);
  t.same(w.map((x) => [x.name, x.remaining, x.reset]), [["day", 1, 5], ["minute", 0, 0]]);
  t.same(parseRateLimit(`minute;r=3`).map((x) => [x.name, x.remaining, x.reset]), [["minute", 3, undefined]]);
  t.same(parseList(""), [], "an empty field is an empty list");
});

t.test("rejects malformed syntax with a typed error and a position", async (t) => {
  const bad = [
    `"minute";r=59;t=12,`, // trailing comma
    `"minute";r=59;t=12 "hour";r=1`, // missing comma
    `"minute;r=59`, // unterminated string
    `"minute";R=59`, // uppercase key
    `"minute";r=5.`, // decimal without fraction
    `"minute";r=1.2345`, // four fractional digits
    `"minute";r=1234567890123456`, // 16-digit integer
    `"min\\ute";r=1`, // bad escape
    `"minute";r=?2`, // bad boolean
    `"minute";r=:a*b:`, // bad base64
    `"minute";r=59;t=12,,"hour";r=1`, // empty member
    `\t"minute";r=1`, // leading tab is not SP
    `"minute" ;r=1`, // space before parameters
    `@;r=1`, // not an item
    `("a" "b";r=1`, // unterminated inner list
  ];
  for (const input of bad) {
    t.throws(() => parseList(input), { name: "StructuredFieldError", code: "CPSIM_ERR_STRUCTURED_FIELD" }, input);
  }
  const err = (() => {
    try {
      parseList(`"a", "b" x`);
    } catch (e) {
      return e as StructuredFieldError;
    }
  })();
  t.equal(err?.position, 9);
});

t.test("rejects valid syntax that is not a rate-limit header", async (t) => {
  t.throws(() => parseRateLimit(`"minute";t=12`), /no r parameter/);
  t.throws(() => parseRateLimit(`"minute";r=-1;t=12`), /non-negative integer/);
  t.throws(() => parseRateLimit(`"minute";r=1.5`), /non-negative integer/);
  t.throws(() => parseRateLimit(`("minute");r=1`), /not inner lists/);
  t.throws(() => parseRateLimit(`1;r=1`), /named by a string/);
  t.throws(() => parseRateLimitPolicy(`"minute";w=60`), /no q parameter/);
});

t.test("inner lists and every bare item type parse", async (t) => {
  const [m] = parseList(`("a" tok 1 -2.5 ?0 :AQI=:);p=1`);
  t.equal(m.kind, "inner-list");
  if (m.kind !== "inner-list") return;
  t.same(
    m.items.map((i) => i.value.type),
    ["string", "token", "integer", "decimal", "boolean", "bytes"],
  );
  t.same(m.items[3].value, { type: "decimal", value: -2.5 });
});

const key = fc.stringMatching(/^[a-z*][a-z0-9_\-.*]{0,6}$/);
const bareItem: fc.Arbitrary<BareItem> = fc.oneof(
  fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }).map((value) => ({ type: "integer" as const, value })),
  fc.integer({ min: -999_999_999_999, max: 999_999_999_999 }).chain((whole) =>
    fc.integer({ min: 0, max: 999 }).map((milli) => ({ type: "decimal" as const, value: Number(`${whole < 0 ? "-" : ""}${Math.abs(whole)}.${String(milli).padStart(3, "0")}`) })),
  ),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 12 }).map((value) => ({ type: "string" as const, value })),
  fc.stringMatching(/^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]{0,8}$/).map((value) => ({ type: "token" as const, value })),
  fc.uint8Array({ maxLength: 9 }).map((value) => ({ type: "bytes" as const, value })),
  fc.boolean().map((value) => ({ type: "boolean" as const, value })),
);
/** Parameters with distinct keys: a repeated key collapses on parsing, by design. */
const params = fc.uniqueArray(fc.tuple(key, bareItem), { maxLength: 3, selector: ([k]) => k });
const item: fc.Arbitrary<Item> = fc.record({ kind: fc.constant("item" as const), value: bareItem, params });
const member: fc.Arbitrary<ListMember> = fc.oneof(
  item,
  fc.record({ kind: fc.constant("inner-list" as const), items: fc.array(item, { maxLength: 3 }), params }),
);

/** Decimals compare as numbers (-0 and 0 are the same decimal); bytes as arrays. */
function normalize(members: readonly ListMember[]): unknown {
  const bare = (b: BareItem) =>
    b.type === "bytes" ? { type: "bytes", value: [...b.value] } : b.type === "decimal" && b.value === 0 ? { type: "decimal", value: 0 } : b;
  const ps = (p: Item["params"]) => p.map(([k, v]) => [k, bare(v)]);
  const it = (i: Item) => ({ kind: "item", value: bare(i.value), params: ps(i.params) });
  return members.map((m) => (m.kind === "item" ? it(m) : { kind: "inner-list", items: m.items.map(it), params: ps(m.params) }));
}

t.test("property: parse(serialize(list)) is the list, and serialize is canonical", async (t) => {
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(fc.array(member, { maxLength: 5 }), (list) => {
        const text = serializeList(list);
        const parsed = parseList(text);
        t.same(normalize(parsed), normalize(list));
        return serializeList(parsed) === text;
      }),
      { seed: 8941, numRuns: 500 },
    ),
  );
});

t.test("property: any rate-limit header a server could send round-trips its numbers", async (t) => {
  const window = fc.record({ name: fc.constantFrom("minute", "hour", "day", "burst"), r: fc.nat(1e9), t: fc.nat(86400) });
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(fc.array(window, { minLength: 1, maxLength: 4 }), (ws) => {
        const header = ws.map((w) => `"${w.name}";r=${w.r};t=${w.t}`).join(", ");
        const parsed = parseRateLimit(header);
        return parsed.every((p, i) => p.name === ws[i].name && p.remaining === ws[i].r && p.reset === ws[i].t);
      }),
      { seed: 1, numRuns: 200 },
    ),
  );
});
