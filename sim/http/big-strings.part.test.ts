// Long strings leave a parsed value as bytes and come back the same, character for character:
// Latin-1 and UTF-16 ones, lone surrogates, a pair split where a decoding piece ends, a string at
// the root, strings deep in arrays; written over the body when they fit, else into new memory;
// decoded a piece per turn of the event loop.
import t from "tap";
import { attachBigStrings, BIG_STRING_CHARS, DECODE_PIECE_BYTES, detachBigStrings } from "./big-strings.ts";

function roundTrip(value: unknown, over?: SharedArrayBuffer): Promise<unknown> {
  const copy = structuredClone(value);
  const detached = detachBigStrings(copy, over);
  // What crosses the thread boundary is a structured clone.
  const crossed = structuredClone({ value: detached.value, big: detached.big });
  return attachBigStrings(crossed.value, crossed.big, over ?? new SharedArrayBuffer(0));
}

t.test("every kind of long string comes back the same", async (t) => {
  const latin = "p".repeat(BIG_STRING_CHARS) + "é\u00ff\u0000";
  const wide = "€".repeat(BIG_STRING_CHARS) + "\ud800" + "x" + "\udfff" + "😀";
  // An astral character whose two halves fall on both sides of a decoding piece's end.
  const split = "a".repeat(DECODE_PIECE_BYTES / 2 - 1) + "😀" + "b".repeat(10);
  const value = { input: { latin, nested: [1, "short", [wide, { split }]], n: null, t: true }, after: "kept" };
  const back = await roundTrip(value);
  t.strictSame(back, value);
  t.equal(JSON.stringify(back), JSON.stringify(value), "the same JSON, byte for byte");
  t.equal(await roundTrip(latin), latin, "a string at the root");
  t.equal(await roundTrip("short"), "short", "a short root string stays as it is");
  t.strictSame(await roundTrip({ a: [] }), { a: [] });
});

t.test("the bytes are written over the body when they fit, else into new memory", async (t) => {
  const s = "q".repeat(BIG_STRING_CHARS * 2);
  const over = new SharedArrayBuffer(s.length + 10);
  const fits = detachBigStrings({ s }, over);
  t.equal(fits.big?.buffer, undefined, "no second buffer");
  t.equal(Buffer.from(over, 0, 4).toString("latin1"), "qqqq");
  t.strictSame(await attachBigStrings(fits.value, fits.big, over), { s });
  const small = new SharedArrayBuffer(10);
  const apart = detachBigStrings({ s }, small);
  t.ok(apart.big?.buffer instanceof SharedArrayBuffer, "a buffer of its own");
  t.strictSame(await attachBigStrings(apart.value, apart.big, small), { s });
  t.equal(detachBigStrings({ s: "x" }).big, undefined, "nothing long, nothing to carry");
});

t.test("a long string is decoded a piece per turn of the event loop", async (t) => {
  const s = "z".repeat(3 * DECODE_PIECE_BYTES + 5);
  const detached = detachBigStrings({ s });
  let turns = 0;
  let decoding = true;
  const count = (): void => {
    if (!decoding) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  const back = (await attachBigStrings(detached.value, detached.big, new SharedArrayBuffer(0))) as { s: string };
  decoding = false;
  t.equal(back.s, s);
  t.ok(turns >= 3, `the event loop turned ${turns} times while 4 pieces were decoded`);
});
