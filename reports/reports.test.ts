/**
 * The short test files of reports/, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap reports/escape.part.test.ts`.
 */
import "./escape.part.test.ts";
import "./html-chromium.part.test.ts";
import "./load-report.part.test.ts";
import "./mutation-report.part.test.ts";
import "./output-dir.part.test.ts";
import "./plan-reports.part.test.ts";
import "./text-table.part.test.ts";
import "./write-reports.part.test.ts";
