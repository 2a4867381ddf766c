/**
 * Large request bodies are read on a worker thread: decoding and parsing a 9.9 MB upload holds
 * the event loop for 20–30 ms (more on a busy machine), during which no other request is
 * answered. The body reaches the thread in a SharedArrayBuffer (body-read.ts fills it as the
 * bytes arrive), so nothing is copied or serialised on the way; the value comes back with its
 * long strings as bytes (big-strings.ts), so the event loop only rebuilds a small tree. The
 * checks and refusals are parseJsonBody's, the same words. If the thread cannot run, the body is
 * read in this thread instead.
 */
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { workerModule, workerExecArgv } from "../package-root.ts";
import { attachBigStrings } from "./big-strings.ts";
import { BodyRejection, type JsonLimits, parseJsonBody } from "./json-body.ts";
import type { ParseResult, ParseTask } from "./json-body-worker.ts";

/** Bodies of this many bytes and more are read off the event loop. */
export const OFF_THREAD_BODY_BYTES = 1024 * 1024;
/** Bodies waiting for the thread at most; past it a body is read in this thread. */
const MAX_QUEUE = 64;

let pool: Piscina<ParseTask, ParseResult> | undefined;
let inFlight = 0;
let gate: Promise<void> | undefined;

/**
 * The pool, started on first use. One thread beside the event loop, kept once started (an idle
 * thread does not keep the process). A body that comes while it starts waits for it: reading
 * the body here instead would hold every other request for as long.
 */
function parsePool(): Piscina<ParseTask, ParseResult> {
  pool ??= new Piscina({ execArgv: workerExecArgv(), filename: fileURLToPath(workerModule(import.meta.url, "json-body-worker")), minThreads: 1, maxThreads: 1, maxQueue: MAX_QUEUE });
  return pool;
}

function plainLimits(limits: JsonLimits): JsonLimits {
  return { maxJsonDepth: limits.maxJsonDepth, maxJsonArrayItems: limits.maxJsonArrayItems, maxJsonValues: limits.maxJsonValues };
}

/** Starts the thread if it is not running (a large body's headers came: it starts while the bytes arrive). */
export function startParseThread(): void {
  parsePool();
}

/** Starts the thread and resolves once it answers (the emulator starts it when a large body's headers come). */
export function warmParsePool(limits: JsonLimits): Promise<void> {
  return parsePool()
    .run({ shared: new SharedArrayBuffer(0), length: 0, limits: plainLimits(limits) })
    .then(
      () => undefined,
      () => undefined,
    );
}

/**
 * parseJsonBody of the first `length` bytes of `shared`, on the worker thread; rejects with the
 * same BodyRejection. The thread writes the value's long strings over the body: `shared` is the
 * caller's again once this resolves, its content no longer the body.
 */
export async function parseSharedJsonOffThread(shared: SharedArrayBuffer, length: number, limits: JsonLimits): Promise<unknown> {
  inFlight++;
  let result: ParseResult;
  try {
    if (gate !== undefined) await gate;
    result = await parsePool().run({ shared, length, limits: plainLimits(limits) });
  } catch {
    return parseJsonBody(Buffer.from(shared, 0, length), limits);
  } finally {
    inFlight--;
  }
  if (!result.ok) throw new BodyRejection(result.status, result.detail);
  return attachBigStrings(result.value, result.big, shared);
}

/** parseJsonBody on the worker thread, for a body already in one Buffer (copied once into shared memory). */
export function parseJsonBodyOffThread(bytes: Buffer, limits: JsonLimits): Promise<unknown> {
  const shared = new SharedArrayBuffer(bytes.length);
  Buffer.from(shared).set(bytes);
  return parseSharedJsonOffThread(shared, bytes.length, limits);
}

/** Bodies being read off the event loop now (for tests and diagnostics). */
export function parsesInFlight(): number {
  return inFlight;
}

/** For tests: reads wait until the returned function is called (order by events, not time). */
export function holdParses(): () => void {
  let release!: () => void;
  gate = new Promise<void>((r) => (release = r));
  return () => {
    gate = undefined;
    release();
  };
}
