/**
 * Job ids are computed, not stored: a version-4-shaped UUID that encodes the job's table slot and
 * its sequence number, masked by a keyed mix so that ids look random and a guessed id almost never
 * decodes. The string is built only when an operation returns it, and a lookup decodes it in
 * O(1) without a map from ids to jobs.
 *
 * Layout of the 30 hex digits: check (8) | slot ^ mask (8) | seq low 32 bits ^ mask (8) |
 * seq high 24 bits ^ mask (6), where check = mix(seq, slot, salt) and the masks derive from check.
 */
const HEX = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TWO_POW_32 = 4294967296;
const VARIANTS = "89ab";

/** murmur3's 32-bit finalizer: a bijection with good avalanche. */
export function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

function check(slot: number, seq: number, salt: number): number {
  const lo = seq >>> 0;
  const hi = Math.floor(seq / TWO_POW_32);
  return mix32(mix32(lo ^ salt) ^ mix32(hi + 0x3c6ef372) ^ mix32(slot + 0x9e3779b9));
}

/** Two hex digits per byte, looked up: ids are formatted on every submission, and a journal replays a million. */
const BYTE_HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const hex8 = (n: number): string => BYTE_HEX[(n >>> 24) & 255] + BYTE_HEX[(n >>> 16) & 255] + BYTE_HEX[(n >>> 8) & 255] + BYTE_HEX[n & 255];

export function formatJobId(slot: number, seq: number, salt: number): string {
  const c = check(slot, seq, salt);
  const s = (slot ^ mix32(c ^ 0xa5a5a5a5)) >>> 0;
  const lo = ((seq >>> 0) ^ mix32(c + 1)) >>> 0;
  const hi = ((Math.floor(seq / TWO_POW_32) ^ mix32(c + 2)) & 0xffffff) >>> 0;
  const h = hex8(c) + hex8(s) + hex8(lo) + hex8(hi).slice(2);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(12, 15)}-${VARIANTS[c & 3]}${h.slice(15, 18)}-${h.slice(18, 30)}`;
}

/** The (slot, seq) an id encodes, or undefined when it is not one of ours. Never throws. */
export function parseJobId(id: unknown, salt: number): { slot: number; seq: number } | undefined {
  if (typeof id !== "string" || id.length !== 36 || !HEX.test(id)) return undefined;
  const h = id.slice(0, 8) + id.slice(9, 13) + id.slice(15, 18) + id.slice(20, 23) + id.slice(24, 36);
  const c = parseInt(h.slice(0, 8), 16);
  if (VARIANTS[c & 3] !== id[19]) return undefined;
  const slot = (parseInt(h.slice(8, 16), 16) ^ mix32(c ^ 0xa5a5a5a5)) >>> 0;
  const lo = (parseInt(h.slice(16, 24), 16) ^ mix32(c + 1)) >>> 0;
  const hi = ((parseInt(h.slice(24, 30), 16) ^ mix32(c + 2)) & 0xffffff) >>> 0;
  const seq = hi * TWO_POW_32 + lo;
  if (slot > 0x7fffffff || !Number.isSafeInteger(seq) || check(slot, seq, salt) !== c) return undefined;
  return { slot, seq };
}

/** A worker id like the platform's pod ids: 14 characters of [a-z0-9], from the worker's serial. */
export function formatWorkerId(serial: number, salt: number): string {
  const a = mix32(serial ^ salt).toString(36).padStart(7, "0").slice(-7);
  const b = mix32(serial + 0x27d4eb2f ^ mix32(salt)).toString(36).padStart(7, "0").slice(-7);
  return a + b;
}
