/**
 * The short test files of sim/api/graphql/, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/api/graphql/catalog-queries.part.test.ts`.
 */
import "./catalog-queries.part.test.ts";
import "./deploy-input.part.test.ts";
import "./env-and-ratelimit.part.test.ts";
import "./hostile-documents.part.test.ts";
import "./limits.part.test.ts";
import "./operations.part.test.ts";
import "./pod-lifecycle.part.test.ts";
import "./python-apps-client.part.test.ts";
import "./python-client-resources.part.test.ts";
import "./python-client.part.test.ts";
import "./python-flash-deploy.part.test.ts";
import "./python-global-volumes.part.test.ts";
import "./request-errors.part.test.ts";
import "./variables.part.test.ts";
