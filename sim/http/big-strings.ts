/**
 * Long strings cross from a worker thread to the event loop as bytes, not as strings. A value
 * posted back from a thread is rebuilt on the receiving side (a structured clone), and a 10 MB
 * string costs the event loop 5–13 ms there, inside the V8 heap (the next full collections grow
 * with it). Here the thread writes each long string into one SharedArrayBuffer (Latin-1 when
 * every character fits a byte, else UTF-16 code units, so any string comes back the same, lone
 * surrogates included) and leaves an empty string in its place; the event loop decodes them with
 * Buffer#toString a piece at a time (see attachBigStrings). The value is the same, character for
 * character.
 */

/** Strings of this many characters and more travel as bytes. */
export const BIG_STRING_CHARS = 64 * 1024;
/** Objects and arrays walked in one value at most (a body's values are bounded far below this by maxJsonValues). */
const MAX_WALK = 1_000_000;

export interface BigString {
  /** Keys and indexes from the root to the string ([] when the value itself is the string). */
  readonly path: readonly (string | number)[];
  readonly offset: number;
  readonly bytes: number;
  readonly encoding: "latin1" | "utf16le";
}

export interface BigStrings {
  /** Where the bytes are; absent when they were written over the body the value was parsed from. */
  readonly buffer?: SharedArrayBuffer;
  readonly strings: readonly BigString[];
}

/** A value with its long strings taken out (worker side); `big` is undefined when it has none. */
export interface Detached {
  readonly value: unknown;
  readonly big?: BigStrings;
}

// Every character below U+0100: the string is its own Latin-1 bytes.
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

/**
 * Takes the long strings out of `value` (changing it in place: the value is the thread's own,
 * just parsed). Objects and arrays are walked once, depth first. The bytes are written into
 * `over` when they fit (the body's own shared memory, read already): no new memory, and the
 * event loop, which holds that buffer, receives no second one to account for.
 */
export function detachBigStrings(value: unknown, over?: SharedArrayBuffer): Detached {
  const found: { path: (string | number)[]; s: string; encoding: "latin1" | "utf16le" }[] = [];
  let total = 0;
  const note = (path: (string | number)[], s: string): void => {
    const encoding = BEYOND_LATIN1.test(s) ? "utf16le" : "latin1";
    found.push({ path, s, encoding });
    total += encoding === "latin1" ? s.length : 2 * s.length;
  };
  if (typeof value === "string") {
    if (value.length < BIG_STRING_CHARS) return { value };
    note([], value);
    value = "";
  } else {
    const stack: { v: object; path: (string | number)[] }[] = [];
    if (value !== null && typeof value === "object") stack.push({ v: value, path: [] });
    for (let walked = 0; stack.length > 0 && walked < MAX_WALK; walked++) {
      const { v, path } = stack.pop()!;
      const record = v as Record<string | number, unknown>;
      const keys: (string | number)[] = Array.isArray(v) ? Array.from({ length: v.length }, (_, i) => i) : Object.keys(v);
      for (const key of keys) {
        const item = record[key];
        if (typeof item === "string") {
          if (item.length >= BIG_STRING_CHARS) {
            note([...path, key], item);
            record[key] = "";
          }
        } else if (item !== null && typeof item === "object") {
          stack.push({ v: item, path: [...path, key] });
        }
      }
    }
  }
  if (found.length === 0) return { value };
  const inPlace = over !== undefined && total <= over.byteLength;
  const buffer = inPlace ? over : new SharedArrayBuffer(total);
  const bytes = Buffer.from(buffer);
  const strings: BigString[] = [];
  let offset = 0;
  for (const f of found) {
    const written = bytes.write(f.s, offset, f.encoding);
    strings.push({ path: f.path, offset, bytes: written, encoding: f.encoding });
    offset += written;
  }
  return { value, big: inPlace ? { strings } : { buffer, strings } };
}

/**
 * Bytes decoded in one turn of the event loop at most. Each piece is a string in the V8 heap
 * (node makes one of 1,031,913 bytes and more outside it, as external memory, and every 64 MB of
 * that starts a full collection: 12–17 instead of 4 over 60 uploads of 9.9 MB, and a worse
 * canary); a quarter of a megabyte keeps a turn short on a busy machine (canary p99 80–108 ms
 * against 93–147 with 1 MB pieces at load 16–20).
 */
export const DECODE_PIECE_BYTES = 250_000;

/**
 * Puts the long strings back into `value` (event loop side) and resolves to the value (a new one
 * when the root was the string). A string is decoded DECODE_PIECE_BYTES at a time, one piece a
 * turn of the event loop, and the pieces joined (V8 joins long strings without copying them):
 * decoding 10 MB at once, most of it page faults of the fresh memory, would hold the loop for
 * 5 ms and more. The joined string is made flat (copied whole) only by what reads inside it.
 */
export async function attachBigStrings(value: unknown, big: BigStrings | undefined, body: SharedArrayBuffer): Promise<unknown> {
  if (big === undefined) return value;
  const bytes = Buffer.from(big.buffer ?? body);
  let turn = 0;
  for (const s of big.strings) {
    let text = "";
    for (let at = s.offset, end = s.offset + s.bytes; at < end; at += DECODE_PIECE_BYTES) {
      if (turn++ > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      text += bytes.toString(s.encoding, at, Math.min(end, at + DECODE_PIECE_BYTES));
    }
    if (s.path.length === 0) return text;
    let holder = value as Record<string | number, unknown>;
    for (let i = 0; i < s.path.length - 1; i++) holder = holder[s.path[i]!] as Record<string | number, unknown>;
    holder[s.path[s.path.length - 1]!] = text;
  }
  return value;
}
