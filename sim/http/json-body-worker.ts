/** A worker thread's task (piscina): reads a large JSON body as parseJsonBody does, off the event loop. */
import { BodyRejection, type JsonLimits, parseJsonBody } from "./json-body.ts";

export interface ParseTask {
  readonly bytes: Uint8Array;
  readonly limits: JsonLimits;
}

export type ParseResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly status: number; readonly detail: string };

export default function parseTask(task: ParseTask): ParseResult {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  try {
    return { ok: true, value: parseJsonBody(bytes, task.limits) };
  } catch (err) {
    // A class does not cross threads; its status and sentence do.
    if (err instanceof BodyRejection) return { ok: false, status: err.status, detail: err.detail };
    throw err;
  }
}
