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
let inFlight = 0;
let gate: Promise<void> | undefined;

function parsePool(): Piscina<ParseTask, ParseResult> {
  // One thread beside the event loop; idle threads do not keep the process alive.
  pool ??= new Piscina({ filename: fileURLToPath(workerModule(import.meta.url, "json-body-worker")), minThreads: 0, maxThreads: 1, idleTimeout: 10_000 });
  return pool;
}

/** parseJsonBody, on a worker thread; rejects with the same BodyRejection. */
export async function parseJsonBodyOffThread(bytes: Buffer, limits: JsonLimits): Promise<unknown> {
  inFlight++;
  let result: ParseResult;
  try {
    if (gate !== undefined) await gate;
    // Copied to the thread (about a millisecond for 10 MB), not moved: the fallback below and
    // anything else holding the body still read it.
    const task: ParseTask = { bytes, limits: { maxJsonDepth: limits.maxJsonDepth, maxJsonArrayItems: limits.maxJsonArrayItems, maxJsonValues: limits.maxJsonValues } };
    result = await parsePool().run(task);
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
