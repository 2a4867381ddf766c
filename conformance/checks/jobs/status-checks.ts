/**
 * What `status` answers: the job with one of the spec's states (rule 4), and, under --profile
 * strict, choices.md's answers where the spec is silent: a FAILED job's `error`, 404 for an
 * unknown job, an empty JSON body read as `{}`, and REST path segments never read as endpoints.
 */
import * as fc from "fast-check";
import { JOB_STATUSES } from "../../../sim/api/schemas/index.ts";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { schemaErrors } from "../support/schema.ts";
import { FINISH_BUDGET_MS, STEP_MS } from "./support/budgets.ts";
import { asJob, show } from "./support/job-body.ts";
import { is2xx } from "./support/job-session.ts";
import { echoInputArb, fail, failMessageArb, sleep, type Input } from "./support/inputs.ts";
import { holdMs } from "./support/job-states.ts";
import { property, runsFor } from "./support/property.ts";
import { violated, withSession } from "./support/with-session.ts";

/** Inputs whose jobs end in each of the ways the handler can end them. */
function anyJobInputArb(): fc.Arbitrary<Input> {
  return fc.oneof(echoInputArb(), fc.integer({ min: 0, max: 3_000 }).map((ms) => sleep(ms)), failMessageArb().map(fail));
}

export async function checkStatusValues(ctx: CheckContext): Promise<CheckOutcome | void> {
  return property(
    ctx,
    anyJobInputArb(),
    (input) =>
      withSession(ctx, async (session) => {
        const { res, id } = await session.run(input);
        if (id === undefined) violated(session, res.exchange, `a job id from run with {input: ${show(input, 80)}}, to read with status; got ${res.status}`);
        await session.untilFinal(id, {
          budgetMs: FINISH_BUDGET_MS,
          stepMs: STEP_MS,
        });
        for (const exchange of session.exchanges.filter((e) => e.request.url.includes("/status/"))) {
          const status = exchange.response?.status ?? 0;
          let body: unknown;
          try {
            body = JSON.parse(exchange.response?.body ?? "");
          } catch {
            body = undefined;
          }
          const where = `status of job ${id} (input ${show(input, 80)})`;
          if (status < 200 || status >= 300) violated(session, exchange, `a 2xx answer with the job to ${where}, which was submitted moments ago; got ${status}`);
          const errors = schemaErrors("Job", body);
          const job = asJob(body);
          if (errors.length || !job) violated(session, exchange, `the Job record as the answer to ${where}; ${errors.join("; ")}`);
          if (!(JOB_STATUSES as readonly string[]).includes(job.status)) {
            violated(session, exchange, `one of ${JOB_STATUSES.join(", ")} as the status of ${where}; got ${show(job.status)}`);
          }
          if (job["id"] !== id) violated(session, exchange, `the job's own id ${id} in the answer to ${where}; got ${show(job["id"])}`);
        }
      }),
    { numRuns: runsFor(ctx, 6) },
  );
}

export async function checkFailedError(ctx: CheckContext): Promise<CheckOutcome | void> {
  return property(
    ctx,
    failMessageArb(),
    (message) =>
      withSession(ctx, async (session) => {
        const { res, id } = await session.run(fail(message));
        if (id === undefined) violated(session, res.exchange, `a job id from run; got ${res.status}`);
        const done = await session.untilFinal(id, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
        fc.pre(done.met);
        const job = done.job;
        const error = job?.["error"];
        if (!job || job.status !== "FAILED" || typeof error !== "string" || !error.includes(message)) {
          violated(
            session,
            done.res.exchange,
            `status FAILED with an \`error\` string containing ${show(message)} for a job whose handler raised it (docs/choices.md); got ${done.res.status} ${show(done.res.json)}`,
          );
        }
      }),
    { numRuns: runsFor(ctx, 3) },
  );
}

const UNKNOWN_ID_OPS = ["status", "cancel", "retry", "stream", "status-sync"] as const;

export async function checkNotFound(ctx: CheckContext): Promise<CheckOutcome | void> {
  const idArb = fc.oneof(fc.uuid(), fc.stringMatching(/^[a-z0-9][a-z0-9-]{5,30}$/));
  return property(
    ctx,
    fc.tuple(idArb, fc.constantFrom(...UNKNOWN_ID_OPS)),
    ([id, op]) =>
      withSession(ctx, async (session) => {
        const method = op === "cancel" || op === "retry" ? "POST" : "GET";
        const res = await session.send({ method, url: session.url(op, id), ...(op === "status-sync" ? { query: { wait: 1000 } } : {}) });
        if (res.status !== 404) violated(session, res.exchange, `404 for ${op} of an unknown job id ${show(id)} (docs/choices.md); got ${res.status}`);
      }),
    { numRuns: runsFor(ctx, 10) },
  );
}

export async function checkEmptyBody(ctx: CheckContext): Promise<CheckOutcome | void> {
  return withSession(ctx, async (session) => {
    // A long job, so that the cancel below meets it unfinished whatever the target's speed.
    const { res, id } = await session.run(sleep(holdMs(session)));
    if (id === undefined) return ctx.skip(`could not submit a job (run answered ${res.status})`);
    const empty = { body: "", headers: { "content-type": "application/json" } };
    const requests = [
      { method: "GET", url: session.url("status", id), what: "GET status" },
      { method: "POST", url: session.url("cancel", id), what: "POST cancel" },
      { method: "GET", url: session.url("health"), what: "GET health" },
      { method: "POST", url: session.url("purge-queue"), what: "POST purge-queue" },
    ];
    for (const r of requests) {
      const answer = await session.send({ method: r.method, url: r.url, ...empty });
      if (!is2xx(answer)) {
        return ctx.fail(
          session.evidence(`a 2xx answer to ${r.what} with Content-Type: application/json and an empty body, which reads as {} (docs/choices.md: the official Python client sends it); got ${answer.status}`, answer.exchange),
        );
      }
    }
    return undefined;
  });
}

export async function checkReservedEndpointIds(ctx: CheckContext): Promise<CheckOutcome | void> {
  if (new URL(ctx.target.rest).origin !== new URL(ctx.target.serverless).origin) {
    return ctx.skip("the job endpoints are served on their own host (--serverless-url), so REST path segments cannot be mistaken for endpoint ids");
  }
  return withSession(ctx, async (session) => {
    // The target's REST groups (its restSegments fact): choices.md's, the clients' newer paths, its OpenAPI document's.
    for (const segment of ctx.facts.restSegments.value) {
      const res = await session.send({ method: "GET", url: session.url("health", undefined, segment) });
      if (res.status === 200 && schemaErrors("HealthResponse", res.json).length === 0) {
        return ctx.fail(
          session.evidence(`GET /v2/${segment}/health is not a job endpoint's health: "${segment}" belongs to the REST interface and is never an endpoint id (docs/choices.md; restSegments: ${ctx.facts.restSegments.source}); got 200 with a health record`, res.exchange),
        );
      }
    }
    return undefined;
  });
}
