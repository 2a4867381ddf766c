/**
 * A pass-through stream that keeps the first `limit` bytes of what flows by and counts the rest:
 * the proxy judges a body on what it kept, and never holds more than the bound per body.
 */
import { Transform, type TransformCallback } from "node:stream";

/** Milliseconds on a clock that never goes back (wall time can be set back). */
export const now = (): number => performance.timeOrigin + performance.now();

export class Capture extends Transform {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  size = 0;
  /** When the last byte passed (ms, monotonic): before the reader saw the end, so a request it sends next arrives later. */
  endedAt: number | undefined;

  constructor(readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.keptBytes < this.limit) {
      const piece = chunk.length <= this.limit - this.keptBytes ? chunk : chunk.subarray(0, this.limit - this.keptBytes);
      this.kept.push(piece);
      this.keptBytes += piece.length;
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.endedAt = now();
    done();
  }

  get truncated(): boolean {
    return this.size > this.keptBytes;
  }

  text(): string {
    return Buffer.concat(this.kept).toString("utf8");
  }
}
