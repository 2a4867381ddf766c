/**
 * The short test files of sim/api/ops/rest/, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/api/ops/rest/catalog.part.test.ts`.
 */
import "./catalog.part.test.ts";
import "./determinism.part.test.ts";
import "./pod-action.part.test.ts";
import "./pods.part.test.ts";
import "./resource-writes.part.test.ts";
import "./resources.part.test.ts";
import "./update-pod.part.test.ts";
