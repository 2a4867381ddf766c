/**
 * The short test files of sim/catalog/, run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/catalog/describe-schema.part.test.ts`.
 */
import "./describe-schema.part.test.ts";
import "./generate-hosts.part.test.ts";
import "./json-error-position.part.test.ts";
import "./load-catalog.part.test.ts";
