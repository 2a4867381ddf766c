/**
 * The short test files of sim/http/, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/http/clock.part.test.ts`.
 */
import "./big-strings.part.test.ts";
import "./body-read.part.test.ts";
import "./clock.part.test.ts";
import "./close.part.test.ts";
import "./flash-sentinel.part.test.ts";
import "./flash-upload.part.test.ts";
import "./hardening.part.test.ts";
import "./json-body-thread.part.test.ts";
import "./json-body.part.test.ts";
import "./json-stream-turns.part.test.ts";
import "./lazy-render.part.test.ts";
import "./python-apps-logs.part.test.ts";
import "./python-apps-rest.part.test.ts";
import "./python-asyncio-client.part.test.ts";
import "./python-rest-logs.part.test.ts";
import "./python-sandboxes.part.test.ts";
import "./route-table.part.test.ts";
import "./sdk-transport.part.test.ts";
import "./serve-ready-log.part.test.ts";
import "./sync-slices.part.test.ts";
