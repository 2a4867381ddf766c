import t from "tap";
import type { CheckContext } from "../../check.ts";
import { REALTIME_PROPERTY_LIMIT_MS } from "../../check-context.ts";
import { paddedBody, payloadRunMs } from "./payload-checks.ts";
import { propertyBoundMs } from "./support/property.ts";

t.test("padded bodies have the exact size and stay valid JSON", async (t) => {
  for (const size of [1_000, 10_000_000, 10_485_761]) {
    const body = paddedBody(size);
    t.equal(Buffer.byteLength(body), size);
    t.equal((JSON.parse(body) as { input: { op: string } }).input.op, "sleep");
  }
});

t.test("a payload property's bound covers its first run's request, however long that may take by its own timeout (#35)", async (t) => {
  const ctx = (controlApi: boolean, timeoutMs: number, deadline?: number) => ({ controlApi, deadline, options: { timeoutMs } }) as unknown as CheckContext;
  // Real time: a runsync of 20 MB waits up to 60 s for its job, and its request may take 90 s.
  const realtime = ctx(false, 30_000);
  t.equal(payloadRunMs(realtime, "runsync"), 90_000);
  t.ok(propertyBoundMs(realtime, { runMs: payloadRunMs(realtime, "runsync") }) > 90_000, "more than the request's own timeout");
  t.ok(REALTIME_PROPERTY_LIMIT_MS < 90_000, "which the run's bound per property alone cut short");
  // It follows --timeout-ms: a target given 180 s a request gets its property that long.
  const patient = ctx(false, 180_000);
  t.ok(propertyBoundMs(patient, { runMs: payloadRunMs(patient, "run") }) > 180_000);
  // Other properties keep the run's bound; --max-duration still caps every one.
  t.equal(propertyBoundMs(realtime, {}), REALTIME_PROPERTY_LIMIT_MS);
  const capped = propertyBoundMs(ctx(false, 30_000, Date.now() + 5_000), { runMs: 90_000 });
  t.ok(capped <= 5_000, `--max-duration caps it (${capped} ms)`);
});
