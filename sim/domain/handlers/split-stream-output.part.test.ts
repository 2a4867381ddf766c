import t from "tap";
import fc from "fast-check";
import { splitStreamOutput, utf8ByteLength, STREAM_CHUNK_MAX_BYTES } from "./split-stream-output.ts";

const enc = new TextEncoder();
const bytesOf = (s: string): number => enc.encode(s).length;

// Strings of arbitrary UTF-16 code units, lone surrogates included, and of whole code points.
const anyUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 300 }).map((u) => String.fromCharCode(...u));
const anyText = fc.oneof(fc.string({ unit: "binary", maxLength: 300 }), fc.string({ unit: "grapheme", maxLength: 100 }), anyUnits);

t.test("pieces join to the input, each at most maxBytes of UTF-8, never splitting a character", async (t) => {
  fc.assert(
    fc.property(anyText, fc.integer({ min: 4, max: 64 }), (s, max) => {
      const pieces = splitStreamOutput(s, max) as string[];
      if (pieces.join("") !== s) return false;
      for (const p of pieces) if (typeof p !== "string" || bytesOf(p) > max) return false;
      // A split surrogate pair would encode as two U+FFFD and change the bytes.
      const whole = enc.encode(s);
      const joined = Buffer.concat(pieces.map((p) => enc.encode(p)));
      if (!Buffer.from(whole).equals(joined)) return false;
      // Greedy: no piece but the last could have taken the next character too.
      for (let i = 0; i + 1 < pieces.length; i++) {
        const next = pieces[i + 1].codePointAt(0)!;
        if (bytesOf(pieces[i]) + bytesOf(String.fromCodePoint(next)) <= max && next < 0xd800) return false;
      }
      return true;
    }),
    { numRuns: 500 },
  );
  t.pass("property held");
});

t.test("utf8ByteLength agrees with TextEncoder", async (t) => {
  fc.assert(fc.property(anyText, (s) => utf8ByteLength(s) === bytesOf(s)), { numRuns: 300 });
  t.pass("property held");
});

t.test("the default cap is 1,000,000 bytes and splits large output", async (t) => {
  t.equal(STREAM_CHUNK_MAX_BYTES, 1_000_000);
  const s = "é".repeat(600_000); // 1.2 MB
  const pieces = splitStreamOutput(s) as string[];
  t.equal(pieces.length, 2);
  t.equal(bytesOf(pieces[0]), 1_000_000);
  t.equal(pieces.join(""), s);
  const emoji = "😀".repeat(250_001); // 1,000,004 bytes: the cap falls exactly between two pairs
  const ep = splitStreamOutput(emoji) as string[];
  t.same(ep.map(bytesOf), [1_000_000, 4]);
});

t.test("non-strings pass through as one chunk; small and empty strings stay whole", async (t) => {
  const obj = { a: 1 };
  t.equal(splitStreamOutput(obj)[0], obj);
  t.same(splitStreamOutput([1, 2]), [[1, 2]]);
  t.same(splitStreamOutput(null), [null]);
  t.same(splitStreamOutput(""), [""]);
  t.same(splitStreamOutput("abc"), ["abc"]);
  t.same(splitStreamOutput("abcdefghij", 4), ["abcd", "efgh", "ij"]);
});

t.test("a cap that cannot hold every character is refused", async (t) => {
  t.throws(() => splitStreamOutput("x", 3), RangeError);
  t.throws(() => splitStreamOutput("x", 4.5), RangeError);
});
