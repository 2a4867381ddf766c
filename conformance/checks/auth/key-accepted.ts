/**
 * auth.bearer-header and auth.bare-key-jobs: a valid key is accepted in the forms Authentication
 * rule 1 gives: `Authorization: Bearer <key>` on REST v2 and the job endpoints, and the key
 * alone on the job endpoints. "Accepted" means the answer is not 401 or 403; for the requests
 * that cannot fail for another reason (health, run, status of the job just run) it must be 2xx.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome, FailureInput } from "../../check.ts";
import type { RequestSpec } from "../../client.ts";
import { registerCheck } from "../../check-registry.ts";
import { cancelJob, noteCreated, undoCreation } from "./cleanup.ts";
import { findFailure, fewRuns } from "./find-failure.ts";
import { gpuChoice, podBody } from "./pod-body.ts";
import { is2xx, jobUrl, restUrl, stringField } from "./target.ts";

type Via = "bearer" | "raw";

interface Case {
  readonly name: string;
  /** Must answer 2xx; otherwise only "not 401 or 403". */
  readonly must2xx: boolean;
  readonly creates?: "pod" | "job";
  readonly spec: (ctx: CheckContext, jobId: string | undefined) => RequestSpec | undefined;
}

const jobCases: Case[] = [
  { name: "GET health", must2xx: true, spec: (ctx) => ({ method: "GET", url: jobUrl(ctx, "health") }) },
  { name: "POST run", must2xx: true, creates: "job", spec: (ctx) => ({ method: "POST", url: jobUrl(ctx, "run"), json: { input: {} } }) },
  {
    name: "GET status/<job_id>",
    must2xx: true,
    spec: (ctx, jobId) => (jobId ? { method: "GET", url: jobUrl(ctx, "status", jobId) } : undefined),
  },
];

function podCase(body: unknown): Case {
  // createPod may fail for capacity or placement; only a refusal of the key is this rule's concern.
  return { name: "POST /v2/pods", must2xx: false, creates: "pod", spec: (ctx) => ({ method: "POST", url: restUrl(ctx, "/v2/pods"), json: body }) };
}

function header(via: Via): string {
  return via === "bearer" ? "`Authorization: Bearer <key>`" : "the key alone in `Authorization`";
}

function keyAcceptedCheck(via: Via, withPods: boolean) {
  return async (ctx: CheckContext): Promise<CheckOutcome> => {
    const cases = [...jobCases];
    if (withPods) {
      const gpu = await gpuChoice(ctx);
      if (gpu) cases.push(podCase(podBody(gpu)));
    }
    // A job of the api key's own, so that reading a job is judged on an id the target issued.
    const seed = await ctx.client.request({ method: "POST", url: jobUrl(ctx, "run"), json: { input: {} }, auth: { key: "api" } });
    const jobId = is2xx(seed.status) ? stringField(seed.json, "id") : undefined;
    if (jobId) noteCreated(ctx, "job", seed);
    const judge = async (c: Case): Promise<FailureInput | undefined> => {
      const spec = c.spec(ctx, jobId);
      if (!spec) return undefined;
      const res = await ctx.client.request({ ...spec, auth: { key: "api", via } });
      if (c.creates) noteCreated(ctx, c.creates, res);
      await undoCreation(ctx, c.creates, res);
      const refused = res.status === 401 || res.status === 403;
      if (!refused && (!c.must2xx || is2xx(res.status))) return undefined;
      return {
        expected: `${c.must2xx ? "a 2xx answer" : "an answer other than 401 or 403"} to ${c.name} sent with the run's full-access key as ${header(via)} (Authentication rule 1); got ${res.status}`,
        exchange: res.exchange,
        ...(c.name.startsWith("GET status") && jobId
          ? { sequence: [seed.exchange], captures: [{ variable: "JOB_ID", fromRequest: 0, field: "id", value: jobId }] }
          : {}),
      };
    };
    try {
      const failure = await findFailure(ctx, fc.constantFrom(...cases), judge, { numRuns: fewRuns(ctx, 4), examples: cases });
      return failure ? ctx.fail(failure) : ctx.pass();
    } finally {
      if (jobId) await cancelJob(ctx, jobId);
    }
  };
}

registerCheck("auth.bearer-header", keyAcceptedCheck("bearer", true), { needs: { keys: ["api"] } });
registerCheck("auth.bare-key-jobs", keyAcceptedCheck("raw", false), { needs: { keys: ["api"] } });
