/**
 * The tests of `cpsim serve --state DIR` (sim/http/state/), run in one process; each
 * `*.part.test.ts` is a whole test file (one alone: `npx tap sim/http/state/lock.part.test.ts`).
 */
import "./replay.part.test.ts";
import "./journal-policy.part.test.ts";
import "./lock.part.test.ts";
import "./damage.part.test.ts";
import "./disk-full.part.test.ts";
import "./kill.part.test.ts";
import "./model-graph.part.test.ts";
import "./compaction.part.test.ts";
import "./writer-thread.part.test.ts";
