/**
 * Identifiers drawn from a seeded stream. Each subsystem forks its own stream (for example
 * `rng.fork("pods.ids")`) so that creating one kind of entity never shifts another's ids.
 *
 * Ids are drawn with `next()` only (one draw per character or hex digit), so the number of draws
 * per id is fixed and the stream stays aligned however the ids are used.
 */

/** The one method of the engine's Rng that id generation needs (a float in [0, 1)). */
export interface IdSource {
  next(): number;
}

/** Lowercase letters and digits, the alphabet of the real platform's pod ids. */
export const SHORT_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** The real platform's pod ids are 14 characters of [a-z0-9]. */
export const POD_ID_LENGTH = 14;

export const SHORT_ID_PATTERN = /^[a-z0-9]+$/;
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const HEX = "0123456789abcdef";

function drawIndex(rng: IdSource, n: number): number {
  // Guard against a generator that could return exactly 1.0.
  return Math.min(n - 1, Math.floor(rng.next() * n));
}

/** A lowercase alphanumeric id of `length` characters (default 14, like a pod id). */
export function shortId(rng: IdSource, length: number = POD_ID_LENGTH): string {
  let out = "";
  for (let i = 0; i < length; i++) out += SHORT_ID_ALPHABET[drawIndex(rng, SHORT_ID_ALPHABET.length)];
  return out;
}

/** A version-4-shaped UUID (`xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx`, V in 8..b): 31 draws. */
export function uuid(rng: IdSource): string {
  let hex = "";
  for (let i = 0; i < 30; i++) hex += HEX[drawIndex(rng, 16)];
  const variant = HEX[8 + drawIndex(rng, 4)];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(12, 15)}-${variant}${hex.slice(15, 18)}-${hex.slice(18, 30)}`;
}

/** Thrown when a bounded number of draws could not produce an id not already taken. */
export class IdExhaustedError extends Error {
  readonly code = "CPSIM_ERR_ID_EXHAUSTED";
  constructor(readonly attempts: number) {
    super(`could not draw a free id in ${attempts} attempts`);
    this.name = "IdExhaustedError";
  }
}

/**
 * Draws ids until one is not `taken`. With 36^14 possible pod ids a second draw is practically
 * never needed, but the bound keeps the loop finite whatever `taken` says.
 */
export function uniqueId(draw: () => string, taken: (id: string) => boolean, maxAttempts = 16): string {
  for (let i = 0; i < maxAttempts; i++) {
    const id = draw();
    if (!taken(id)) return id;
  }
  throw new IdExhaustedError(maxAttempts);
}
