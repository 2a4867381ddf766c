/**
 * The short test files of sim/domain and its smaller folders (accounts, invariants, ratelimit, scheduler, stock), run in one process: each `*.part.test.ts` is a whole test
 * file, but most take less time to run than a process of their own takes to start. tap runs this
 * file; package.json "tap"."exclude" keeps it from also running the parts alone. One part alone:
 * `npx tap sim/domain/accounts/accounts.part.test.ts`.
 */
import "./accounts/accounts.part.test.ts";
import "./ids.part.test.ts";
import "./invariants/invariants.part.test.ts";
import "./invariants/serverless-checkers.part.test.ts";
import "./iso-time.part.test.ts";
import "./ratelimit/rate-limiter.part.test.ts";
import "./scheduler/place.part.test.ts";
import "./stock/cpu-stock.part.test.ts";
import "./stock/gpu-stock.part.test.ts";
