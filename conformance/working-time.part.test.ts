/**
 * working-time.ts: a property's bound counts working time (wall time less the waits for quota),
 * and --max-duration's wall deadline. The working clocks here are fakes: each test's outcome
 * follows from them, not from how fast the machine runs.
 */
import fc from "fast-check";
import t from "tap";
import { interruptAfterWorkingTime, pacingGapMs, PACING_GAP_CAP_MS, workingNow } from "./working-time.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test("a run whose time all went on waits for quota is not cut by the bound", async (t) => {
  // The working clock stands still: every millisecond of the run is a wait for quota.
  const details = await fc.check(
    fc.asyncProperty(fc.constant(0), async () => {
      await pause(60);
      return true;
    }),
    { numRuns: 2, plugins: [interruptAfterWorkingTime(5, () => 0)] },
  );
  t.equal(details.failed, false);
  t.equal(details.interrupted, false, "both runs ended on their own");
  t.equal(details.numRuns, 2);
});

t.test("a run that spends its working time is interrupted, and no further run starts", async (t) => {
  let working = 0;
  let started = 0;
  const details = await fc.check(
    fc.asyncProperty(fc.constant(0), async () => {
      started++;
      working += 50;
      await new Promise(() => {});
      return true;
    }),
    { numRuns: 5, plugins: [interruptAfterWorkingTime(20, () => working)] },
  );
  t.equal(details.interrupted, true);
  t.equal(details.numRuns, 0, "no run completed (fast-check's own time limit reports the same)");
  t.equal(started, 1);
});

t.test("--max-duration's wall deadline stops the property whatever the working clock says", async (t) => {
  let started = 0;
  const details = await fc.check(
    fc.asyncProperty(fc.constant(0), async () => {
      started++;
      return true;
    }),
    { numRuns: 3, plugins: [interruptAfterWorkingTime(60_000, () => 0, Date.now() - 1)] },
  );
  t.equal(details.interrupted, true);
  t.equal(started, 0, "no run starts past the deadline");
});

t.test("working time is wall time less the client's waits for quota; the pacing gap is the longest wait, capped", async (t) => {
  const client = { pacedMs: 0, longestRateLimitWaitMs: 0 };
  let wall = 10_000;
  const now = workingNow(client, () => wall);
  t.equal(now(), 10_000);
  wall += 5_000;
  client.pacedMs = 4_000;
  t.equal(now(), 11_000, "of 5 s, 4 went on waits for quota");
  t.equal(pacingGapMs(client), 0, "no wait yet");
  client.longestRateLimitWaitMs = 42_000;
  t.equal(pacingGapMs(client), 42_000);
  client.longestRateLimitWaitMs = 3_600_000;
  t.equal(pacingGapMs(client), PACING_GAP_CAP_MS, "an hour window's wait is capped");
});
