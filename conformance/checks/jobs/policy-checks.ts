/**
 * The `policy` body key of run and runsync, as choices.md documents it (checked only under
 * --profile strict): `executionTimeout` turns a job that runs longer into TIMED_OUT, and `ttl`
 * drops a job once that long has passed since its submission, whatever its state.
 */
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { FINISH_BUDGET_MS, STEP_MS } from "./support/budgets.ts";
import { show } from "./support/job-body.ts";
import { is2xx } from "./support/job-session.ts";
import { sleep } from "./support/inputs.ts";
import { scenario, violated } from "./support/with-session.ts";

export async function checkPolicyTtl(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    const ttl = 10_000;
    const submittedAt = session.now();
    const { res, id } = await session.run(sleep(120_000), { policy: { ttl } });
    if (id === undefined) violated(session, res.exchange, `a 2xx answer with a job id to run with policy {ttl: ${ttl}} (docs/choices.md); got ${res.status} ${show(res.json)}`);
    await session.advance(submittedAt + ttl / 2 - session.now());
    const alive = await session.status(id);
    if (!is2xx(alive)) violated(session, alive.exchange, `the job still there ${ttl / 2} ms after submission with policy.ttl ${ttl}; got ${alive.status}`);
    await session.advance(ttl);
    const gone = await session.status(id);
    if (gone.status !== 404) {
      violated(session, gone.exchange, `404 for a job older than its policy.ttl of ${ttl} ms, counted from submission (docs/choices.md), though it was still running; got ${gone.status} ${show(gone.json)}`);
    }
    return undefined;
  });
}

export async function checkPolicyExecutionTimeout(ctx: CheckContext): Promise<CheckOutcome | void> {
  return scenario(ctx, async (session) => {
    const { res, id } = await session.run(sleep(60_000), { policy: { executionTimeout: 5_000 } });
    if (id === undefined) violated(session, res.exchange, `a 2xx answer with a job id to run with policy {executionTimeout: 5000} (docs/choices.md); got ${res.status} ${show(res.json)}`);
    const end = await session.untilFinal(id, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
    if (end.job?.status !== "TIMED_OUT") {
      violated(session, end.res.exchange, `status TIMED_OUT for a job sleeping 60 s under policy.executionTimeout 5000 ms (docs/choices.md); got ${end.res.status} ${show(end.res.json)}`);
    }
    return undefined;
  });
}
