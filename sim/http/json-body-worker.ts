/**
 * A worker thread's task (piscina): reads a large JSON body as parseJsonBody does, off the event
 * loop. The body comes in a SharedArrayBuffer (no copy either way) and the long strings of the
 * value go back as bytes (big-strings.ts), written over the body once it is parsed, so the event
 * loop only rebuilds a small tree.
 */
import { type BigStrings, detachBigStrings } from "./big-strings.ts";
import { BodyRejection, type JsonLimits, parseJsonBody } from "./json-body.ts";

export interface ParseTask {
  /** The body is the first `length` bytes. */
  readonly shared: SharedArrayBuffer;
  readonly length: number;
  readonly limits: JsonLimits;
}

export type ParseResult =
  | { readonly ok: true; readonly value: unknown; readonly big?: BigStrings }
  | { readonly ok: false; readonly status: number; readonly detail: string };

export default function parseTask(task: ParseTask): ParseResult {
  const bytes = Buffer.from(task.shared, 0, task.length);
  try {
    const detached = detachBigStrings(parseJsonBody(bytes, task.limits), task.shared);
    return detached.big === undefined ? { ok: true, value: detached.value } : { ok: true, value: detached.value, big: detached.big };
  } catch (err) {
    // A class does not cross threads; its status and sentence do.
    if (err instanceof BodyRejection) return { ok: false, status: err.status, detail: err.detail };
    throw err;
  }
}
