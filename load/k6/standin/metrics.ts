/** Stand-in for `k6/metrics`: counters add up in the recorder. */
import { standin } from "./recorder.ts";

export class Counter {
  constructor(readonly name: string) {}
  add(n: number): void {
    standin.counters.set(this.name, (standin.counters.get(this.name) ?? 0) + n);
  }
}
