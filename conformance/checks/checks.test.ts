/**
 * The short test files of conformance/checks/ and its folders, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap conformance/checks/auth/ratelimit/read-rate-limit.part.test.ts`.
 */
import "./auth/ratelimit/read-rate-limit.part.test.ts";
import "./graphql/helpers.part.test.ts";
import "./jobs/payload-checks.part.test.ts";
import "./jobs/support/job-trace.part.test.ts";
import "./jobs/support/until-answered.part.test.ts";
import "./pods/lifecycle-slow-start.part.test.ts";
