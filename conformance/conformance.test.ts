/**
 * The short test files of conformance/ (and its oracle/), run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap conformance/baseline.part.test.ts`.
 */
import "./baseline.part.test.ts";
import "./check-registry.part.test.ts";
import "./check-signal.part.test.ts";
import "./curl.part.test.ts";
import "./heartbeat.part.test.ts";
import "./import-rule.part.test.ts";
import "./mutation/mutation-score.part.test.ts";
import "./mutation/space-judged.part.test.ts";
import "./official-python/bench/official-python.part.test.ts";
import "./options.part.test.ts";
import "./oracle/platform-oracle.part.test.ts";
import "./oracle/shadow-platform.part.test.ts";
import "./rate-limit-pacer.part.test.ts";
import "./record-body.part.test.ts";
import "./route-evidence.part.test.ts";
import "./run-lanes.part.test.ts";
import "./schedule.part.test.ts";
import "./structured-fields-library.part.test.ts";
import "./structured-fields.part.test.ts";
import "./working-time.part.test.ts";
