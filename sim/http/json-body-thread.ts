/**
 * Large request bodies are read on a worker thread: decoding and parsing a 9.9 MB upload holds
 * the event loop for 20–30 ms (more on a busy machine), during which no other request is
 * answered; here the event loop only receives the parsed value (a copy, about a millisecond).
 * The checks and refusals are parseJsonBody's, the same words. If the thread cannot run, the body
 * is read in this thread instead.
 */
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { workerModule } from "../package-root.ts";
import { BodyRejection, type JsonLimits, parseJsonBody } from "./json-body.ts";
import type { ParseResult, ParseTask } from "./json-body-worker.ts";

/** Bodies of this many bytes and more are read off the event loop. */
export const OFF_THREAD_BODY_BYTES = 1024 * 1024;

let pool: Piscina<ParseTask, ParseResult> | undefined;
let started: Promise<void> | undefined;
let ready = false;
let inFlight = 0;
let gate: Promise<void> | undefined;

/** The pool, started on first use; `ready` once its thread has answered a first task. */
function parsePool(limits: JsonLimits): Piscina<ParseTask, ParseResult> {
  if (pool === undefined) {
    // One thread beside the event loop, kept once started (an idle thread does not keep the process).
    pool = new Piscina({ filename: fileURLToPath(workerModule(import.meta.url, "json-body-worker")), minThreads: 1, maxThreads: 1 });
    started = pool.run({ bytes: new Uint8Array(0), limits: plainLimits(limits) }).then(
      () => void (ready = true),
      () => undefined,
    );
  }
  return pool;
}

function plainLimits(limits: JsonLimits): JsonLimits {
  return { maxJsonDepth: limits.maxJsonDepth, maxJsonArrayItems: limits.maxJsonArrayItems, maxJsonValues: limits.maxJsonValues };
}

/** Starts the thread and resolves once it answers (tests; the emulator starts it on first use). */
export function warmParsePool(limits: JsonLimits): Promise<void> {
  parsePool(limits);
  return started!;
}

/**
 * parseJsonBody, on a worker thread; rejects with the same BodyRejection. While the thread is
 * still starting (the first large body of the process), the body is read here instead of waiting
 * for it: a thread's start takes longer than the read on a busy machine.
 */
export async function parseJsonBodyOffThread(bytes: Buffer, limits: JsonLimits): Promise<unknown> {
  const threads = parsePool(limits);
  if (!ready && gate === undefined) return parseJsonBody(bytes, limits);
  inFlight++;
  let result: ParseResult;
  try {
    if (gate !== undefined) await gate;
    // Copied to the thread (about a millisecond for 10 MB), not moved: the fallback below and
    // anything else holding the body still read it.
    result = await threads.run({ bytes, limits: plainLimits(limits) });
  } catch {
    return parseJsonBody(bytes, limits);
  } finally {
    inFlight--;
  }
  if (!result.ok) throw new BodyRejection(result.status, result.detail);
  return result.value;
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
