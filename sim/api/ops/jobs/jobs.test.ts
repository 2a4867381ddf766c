/**
 * The short test files of sim/api/ops/jobs/, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/api/ops/jobs/cancel-retry-purge.part.test.ts`.
 */
import "./cancel-retry-purge.part.test.ts";
import "./conformance-handler.part.test.ts";
import "./determinism.part.test.ts";
import "./health.part.test.ts";
import "./isolation.part.test.ts";
import "./public-models.part.test.ts";
import "./retention.part.test.ts";
import "./run.part.test.ts";
import "./runsync.part.test.ts";
import "./sdk.part.test.ts";
import "./status.part.test.ts";
import "./webhook-body.part.test.ts";
