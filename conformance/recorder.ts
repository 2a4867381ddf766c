/**
 * A bounded record of request/response exchanges: the newest `capacity` are kept, older ones
 * are dropped and counted, so a long property run cannot grow memory without limit.
 */
import type { RecordedRequest, RecordedResponse } from "../reports/conformance-report.ts";

export interface Exchange {
  readonly request: RecordedRequest;
  /** Absent when the request ended in a target error. */
  readonly response?: RecordedResponse;
}

export class Recorder {
  private readonly items: Exchange[] = [];
  private droppedCount = 0;

  constructor(readonly capacity = 200) {}

  add(exchange: Exchange): void {
    this.items.push(exchange);
    if (this.items.length > this.capacity) {
      this.items.shift();
      this.droppedCount++;
    }
  }

  /** The exchanges kept, oldest first. */
  all(): readonly Exchange[] {
    return [...this.items];
  }

  get dropped(): number {
    return this.droppedCount;
  }

  clear(): void {
    this.items.length = 0;
    this.droppedCount = 0;
  }
}
