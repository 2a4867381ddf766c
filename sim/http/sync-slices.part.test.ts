// Real clock: the model catches up with the wall clock in slices, one event time at a time, so a
// request waiting behind events heavy with work (an image rendered, a large output made) is
// answered between them, not after all of them. Judged by a count, not by a time: when the
// request's answer comes, some of the heavy events have not run yet.
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

t.test("a request behind heavy model events is answered before they have all run", async (t) => {
  const backend = new HeavyBackend(40, 25);
  // At this speed all 40 events (40 virtual ms) are due within a wall millisecond of the start.
  const e = await startEmulator({ clock: "real", speed: 100_000, backend });
  t.teardown(() => e.close());
  await new Promise((r) => setTimeout(r, 5));
  const answer = await call(e.baseUrl, "GET", "/ping");
  t.equal(answer.status, 200);
  t.ok(answer.body.ran < 40, `answered after ${answer.body.ran} of the 40 heavy events`);
  // The rest run in later turns, by themselves.
  while (backend.ran < 40) await new Promise((r) => setTimeout(r, 20));
  t.equal(backend.ran, 40);
});
