/**
 * The short test files of sim/domain/pods/, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/domain/pods/pod-actions.part.test.ts`.
 */
import "./pod-actions.part.test.ts";
import "./pod-api-integration.part.test.ts";
import "./pod-determinism.part.test.ts";
import "./pod-lifecycle.part.test.ts";
import "./pod-update.part.test.ts";
import "./pod-views.part.test.ts";
import "./status-text.part.test.ts";
