/**
 * The short test files of sim/domain/serverless/, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/domain/serverless/catalog.part.test.ts`.
 */
import "./catalog.part.test.ts";
import "./external.part.test.ts";
import "./job-id.part.test.ts";
import "./lifecycle.part.test.ts";
import "./runtime-endpoints.part.test.ts";
import "./serverless.property.part.test.ts";
