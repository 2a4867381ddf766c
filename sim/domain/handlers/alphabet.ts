// The conformance contract's filler text: "abcdefghijklmnopqrstuvwxyzabc...". Every string the
// conformance handler produces by size starts over at "a", so a checker can rebuild it from a length.

const ALPHABET = "abcdefghijklmnopqrstuvwxyz";

/** A string of n characters a..z repeating, starting at "a". */
export function alphabetString(n: number): string {
  if (n <= 0) return "";
  return ALPHABET.repeat(Math.ceil(n / ALPHABET.length)).slice(0, n);
}
