/**
 * The short test files of load/, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap load/scenario-stats.part.test.ts`.
 */
import "./scenario-stats.part.test.ts";
import "./thresholds.part.test.ts";
import "./quota.part.test.ts";
