/**
 * Large JSON answers written in pieces, yielding to the event loop between them: one
 * JSON.stringify of a 16 MB job output holds every other client for tens of milliseconds, and
 * the whole string sits in memory twice. The value is walked lazily; any part small enough is
 * stringified at once, a long string is escaped slice by slice. The bytes are those of
 * JSON.stringify(value) (the same key order, `undefined` dropped or null as it does).
 */
import type { ServerResponse } from "node:http";
import { setImmediate as yieldLoop } from "node:timers/promises";
import { jsonSizeAtMost } from "../domain/serverless/json-size.ts";

/** Bodies estimated above this many bytes are streamed. */
export const LARGE_BODY_BYTES = 256 * 1024;
const PIECE = 64 * 1024;

export function isLargeBody(value: unknown): boolean {
  return jsonSizeAtMost(value, LARGE_BODY_BYTES) > LARGE_BODY_BYTES;
}

/** The pieces of JSON.stringify(value), each about PIECE characters or less. */
export function* jsonPieces(value: unknown): Generator<string> {
  if (value === null || typeof value !== "object" || jsonSizeAtMost(value, PIECE) <= PIECE) {
    if (typeof value === "string" && value.length > PIECE) {
      yield '"';
      for (let i = 0; i < value.length; ) {
        let end = Math.min(i + PIECE, value.length);
        // Never split a surrogate pair: JSON.stringify would escape each half on its own.
        const last = value.charCodeAt(end - 1);
        if (end < value.length && last >= 0xd800 && last <= 0xdbff) end--;
        yield JSON.stringify(value.slice(i, end)).slice(1, -1);
        i = end;
      }
      yield '"';
      return;
    }
    yield JSON.stringify(value) ?? "null";
    return;
  }
  if (Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ",";
      const v = value[i];
      if (v === undefined || typeof v === "function" || typeof v === "symbol") yield "null";
      else yield* jsonPieces(v);
    }
    yield "]";
    return;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    yield JSON.stringify(value);
    return;
  }
  yield "{";
  let first = true;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    yield `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    yield* jsonPieces(v);
  }
  yield "}";
}

/**
 * Pieces all large answers together write in one turn of the event loop; the others wait a turn.
 * Without this bound, 100 answers streaming at once write 100 pieces a turn (6 MB, tens of ms on a
 * busy machine) and a small request waits for all of them.
 */
export const PIECES_PER_TURN = 8;
let piecesThisTurn = 0;
let resetQueued = false;

/** Waits until this turn of the event loop has room for one more piece, and takes it. */
async function pieceSlot(): Promise<void> {
  while (piecesThisTurn >= PIECES_PER_TURN) await yieldLoop();
  if (!resetQueued) {
    resetQueued = true;
    setImmediate(() => {
      piecesThisTurn = 0;
      resetQueued = false;
    });
  }
  piecesThisTurn++;
}

/** Writes `value` as JSON to `res` and ends it, a piece at a time, waiting for drain. */
export async function writeJsonStream(res: ServerResponse, value: unknown): Promise<void> {
  let buffer = "";
  for (const piece of jsonPieces(value)) {
    buffer += piece;
    if (buffer.length < PIECE) continue;
    await pieceSlot();
    if (res.destroyed) return;
    const flushed = res.write(buffer);
    buffer = "";
    if (!flushed) await drainOrClose(res);
    else await yieldLoop();
  }
  if (!res.destroyed) res.end(buffer);
}

/**
 * Resolves at the next drain or close, then removes both listeners: racing two `events.once`
 * promises would leave the loser's listeners (and its error listener) on the response, one set
 * per wait, until Node warns of a leak.
 */
function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
