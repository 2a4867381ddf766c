/**
 * The short test files of sim/core/, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/core/determinism.part.test.ts`.
 */
import "./determinism.part.test.ts";
import "./engine.part.test.ts";
import "./errors.part.test.ts";
import "./event-log.part.test.ts";
import "./event-queue.part.test.ts";
import "./purity.part.test.ts";
import "./rng-distributions.part.test.ts";
import "./rng.part.test.ts";
import "./time.part.test.ts";
