// Real clock: the timer's catch-up runs the model one event time at a time, in slices, so that
// events heavy with work (an image rendered, a large output made) falling due together take turns
// with the event loop instead of holding it for all of them. Judged by counts, not by a time: the
// event loop turns while some of the heavy events have run and some not. A request still waits
// for the whole catch-up (the model's time is the platform's).
import t from "tap";
import type { Micros } from "../core/index.ts";
import { respond, type ApiOutcome } from "../api/types.ts";
import type { EmulatorBackend } from "./backend.ts";
import { startEmulator } from "./emulator.ts";
import { call } from "./test-helpers.ts";

/** Events at 1, 2, … virtual ms that each hold the CPU for `busyMs` of wall time. */
class HeavyBackend implements EmulatorBackend {
  private time: Micros = 0;
  ran = 0;
  constructor(
    private readonly events: number,
    private readonly busyMs: number,
  ) {}
  now(): Micros {
    return this.time;
  }
  advanceTo(time: Micros): void {
    while (this.ran < this.events && (this.ran + 1) * 1000 <= time) {
      const until = performance.now() + this.busyMs;
      while (performance.now() < until) {
        // the work of one event
      }
      this.ran++;
    }
    if (time > this.time) this.time = time;
  }
  nextEventTime(): Micros | undefined {
    return this.ran < this.events ? (this.ran + 1) * 1000 : undefined;
  }
  handle(): ApiOutcome {
    return respond({ status: 200, headers: { "content-type": "application/json" }, body: { ran: this.ran } });
  }
  onJobFinal(_e: string, _j: string, listener: () => void): () => void {
    listener();
    return () => {};
  }
  drainWebhooks() {
    return [];
  }
  webhookResult(): void {}
  reset(): void {}
  apiKeys() {
    return [];
  }
  routes() {
    return [{ method: "GET" as const, pattern: "/ping" }];
  }
}

t.test("the timer's catch-up takes turns with the event loop; a request sees the model caught up", async (t) => {
  const backend = new HeavyBackend(40, 25);
  // At this speed all 40 events (40 virtual ms) are due within a wall millisecond of the start.
  const e = await startEmulator({ clock: "real", speed: 100_000, backend });
  t.teardown(() => e.close());
  const seen = new Set<number>();
  while (backend.ran < 40) {
    seen.add(backend.ran);
    await new Promise((r) => setImmediate(r));
  }
  const between = [...seen].filter((n) => n > 0 && n < 40);
  t.ok(between.length > 0, `the event loop turned with ${between.join(", ")} of the 40 heavy events run`);
  const answer = await call(e.baseUrl, "GET", "/ping");
  t.equal(answer.status, 200);
  t.equal(answer.body.ran, 40, "a request is answered on the caught-up model");
});
