/**
 * One upload, timed, that knows whether the target answered before the whole body went out: the
 * body is streamed in chunks, and an answer whose headers came while chunks were still unsent was
 * given without reading the body (a refusal of the key, the route or the size, decided from the
 * headers alone). Such an answer says nothing of the target's upload rate (target-timing.ts).
 */
import { Readable } from "node:stream";
import { Agent, request as undiciRequest } from "undici";

export interface TimedUpload {
  readonly status: number;
  /** From the first byte sent to the answer's last byte read, in ms (at least 1). */
  readonly ms: number;
  /** Whether every chunk of the body had been handed to the connection when the answer came. */
  readonly bodySent: boolean;
}

const CHUNK_BYTES = 64 * 1024;

export async function timedUpload(url: string, headers: Readonly<Record<string, string>>, body: Buffer, timeoutMs: number): Promise<TimedUpload> {
  let bodySent = false;
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let at = 0; at < body.length; at += CHUNK_BYTES) yield body.subarray(at, at + CHUNK_BYTES);
    bodySent = true;
  }
  // Its own connection, destroyed after: nothing of it outlives the measurement.
  const dispatcher = new Agent({ connections: 1 });
  try {
    const started = performance.now();
    const res = await undiciRequest(url, {
      dispatcher,
      method: "POST",
      headers: { ...headers, "content-length": String(body.length) },
      // Pulled a chunk at a time (no read-ahead), so `bodySent` turns true only once the last one is asked for.
      body: Readable.from(chunks(), { objectMode: false, highWaterMark: 1 }),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const sentBeforeAnswer = bodySent;
    await res.body.text();
    return { status: res.statusCode, ms: Math.max(1, Math.round(performance.now() - started)), bodySent: sentBeforeAnswer };
  } finally {
    await dispatcher.destroy();
  }
}
