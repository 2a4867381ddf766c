/**
 * A check's work ends with the check. fast-check leaves a run its time bound cut going,
 * unawaited; the context's signal (aborted when runCheck returns) ends that run's waits at once
 * and stops its polling, so it does not go on sending requests or advancing a shared clock
 * under the next check.
 */
import fc from "fast-check";
import t from "tap";
import type { CheckContext, CheckDefinition } from "./check.ts";
import { Client } from "./client.ts";
import { resolveOptions } from "./options.ts";
import { platformOracle } from "./oracle/platform-oracle.ts";
import { specCatalog } from "./rule-catalog.ts";
import { runCheck } from "./run-check.ts";
import { advance, pause, until } from "./checks/support/time.ts";

const options = resolveOptions({ target: "http://127.0.0.1:9", apiKey: "k" });
const rule = specCatalog.rules.find((r) => r.source !== "choices")!;

function input(run: CheckDefinition["run"]) {
  return {
    check: { ruleId: rule.id, run, needs: {}, raw429: false },
    rule,
    client: Client.create({ timeoutMs: 1_000, keys: options.keys }),
    options,
    target: { rest: "http://127.0.0.1:9", serverless: "http://127.0.0.1:9", endpoint: "e" },
    controlApi: false,
    oracle: platformOracle("lenient"),
    log: () => {},
    now: Date.now,
    transitions: new Set<string>(),
  };
}

t.test("the signal is aborted once the check returned, and not before", async (t) => {
  let seen: CheckContext | undefined;
  let duringRun: boolean | undefined;
  await runCheck(
    input((ctx) => {
      seen = ctx;
      duringRun = ctx.signal.aborted;
      return ctx.pass();
    }),
  );
  t.equal(duringRun, false, "not aborted while the check runs");
  t.equal(seen?.signal.aborted, true, "aborted once it returned");
  // An hour's advance against a five-minute timer: whichever comes first says whether it waited.
  const timer = new AbortController();
  const first = await Promise.race([advance(seen!, 3_600_000).then(() => "advance"), pause(300_000, timer.signal).then(() => "timer")]);
  timer.abort();
  t.equal(first, "advance", "an advance after the end does not wait");
});

t.test("a property cut by its time bound stops polling when the check returns", async (t) => {
  let polls = 0;
  let pollingEnded = false;
  const result = await runCheck(
    input(async (ctx) => {
      await fc.check(
        fc.asyncProperty(fc.constant(0), async () => {
          // A wait of up to 30 s, far beyond the property's 200 ms bound.
          await until(ctx, async () => void polls++, 100, 300);
          pollingEnded = true;
          return true;
        }),
        { numRuns: 1, plugins: [fc.interruptAfterTimeLimit(200)] },
      );
      return ctx.pass();
    }),
  );
  t.equal(result.result.status, "pass");
  // Wait for the cut run's wait to end (it would go on for 30 s were the signal ignored), checking the count of polls, not the time.
  for (let i = 0; i < 6000 && !pollingEnded; i++) await pause(50, new AbortController().signal);
  t.equal(pollingEnded, true, "the cut run's wait ended after the check");
  const after = polls;
  await pause(400, new AbortController().signal);
  t.equal(polls, after, "and it polls no more");
  t.ok(polls < 20, `a few polls in all (${polls})`);
});

t.test("pause ends early when its signal aborts", async (t) => {
  const over = new AbortController();
  const timer = new AbortController();
  setTimeout(() => over.abort(), 50);
  // A ten-minute pause against a five-minute timer: whichever comes first says whether it ended at the abort.
  const first = await Promise.race([pause(600_000, over.signal).then(() => "pause"), pause(300_000, timer.signal).then(() => "timer")]);
  timer.abort();
  t.equal(first, "pause", "ended at the abort");
});
