// Standard base64 (RFC 4648, with padding) for data: URIs, written out so the domain does not
// depend on a Node global.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export function base64Encode(bytes: Uint8Array): string {
  const parts: string[] = [];
  // Build the text in slices so no single string concatenation grows quadratically.
  const SLICE = 3 * 16_384;
  for (let start = 0; start < bytes.length; start += SLICE) {
    const end = Math.min(start + SLICE, bytes.length);
    let s = "";
    for (let i = start; i < end; i += 3) {
      const a = bytes[i];
      const b = i + 1 < end ? bytes[i + 1] : 0;
      const c = i + 2 < end ? bytes[i + 2] : 0;
      s += ALPHABET[a >> 2] + ALPHABET[((a & 3) << 4) | (b >> 4)];
      s += i + 1 < end ? ALPHABET[((b & 15) << 2) | (c >> 6)] : "=";
      s += i + 2 < end ? ALPHABET[c & 63] : "=";
    }
    parts.push(s);
  }
  return parts.join("");
}
