/**
 * `jobs.stream.incremental` on targets that report a stream's end late (the open-choice space's
 * `streamReads`: one chunk or three a read, or the end on a read of its own): such a target hands
 * out the last chunks of an ended job with `IN_PROGRESS`. The clean target passes; with the defect
 * `stream-only-at-end` (nothing until the job is final) the rule still fails, though the late
 * chunks then come with `IN_PROGRESS` too.
 */
import t from "tap";
import { EMULATOR_CONVENTIONS, type Conventions } from "../../../sim/conventions/index.ts";
import { startFamilyTarget } from "../../mutation/start-family.ts";
import { runOn } from "../../test-support/family-run.ts";

t.setTimeout(900_000);

const RULE = "jobs.stream.incremental";

for (const streamReads of ["one-per-read", "end-on-empty"] as const satisfies readonly Conventions["streamReads"][]) {
  t.test(`streamReads=${streamReads}: passes clean, fails stream-only-at-end`, async (t) => {
    const conventions = { ...EMULATOR_CONVENTIONS, streamReads };
    for (const [defects, want] of [[[], "pass"], [["stream-only-at-end"], "fail"]] as const) {
      const target = await startFamilyTarget({ family: conventions, defects });
      try {
        const run = await runOn(t, target, [RULE], target.profile, `${streamReads}-${defects.length}`);
        const rule = run.report.rules.find((r) => r.id === RULE);
        t.equal(rule?.status, want, `${defects.length ? "with stream-only-at-end" : "clean"}: ${rule?.status} (${rule?.reason ?? rule?.failures[0]?.evidence.expected ?? ""})`);
      } finally {
        await target.stop();
      }
    }
  });
}
