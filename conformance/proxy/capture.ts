/**
 * What the proxy keeps of a body: its first `limit` bytes and its size. `BodyHead` is fed chunks
 * as they pass; `Capture` is the same as a pass-through stream, for a request body streamed to
 * the target. The proxy judges a body on what it kept, and never holds more than the bound per body.
 */
import { Transform, type TransformCallback } from "node:stream";

/** Milliseconds on a clock that never goes back (wall time can be set back). */
export const now = (): number => performance.timeOrigin + performance.now();

/**
 * The bytes every body head of the proxy may hold at once (--max-capture-mb): a head asks for
 * bytes as it grows and gives them back once its exchange was judged. When the budget is spent, a
 * body is kept no further and judged on its head and size, as a body above the per-body bound.
 */
export class ByteBudget {
  used = 0;
  /** The most ever held at once. */
  peak = 0;

  constructor(readonly total: number) {}

  /** Up to `n` bytes: the number granted (0 when spent). */
  take(n: number): number {
    const granted = Math.max(0, Math.min(n, this.total - this.used));
    this.used += granted;
    if (this.used > this.peak) this.peak = this.used;
    return granted;
  }

  give(n: number): void {
    this.used = Math.max(0, this.used - n);
  }
}

export class BodyHead {
  private kept: Buffer[] = [];
  private keptBytes = 0;
  /** Set once the budget refused bytes or the head was released: nothing more is kept (the kept head stays contiguous). */
  private starved = false;
  size = 0;

  constructor(
    readonly limit: number,
    private readonly budget?: ByteBudget,
  ) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.keptBytes < this.limit && !this.starved) {
      const want = Math.min(chunk.length, this.limit - this.keptBytes);
      const granted = this.budget ? this.budget.take(want) : want;
      if (granted < want) this.starved = true;
      if (granted === 0) return;
      const piece = granted === chunk.length ? chunk : chunk.subarray(0, granted);
      this.kept.push(piece);
      this.keptBytes += piece.length;
    }
  }

  /** Gives the kept bytes back to the budget and drops them: call once the exchange was judged. */
  release(): void {
    this.budget?.give(this.keptBytes);
    this.kept = [];
    this.keptBytes = 0;
    this.starved = true;
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

  constructor(limit: number, budget?: ByteBudget) {
    super();
    this.head = new BodyHead(limit, budget);
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
