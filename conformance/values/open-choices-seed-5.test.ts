/** open-choices.test.ts on a second seed, in a file of its own (a full run and its reference each). */
import t from "tap";
import { judgeOpenChoicesOnSeed } from "../test-support/open-choices-suite.ts";

t.test("a target refusing udp ports and :latest images: zero failures, the create and PATCH rules judged as on the emulator (seed 5)", async (t) => {
  await judgeOpenChoicesOnSeed(t, 5);
});
