/**
 * What the proxy keeps of a body: its first `limit` bytes and its size. `BodyHead` is fed chunks
 * as they pass; `Capture` is the same as a pass-through stream, for a request body streamed to
 * the target. The proxy judges a body on what it kept, and never holds more than the bound per body.
 */
import { Transform, type TransformCallback } from "node:stream";

/** Milliseconds on a clock that never goes back (wall time can be set back). */
export const now = (): number => performance.timeOrigin + performance.now();

export class BodyHead {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  size = 0;

  constructor(readonly limit: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.keptBytes < this.limit) {
      const piece = chunk.length <= this.limit - this.keptBytes ? chunk : chunk.subarray(0, this.limit - this.keptBytes);
      this.kept.push(piece);
      this.keptBytes += piece.length;
    }
  }

  get truncated(): boolean {
    return this.size > this.keptBytes;
  }

  text(): string {
    if (this.kept.length === 0) return "";
    return (this.kept.length === 1 ? this.kept[0] : Buffer.concat(this.kept)).toString("utf8");
  }
}

export class Capture extends Transform {
  readonly head: BodyHead;
  /** When the last byte passed (ms, monotonic): before the reader saw the end, so a request it sends next arrives later. */
  endedAt: number | undefined;

  constructor(limit: number) {
    super();
    this.head = new BodyHead(limit);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.head.add(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.endedAt = now();
    done();
  }
}
