/**
 * The short test files of sim/api/validate/, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/api/validate/prototype-pollution.part.test.ts`.
 */
import "./prototype-pollution.part.test.ts";
import "./rule-breaking.part.test.ts";
import "./validate-create-pod.part.test.ts";
import "./validate-job-submit.part.test.ts";
import "./validate-pod-action.part.test.ts";
import "./validate-queries.part.test.ts";
import "./validate-update-pod.part.test.ts";
import "./violation.part.test.ts";
