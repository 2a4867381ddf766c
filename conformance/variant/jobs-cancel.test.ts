/** The suite on the variant target: the cancel rules (test-support/suite-on-variant.ts says why the run is cut in four). */
import t from "tap";
import { judgePartOnVariant, PART_TIMEOUT_MS, PARTS } from "../test-support/suite-on-variant.ts";

t.setTimeout(PART_TIMEOUT_MS);

t.test("the lenient suite passes the variant and judges on it what it judges on the emulator: the cancel rules", { timeout: PART_TIMEOUT_MS }, async (t) => {
  await judgePartOnVariant(t, PARTS["jobs-cancel"]);
});
