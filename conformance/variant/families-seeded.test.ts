/**
 * The lenient suite against seeded target families (conformance/mutation/target-family.ts): the
 * whole suite on each, zero failures, and what it judges on the emulator judged there. A file of
 * its own (beside families.test.ts): five whole-suite runs.
 */
import t from "tap";
import { reference, judgesAsTheEmulator, runOn } from "../test-support/family-run.ts";
import { startFamilyTarget } from "../mutation/start-family.ts";

t.setTimeout(600_000);

t.test("seeded families: the whole lenient suite, zero failures, the emulator's judged rules judged", async (t) => {
  const onEmulator = await reference(t, []);
  for (const family of [1, 2, 3, 4]) {
    const target = await startFamilyTarget({ family });
    try {
      const run = await runOn(t, target, [], target.profile, `family-${family}`);
      judgesAsTheEmulator(t, target.conventions, run.report, onEmulator);
    } finally {
      await target.stop();
    }
  }
});

