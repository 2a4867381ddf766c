/**
 * The short test files of sim/api (routes, rules/, schemas/), run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/api/routes.part.test.ts`.
 */
import "./routes.part.test.ts";
import "./rules/cli.part.test.ts";
import "./rules/rules.part.test.ts";
import "./schemas/schemas.part.test.ts";
