/**
 * Reads a request body for the JSON parser, in place of fastify's own reader (parseAs "buffer"),
 * which keeps the chunks and joins them at the end: for a 9.9 MB upload that join, and then the
 * copy to the parsing thread, each held the event loop for milliseconds. Here a body whose
 * Content-Length says 1 MiB or more is copied chunk by chunk, as it arrives, into a
 * SharedArrayBuffer that the parsing thread reads as it is (json-body-thread.ts). The checks are
 * fastify's, with its error codes (mapped to answers in emulator.ts): the route's limit (413), a
 * length other than Content-Length (400), a stream error (400 unless it says otherwise).
 */
import { errorCodes } from "fastify";
import { type JsonLimits, parseJsonBody } from "./json-body.ts";
import { OFF_THREAD_BODY_BYTES, parseJsonBodyOffThread, parseSharedJsonOffThread, startParseThread } from "./json-body-thread.ts";

const MiB = 1024 * 1024;
/** Bytes of shared memory held by bodies being read at once; past it a body is collected in chunks as fastify does. */
export const MAX_SHARED_BODY_BYTES = 256 * MiB;
/**
 * Bytes of shared memory kept for the next large bodies once read. Writing 10 MB into fresh
 * memory costs the event loop about 4 ms of page faults (more than the copy itself); memory
 * used before is already mapped.
 */
export const MAX_SPARE_BODY_BYTES = 64 * MiB;
let reserved = 0;
const spare: SharedArrayBuffer[] = [];
let spareBytes = 0;

/** A shared buffer of at least `size` bytes: a spare one not more than twice as big, else a new one (whole MiBs). */
function takeShared(size: number): SharedArrayBuffer {
  let best = -1;
  for (let i = 0; i < spare.length; i++) {
    const n = spare[i]!.byteLength;
    if (n >= size && n <= 2 * size && (best === -1 || n < spare[best]!.byteLength)) best = i;
  }
  if (best === -1) return new SharedArrayBuffer(Math.ceil(size / MiB) * MiB);
  const [found] = spare.splice(best, 1);
  spareBytes -= found!.byteLength;
  return found!;
}

/** Keeps a buffer the parsing thread is done with for the next body (within MAX_SPARE_BODY_BYTES). */
function giveBack(buffer: SharedArrayBuffer): void {
  if (spareBytes + buffer.byteLength > MAX_SPARE_BODY_BYTES) return;
  spare.push(buffer);
  spareBytes += buffer.byteLength;
}

type Payload = NodeJS.ReadableStream & { receivedEncodedLength?: number };
type Done = (err: Error | null, body?: unknown) => void;

export interface BodyReadOptions {
  /** The Content-Length header, if any. */
  readonly contentLength: string | undefined;
  /** The most bytes accepted. */
  readonly limit: number;
  /** False when the stream is not the body as sent (a digest of it): then it is collected in chunks. */
  readonly direct: boolean;
}

/** Bytes of shared memory held by bodies being read now, and kept spare (tests and diagnostics). */
export function sharedBodyBytes(): { readonly reading: number; readonly spare: number } {
  return { reading: reserved, spare: spareBytes };
}

export function readJsonBody(payload: Payload, options: BodyReadOptions, limits: JsonLimits, done: Done): void {
  const contentLength = Number(options.contentLength);
  const limit = options.limit;
  if (contentLength > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const sharedSize = options.direct && contentLength >= OFF_THREAD_BODY_BYTES && reserved + contentLength <= MAX_SHARED_BODY_BYTES ? contentLength : 0;
  reserved += sharedSize;
  let released = false;
  const release = (): void => {
    if (!released) reserved -= sharedSize;
    released = true;
  };
  if (sharedSize > 0) startParseThread();
  const shared = sharedSize > 0 ? takeShared(sharedSize) : undefined;
  const into = shared === undefined ? undefined : Buffer.from(shared);
  const chunks: Buffer[] = [];
  let received = 0;

  const finish = (err: Error | null, body?: unknown): void => {
    payload.removeListener("data", onData);
    payload.removeListener("end", onEnd);
    payload.removeListener("error", onEnd);
    payload.removeListener("close", onClose);
    release();
    done(err, body);
  };
  function onData(chunk: Buffer | string): void {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    const start = received;
    received += bytes.length;
    if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) {
      finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    // More than Content-Length cannot be stored; only counted (the length check below refuses it).
    if (into !== undefined) {
      if (received <= contentLength) copyIntoShared(into, bytes, start);
    } else {
      chunks.push(bytes);
    }
  }
  function onEnd(err?: Error & { statusCode?: number }): void {
    if (err != null) {
      if (!(typeof err.statusCode === "number" && err.statusCode >= 400)) err.statusCode = 400;
      finish(err);
      return;
    }
    if (!Number.isNaN(contentLength) && (payload.receivedEncodedLength || received) !== contentLength) {
      finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    payload.removeListener("data", onData);
    payload.removeListener("end", onEnd);
    payload.removeListener("error", onEnd);
    payload.removeListener("close", onClose);
    parse(shared, chunks, received, limits).then(
      (value) => {
        if (shared !== undefined) giveBack(shared);
        finish(null, value);
      },
      (e: Error) => {
        if (shared !== undefined) giveBack(shared);
        finish(e);
      },
    );
  }
  // A client gone before the end: nobody reads the answer, but the reservation is given back.
  function onClose(): void {
    payload.removeListener("data", onData);
    payload.removeListener("end", onEnd);
    payload.removeListener("error", onEnd);
    payload.removeListener("close", onClose);
    release();
  }
  payload.on("data", onData);
  payload.on("end", onEnd);
  payload.on("error", onEnd);
  payload.on("close", onClose);
  payload.resume();
}

const STAGE = 64 * 1024;
const stage = Buffer.allocUnsafeSlow(STAGE + 8);

/**
 * `into.set(bytes, start)`, fast. V8 copies into shared memory with word-sized stores only when
 * source and target are aligned alike, else byte by byte (about 3 ms for 10 MB instead of 0.6);
 * a socket's chunks land at any offset. Each piece is staged in an ordinary buffer at the
 * target's alignment first (a copy of hot memory), then copied over aligned.
 */
function copyIntoShared(into: Buffer, bytes: Buffer, start: number): void {
  for (let done = 0; done < bytes.length; done += STAGE) {
    const piece = bytes.subarray(done, Math.min(bytes.length, done + STAGE));
    const at = start + done;
    const shift = (into.byteOffset + at) & 7;
    stage.set(piece, shift);
    into.set(stage.subarray(shift, shift + piece.length), at);
  }
}

async function parse(shared: SharedArrayBuffer | undefined, chunks: Buffer[], length: number, limits: JsonLimits): Promise<unknown> {
  if (shared !== undefined) return parseSharedJsonOffThread(shared, length, limits);
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  // A large body without Content-Length (chunked) or past the shared budget: one copy, then the thread.
  if (length >= OFF_THREAD_BODY_BYTES) return parseJsonBodyOffThread(bytes, limits);
  return parseJsonBody(bytes, limits);
}
