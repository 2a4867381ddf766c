/**
 * Runs one job to its end and keeps every look at it: the answers of status polls (for `run`) or
 * the single answer (for `runsync`), each with the session time it arrived at. The field rules
 * (delayTime, executionTime, output, workerId) judge these observations.
 */
import type { ClientResponse } from "../../../client.ts";
import { FINISH_BUDGET_MS, STEP_MS } from "./budgets.ts";
import { isFinal, type JobBody } from "./job-body.ts";
import type { JobSession } from "./job-session.ts";
import type { Input } from "./inputs.ts";

export type Mode = "run" | "runsync";

export interface Observation {
  readonly res: ClientResponse;
  readonly job: JobBody;
  /** Session time when the answer arrived. */
  readonly at: number;
}

export interface Observed {
  /** The submission's answer. */
  readonly submission: ClientResponse;
  readonly id?: string;
  /** Session time just before the job was submitted. */
  readonly submittedAt: number;
  /** Every answer that carried the job (status, or runsync's own), in order. */
  readonly looks: readonly Observation[];
  /** The last look, when it showed the job final. */
  readonly final?: Observation;
  /** The last answer that did not carry the job (an error), if polling ended on one. */
  readonly lost?: ClientResponse;
}

function ending(looks: readonly Observation[]): { final?: Observation } {
  const last = looks[looks.length - 1];
  return last && isFinal(last.job.status) ? { final: last } : {};
}

export async function observeJob(session: JobSession, input: Input, mode: Mode, budgetMs = FINISH_BUDGET_MS): Promise<Observed> {
  const submittedAt = session.now();
  const looks: Observation[] = [];
  if (mode === "runsync") {
    const { res, id, job } = await session.runsync(input, { query: { wait: 120_000 } });
    if (job && res.status >= 200 && res.status < 300) looks.push({ res, job, at: session.now() });
    return { submission: res, ...(id !== undefined ? { id } : {}), submittedAt, looks, ...ending(looks) };
  }
  const { res, id } = await session.run(input);
  if (id === undefined) return { submission: res, submittedAt, looks };
  let lost: ClientResponse | undefined;
  await session.pollUntil(
    id,
    (job, answer) => {
      if (!job) {
        lost = answer;
        return true;
      }
      looks.push({ res: answer, job, at: session.now() });
      return isFinal(job.status);
    },
    { budgetMs, stepMs: STEP_MS },
  );
  return { submission: res, id, submittedAt, looks, ...ending(looks), ...(lost ? { lost } : {}) };
}
