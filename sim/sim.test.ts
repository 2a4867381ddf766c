/**
 * The short test files of sim/ (cli, defects, plan, file sizes), run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/cli/args.part.test.ts`.
 */
import "./cli/args.part.test.ts";
import "./defects/defects.part.test.ts";
import "./plan/simulate.part.test.ts";
import "./plan/library-arguments.part.test.ts";
import "./plan/calibrate/fit.part.test.ts";
import "./plan/calibrate/cli.part.test.ts";
import "./file-size.part.test.ts";
