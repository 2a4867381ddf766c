// The platform caps a stream chunk at 1 MB and splits larger output across chunks. Only string
// output can be split so that the pieces join back to the original; anything else is one chunk.

export const STREAM_CHUNK_MAX_BYTES = 1_000_000;

/**
 * UTF-8 bytes of the character starting at UTF-16 index i. Only a surrogate pair takes 4 bytes,
 * and it is the only character spanning two code units, so 4 also tells the caller to step by 2.
 */
function utf8Width(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 4;
  }
  // Other BMP characters, and lone surrogates, which an encoder writes as U+FFFD (3 bytes).
  return 3;
}

/**
 * Splits a string into consecutive pieces of at most maxBytes bytes of UTF-8 each, never inside a
 * character (a surrogate pair stays whole), whose concatenation is the original. An empty string
 * is one empty piece. Non-strings pass through as a single chunk.
 */
export function splitStreamOutput(output: unknown, maxBytes: number = STREAM_CHUNK_MAX_BYTES): unknown[] {
  // Four bytes is the widest UTF-8 character; a smaller cap could not always make progress.
  if (!Number.isInteger(maxBytes) || maxBytes < 4) {
    throw new RangeError(`maxBytes must be an integer of at least 4, got ${maxBytes}`);
  }
  if (typeof output !== "string") return [output];
  const s = output;
  // Fast path: no character takes more than 3 bytes per UTF-16 unit, so short strings fit.
  if (s.length * 3 <= maxBytes) return [s];
  const pieces: string[] = [];
  let start = 0;
  let bytes = 0;
  let i = 0;
  while (i < s.length) {
    const w = utf8Width(s, i);
    if (bytes + w > maxBytes) {
      pieces.push(s.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += w;
    i += w === 4 ? 2 : 1;
  }
  pieces.push(s.slice(start));
  return pieces;
}

/** The UTF-8 length of a string, counted as an encoder would (lone surrogates as 3 bytes). */
export function utf8ByteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; ) {
    const w = utf8Width(s, i);
    n += w;
    i += w === 4 ? 2 : 1;
  }
  return n;
}
