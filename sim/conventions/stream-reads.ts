/**
 * The `streamReads` dimension: how many chunks a stream read gives and which answer reports the
 * job's end. The model gives every chunk that appeared since the previous read and the job's status
 * (docs/choices.md's `{status, stream}`); under another value the layer holds back what a read
 * does not give and reports the job not final (`IN_PROGRESS`) until the last chunk is given, so a
 * client that reads until a final status (the official JS client) still gets every chunk, in
 * order, once.
 *
 * Bounded: at most MAX_STREAMS jobs with chunks held back; past that the stream read longest ago
 * is forgotten (its held chunks dropped, as a service drops an abandoned stream).
 */
import type { ApiResponse } from "../api/types.ts";
import type { Conventions } from "./dimensions.ts";

const MAX_STREAMS = 256;
const FINAL = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);
/** Chunks a read gives at most, by value; undefined: all. */
const PER_READ: Readonly<Record<Conventions["streamReads"], number | undefined>> = { pending: undefined, "one-per-read": 1, "batches-of-3": 3, "end-on-empty": undefined };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

interface Held {
  readonly chunks: unknown[];
  /** end-on-empty: the chunks were given, the final status is owed on the next read. */
  endOwed: boolean;
}

export class StreamReads {
  private readonly held = new Map<string, Held>();
  constructor(private readonly c: Conventions) {}

  clear(): void {
    this.held.clear();
  }

  /** The answer to a stream read of the job at `key` (its path), from the model's answer `r`. */
  answer(key: string, r: ApiResponse): ApiResponse {
    const mode = this.c.streamReads;
    if (mode === "pending" || r.status !== 200 || !isObject(r.body) || !Array.isArray(r.body["stream"]) || typeof r.body["status"] !== "string") return r;
    const status = r.body["status"];
    const before = this.held.get(key);
    this.held.delete(key);
    const pending = [...(before?.chunks ?? []), ...(r.body["stream"] as unknown[])];
    const n = PER_READ[mode] ?? pending.length;
    const given = pending.slice(0, n);
    const rest = pending.slice(n);
    const final = FINAL.has(status);
    // end-on-empty: a read that gives the last chunks of an ended job does not yet say it ended.
    const owesEnd = mode === "end-on-empty" && final && given.length > 0;
    if (rest.length > 0 || owesEnd) this.hold(key, { chunks: rest, endOwed: owesEnd });
    const shown = final && (rest.length > 0 || owesEnd) ? "IN_PROGRESS" : status;
    return { ...r, body: { ...r.body, status: shown, stream: given } };
  }

  private hold(key: string, h: Held): void {
    if (this.held.size >= MAX_STREAMS) this.held.delete(this.held.keys().next().value!);
    this.held.set(key, h);
  }
}
