/** `run` answers `{id, status: "IN_QUEUE"}` at once, with an id of its own for every job. */
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { schemaErrors } from "../support/schema.ts";
import { asJob, show } from "./support/job-body.ts";
import { is2xx } from "./support/job-session.ts";
import { echoInputArb } from "./support/inputs.ts";
import { property, runsFor } from "./support/property.ts";
import { violated, withSession } from "./support/with-session.ts";

export async function checkRunInQueue(ctx: CheckContext): Promise<CheckOutcome | void> {
  const ids = new Set<string>();
  return property(
    ctx,
    echoInputArb(),
    (input) =>
      withSession(ctx, async (session) => {
        const { res, id } = await session.run(input);
        const what = `run with {input: ${show(input, 80)}}`;
        if (!is2xx(res)) violated(session, res.exchange, `a 2xx answer {id, status: "IN_QUEUE"} to ${what} (a valid body); got ${res.status}`);
        const errors = schemaErrors("JobSubmitResponse", res.json);
        if (errors.length) violated(session, res.exchange, `{id: string, status: a job status} as the answer to ${what}; ${errors.join("; ")}`);
        const status = asJob(res.json)?.status;
        if (status !== "IN_QUEUE") violated(session, res.exchange, `status "IN_QUEUE" in the answer to ${what} (the spec's table: POST run → IN_QUEUE); got ${show(status)}`);
        if (id === undefined) violated(session, res.exchange, `a non-empty job id in the answer to ${what}`);
        if (ids.has(id)) violated(session, res.exchange, `a new job id for every run; ${show(id)} was already given to an earlier job`);
        ids.add(id);
      }),
    { numRuns: runsFor(ctx, 10) },
  );
}
