/**
 * The conformance handler's contract, restated in the suite's own code: the suite's expectations
 * come from the contract, never from the emulator's handler (a bug shared by both would pass).
 *
 * "`{"op": "bytes", "n": N}` returns a string of N characters `a`..`z` repeating
 * (`"abcdefghijklmnopqrstuvwxyzabc..."`)", and a `stream` output is "a string of B characters
 * (`a`..`z` repeating, starting over in each output)".
 */

/** The contract's filler alphabet, in order. */
export const CONTRACT_ALPHABET = "abcdefghijklmnopqrstuvwxyz";

/** The contract's filler text of n characters: a..z repeating, starting at "a". */
export function contractFiller(n: number): string {
  if (!Number.isSafeInteger(n) || n <= 0) return "";
  let out = "";
  for (let i = 0; i < n; i++) out += CONTRACT_ALPHABET[i % CONTRACT_ALPHABET.length];
  return out;
}
