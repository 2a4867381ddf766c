/**
 * The lenient suite across seeds of the open-choice space (sim/conventions/, `cpsim serve
 * --conventions SEED`): the whole suite under each seed's conventions, zero failures, no target
 * errors, and every rule judged on the emulator's conventions judged there too (but for the
 * exceptions conformance/mutation/space-judged.ts gives, each with its reason). A failing seed
 * prints the dimension values that broke it. The seeds together draw most values of every
 * dimension; `npm run bench:space -- --seeds 50` runs fifty. A file of its own (beside
 * families.test.ts): five whole-suite runs, manual clock.
 */
import t from "tap";
import { describeDifferences } from "../../sim/conventions/index.ts";
import { reference, judgesAsTheEmulator, runOn } from "../test-support/family-run.ts";
import { startFamilyTarget } from "../mutation/start-family.ts";

t.setTimeout(900_000);

t.test("seeds of the open-choice space: the whole lenient suite, zero failures, the emulator's judged rules judged", async (t) => {
  const onEmulator = await reference(t, []);
  for (const seed of [1, 2, 3, 4]) {
    const target = await startFamilyTarget({ family: seed });
    try {
      const run = await runOn(t, target, [], target.profile, `seed-${seed}`);
      t.comment(`seed ${seed}: ${describeDifferences(target.conventions)}`);
      judgesAsTheEmulator(t, target.conventions, run.report, onEmulator);
      t.same(run.report.targetErrors.map((e) => `${e.ruleId}: ${e.message}`), [], `no target errors (seed ${seed}: ${describeDifferences(target.conventions)})`);
    } finally {
      await target.stop();
    }
  }
});
