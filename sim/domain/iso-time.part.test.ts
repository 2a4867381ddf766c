import t from "tap";
import fc from "fast-check";
import { DEFAULT_EPOCH_MS, isoFromEpochMs, isoFromMicros } from "./iso-time.ts";

t.test("matches Date#toISOString across the supported range", async () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => isoFromEpochMs(ms) === new Date(ms).toISOString()),
    { numRuns: 5000 },
  );
});

t.test("virtual zero is the default epoch", async (t) => {
  t.equal(isoFromMicros(0), "2026-01-01T00:00:00.000Z");
  t.equal(isoFromMicros(1_500_000), "2026-01-01T00:00:01.500Z");
  t.equal(DEFAULT_EPOCH_MS, Date.UTC(2026, 0, 1));
});
