/**
 * The short test files of sim/domain/handlers/, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/domain/handlers/conformance.part.test.ts`.
 */
import "./conformance.part.test.ts";
import "./image-generation.part.test.ts";
import "./index.part.test.ts";
import "./lazy-output.part.test.ts";
import "./png-determinism.part.test.ts";
import "./png.part.test.ts";
import "./split-stream-output.part.test.ts";
import "./text-generation.part.test.ts";
