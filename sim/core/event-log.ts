/**
 * The event log: a rolling 64-bit hash of every executed event (time, kind, target) and of any
 * integers the model notes, so that two runs can be compared in O(1) and, with the retained
 * per-event hashes, bisected to the first event where they part.
 *
 * The hash is two 32-bit lanes built from Math.imul, each fed a different mix of the event's words.
 * Each step is a bijection of the lane state for a fixed input, so two runs that differ once keep
 * differing: that is what makes bisection over hashAt() sound. It is not cryptographic; it only has
 * to notice accidents.
 */
import { InvalidParameterError } from "./errors.ts";
import type { Micros } from "./time.ts";

const DEFAULT_HISTORY_LIMIT = 1_000_000;
const TWO_POW_32 = 4294967296;
const SEED_A = 0x243f6a88;
const SEED_B = 0x85a308d3;
// The mixing constants (odd, from MurmurHash3, xxHash and the golden ratio). record() writes them
// as literals; note() and these names document them.
const MUL_A = 0x9e3779b1;
const MUL_B = 0x85ebca77;
const MIX_1 = 0xcc9e2d51;
const MIX_2 = 0x1b873593;
const MIX_3 = 0x27d4eb2f;
const MIX_4 = 0x165667b1;
const MIX_5 = 0xc2b2ae3d;
/** Mixed before a note so that note(x) never hashes like an event field x. */
const NOTE_TAG = 0x6e6f7465;
const INITIAL_HISTORY = 1024;

export interface EventLogOptions {
  /** How many per-event hashes hashAt() keeps, counted from the start; 0 keeps none. */
  historyLimit?: number;
}

export class EventLog {
  /**
   * The two lanes. A typed array rather than two fields: the lanes take any int32 value, and an
   * object field that outgrows V8's small integers changes the object's shape mid-run.
   */
  private readonly lanes = Int32Array.of(SEED_A, SEED_B);
  private n = 0;
  private readonly limit: number = 0;
  /**
   * history[2i], history[2i + 1]: the lanes after i events and the notes made with them, stored
   * when event i + 1 is recorded. Grown by doubling, up to the limit.
   */
  private history: Int32Array;

  constructor(options: EventLogOptions = {}) {
    const limit = options.historyLimit ?? DEFAULT_HISTORY_LIMIT;
    if (!Number.isSafeInteger(limit) || limit < 0) {
      throw new InvalidParameterError("historyLimit", limit, "a non-negative safe integer");
    }
    this.limit = limit;
    this.history = new Int32Array(0);
  }

  /**
   * Mixes one executed event into the hash; the engine calls it before running the handler.
   * Constants are written as literals here (they are MIX_1..MIX_5, MUL_A, MUL_B and 2^-32): a
   * module-level const costs a context load and a TDZ check per use in the hot path, and bytecode
   * that counts against V8's inlining budget.
   */
  record(time: Micros, kind: number, target: number): void {
    const n = this.n;
    if (n < this.limit) this.keep(n);
    // The event is first folded into one word per lane, which does not depend on the lane state,
    // so that the chain from one event's state to the next is a single multiply and shift.
    const lo = time | 0;
    const hi = (time * 2.3283064365386963e-10) | 0;
    const x = Math.imul(lo ^ Math.imul(target, 0xcc9e2d51), 0x1b873593) ^ (kind | (hi << 16));
    const y = (Math.imul(target ^ Math.imul(lo, 0x27d4eb2f), 0x165667b1) + Math.imul(hi, 0xc2b2ae3d)) ^ kind;
    const lanes = this.lanes;
    const a = Math.imul(lanes[0] ^ x, 0x9e3779b1);
    const b = Math.imul((lanes[1] + y) | 0, 0x85ebca77);
    lanes[0] = a ^ (a >>> 15);
    lanes[1] = b ^ (b >>> 13);
    this.n = n + 1;
  }

  /** Mixes an integer the model chose (a decision, a draw) into the hash. */
  note(value: number): void {
    if (!Number.isSafeInteger(value)) throw new InvalidParameterError("note.value", value, "a safe integer");
    const lo = value | 0;
    const hi = Math.floor(value / TWO_POW_32) | 0;
    const x = Math.imul(lo ^ Math.imul(hi, MIX_1), MIX_2) ^ NOTE_TAG;
    const y = (Math.imul(hi ^ Math.imul(lo, MIX_3), MIX_4) + NOTE_TAG) | 0;
    const lanes = this.lanes;
    const a = Math.imul(lanes[0] ^ x, MUL_A);
    const b = Math.imul((lanes[1] + y) | 0, MUL_B);
    lanes[0] = a ^ (a >>> 15);
    lanes[1] = b ^ (b >>> 13);
  }

  /** Events recorded so far. */
  get count(): number {
    return this.n;
  }

  /** How many per-event hashes this log keeps. */
  get historyLimit(): number {
    return this.limit;
  }

  /** Bytes the retained per-event hashes take (they grow with events run, up to the limit). */
  get historyBytes(): number {
    return this.history.byteLength;
  }

  /** The current hash, 16 lowercase hex characters. */
  hash(): string {
    return toHex(this.lanes[0], this.lanes[1]);
  }

  /**
   * The hash after the first n events (and the notes made with them); hashAt(count) is hash().
   * Throws RangeError when that point was not retained.
   */
  hashAt(n: number): string {
    if (n === this.n) return this.hash();
    if (!this.retains(n)) {
      throw new RangeError(
        `hashAt(${String(n)}): the log retains hashes after 0..${Math.min(this.n, this.limit) - 1} events and after all ${this.n}`,
      );
    }
    return toHex(this.history[2 * n], this.history[2 * n + 1]);
  }

  /** Whether hashAt(n) can answer. */
  retains(n: number): boolean {
    return Number.isSafeInteger(n) && n >= 0 && (n === this.n || (n < this.n && n < this.limit));
  }

  /** Stores the lanes as they are after n events, growing the history by doubling. */
  private keep(n: number): void {
    if (2 * n >= this.history.length) this.growHistory();
    this.history[2 * n] = this.lanes[0];
    this.history[2 * n + 1] = this.lanes[1];
  }

  private growHistory(): void {
    const size = Math.min(2 * this.limit, Math.max(2 * INITIAL_HISTORY, 2 * this.history.length));
    const grown = new Int32Array(size);
    grown.set(this.history);
    this.history = grown;
  }
}

/**
 * The first n at which a.hashAt(n) and b.hashAt(n) differ, found by bisection; undefined when the
 * logs are identical. When one log is a prefix of the other, that is the shorter count + 1.
 * Throws RangeError when the logs differ only beyond the history both retain.
 */
export function firstDivergence(a: EventLog, b: EventLog): number | undefined {
  if (a.count === b.count && a.hash() === b.hash()) return undefined;
  const common = Math.min(a.count, b.count);
  let top = common;
  if (!(a.retains(top) && b.retains(top))) {
    top = Math.min(common, a.historyLimit - 1, b.historyLimit - 1);
  }
  if (top < 0) throw new RangeError("firstDivergence: neither log retains any per-event hash");
  if (a.hashAt(top) === b.hashAt(top)) {
    if (top === common) return common + 1;
    throw new RangeError(
      `firstDivergence: the logs agree on the first ${top} events, and differ beyond the retained history`,
    );
  }
  if (a.hashAt(0) !== b.hashAt(0)) return 0;
  // Invariant: equal after lo events, different after hi events.
  let lo = 0;
  let hi = top;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (a.hashAt(mid) === b.hashAt(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}

function toHex(a: number, b: number): string {
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}
