/**
 * Webhook deliveries waiting for the HTTP layer: the domain does no I/O, it only records that a
 * job with a webhook became final. Bounded: beyond the limit the oldest entry is dropped and
 * counted, as a platform under pressure would drop notifications rather than grow without end.
 */
import type { WebhookEntry } from "./types.ts";

export class WebhookOutbox {
  private entries: WebhookEntry[] = [];
  private head = 0;
  dropped = 0;

  constructor(readonly limit: number) {}

  get length(): number {
    return this.entries.length - this.head;
  }

  push(entry: WebhookEntry): void {
    if (this.limit <= 0) {
      this.dropped++;
      return;
    }
    if (this.length >= this.limit) {
      this.head++;
      this.dropped++;
    }
    this.entries.push(entry);
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  /** Takes up to max entries, oldest first. */
  drain(max = Infinity): WebhookEntry[] {
    const n = Math.min(this.length, max);
    const out = this.entries.slice(this.head, this.head + n);
    this.head += n;
    if (this.head === this.entries.length) {
      this.entries = [];
      this.head = 0;
    }
    return out;
  }
}
