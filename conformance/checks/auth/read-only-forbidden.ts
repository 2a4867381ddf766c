/**
 * auth.read-only-forbidden: "A valid key without access to the resource or action gives 403"
 * (Authentication rule 4), with the run's restricted key (valid, no write access) on writes.
 * The spec's writes are judged strictly: createPod (403 as problem+json, REST), run, cancel of
 * the account's own job, purge-queue. The choices.md pod writes (PATCH, DELETE, action) on the
 * account's own pod are judged only where the target serves them: under the lenient profile a
 * target without those paths may answer any 4xx, under strict they must answer 403.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome, FailureInput } from "../../check.ts";
import type { RequestSpec } from "../../client.ts";
import type { CurlCapture } from "../../curl.ts";
import type { Exchange } from "../../recorder.ts";
import { registerCheck } from "../../check-registry.ts";
import { inexpressibleActions, podActionRequest, podDeleteRequest } from "../../target-facts/index.ts";
import { accepts } from "../support/statuses.ts";
import { cancelJob, noteCreated, terminatePod, undoCreation } from "./cleanup.ts";
import { findFailure, fewRuns } from "./find-failure.ts";
import { gpuChoice, podBody, podBodyArb } from "./pod-body.ts";
import { problemIssues, problemText } from "./problem-json.ts";
import { is2xx, is4xx, jobUrl, podUrl, restUrl, stringField } from "./target.ts";

interface Write {
  readonly name: string;
  readonly spec: RequestSpec;
  readonly rest: boolean;
  /** A spec operation (strict 403); otherwise a choices.md path (any 4xx unless strict). */
  readonly specPath: boolean;
  readonly creates?: "pod" | "job";
  /** The api-key request that made the resource this write is about, for the replay. */
  readonly setup?: { readonly exchange: Exchange; readonly capture: CurlCapture };
}

const inputArb = fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean()), { maxKeys: 3 });
const PATCH_NAME = fc.stringMatching(/^renamed-[a-z0-9]{1,6}$/);
/** The write actions the target's action route can express (a desired-status route has no restart). */
const actionArb = (ctx: CheckContext) => fc.constantFrom(...["stop", "restart", "terminate"].filter((a) => !inexpressibleActions(ctx.facts).includes(a)));

async function readOnlyForbidden(ctx: CheckContext): Promise<CheckOutcome> {
  const gpu = await gpuChoice(ctx);
  // The account's own pod and job, made with the full key, for writes that need an existing resource.
  const pod = gpu ? await ctx.client.request({ method: "POST", url: restUrl(ctx, "/v2/pods"), json: podBody(gpu), auth: { key: "api" } }) : undefined;
  const podId = pod?.status === 201 ? stringField(pod.json, "id") : undefined;
  if (pod && podId) noteCreated(ctx, "pod", pod);
  const job = await ctx.client.request({ method: "POST", url: jobUrl(ctx, "run"), json: { input: { op: "sleep", ms: 30_000 } }, auth: { key: "api" } });
  const jobId = is2xx(job.status) ? stringField(job.json, "id") : undefined;
  if (jobId) noteCreated(ctx, "job", job);

  const podSetup = pod && podId ? { exchange: pod.exchange, capture: { variable: "POD_ID", fromRequest: 0, field: "id", value: podId } } : undefined;
  const jobSetup = jobId ? { exchange: job.exchange, capture: { variable: "JOB_ID", fromRequest: 0, field: "id", value: jobId } } : undefined;

  const writes: fc.Arbitrary<Write>[] = [
    inputArb.map((input) => ({ name: "POST run", spec: { method: "POST", url: jobUrl(ctx, "run"), json: { input } }, rest: false, specPath: true, creates: "job" as const })),
    fc.constant<Write>({ name: "POST purge-queue", spec: { method: "POST", url: jobUrl(ctx, "purge-queue") }, rest: false, specPath: true }),
  ];
  if (gpu) {
    writes.push(podBodyArb(gpu).map((body) => ({ name: "POST /v2/pods", spec: { method: "POST", url: restUrl(ctx, "/v2/pods"), json: body }, rest: true, specPath: true, creates: "pod" as const })));
  }
  if (jobId && jobSetup) {
    writes.push(fc.constant<Write>({ name: "POST cancel/<job_id>", spec: { method: "POST", url: jobUrl(ctx, "cancel", jobId) }, rest: false, specPath: true, setup: jobSetup }));
  }
  if (podId && podSetup) {
    writes.push(
      PATCH_NAME.map((name) => ({ name: "PATCH /v2/pods/<pod_id>", spec: { method: "PATCH", url: podUrl(ctx, podId), json: { name } }, rest: true, specPath: false, setup: podSetup })),
      fc.constant<Write>({ name: "DELETE /v2/pods/<pod_id>", spec: { method: "DELETE", url: podDeleteRequest(ctx, podId)?.url ?? podUrl(ctx, podId) }, rest: true, specPath: false, setup: podSetup }),
      actionArb(ctx).map((action) => ({ name: `POST /v2/pods/<pod_id>/action ${action}`, spec: podActionRequest(ctx, podId, action, { key: "restricted" }), rest: true, specPath: false, setup: podSetup })),
    );
  }

  const judge = async (w: Write): Promise<FailureInput | undefined> => {
    const res = await ctx.client.request({ ...w.spec, auth: { key: "restricted" } });
    await undoCreation(ctx, w.creates, res);
    const strict = w.specPath || ctx.options.profile === "strict";
    const issues: string[] = [];
    if (strict ? !accepts(ctx, res.status) : !is4xx(res.status)) issues.push(`the answer was ${res.status}`);
    else if (w.rest && res.status === 403) issues.push(...problemIssues(res));
    if (issues.length === 0) return undefined;
    const wanted = strict ? "403 Forbidden" : "a refusal (4xx; this path is docs/choices.md's, so 403 is required only under --profile strict)";
    return {
      expected: `${wanted} for ${w.name} with the restricted key, a valid key without write access ("A valid key without access to the resource or action gives 403", Authentication rule 4)${w.rest && strict ? `, with ${problemText(403)}` : ""}; ${issues.join("; ")}`,
      exchange: res.exchange,
      ...(w.setup ? { sequence: [w.setup.exchange], captures: [w.setup.capture] } : {}),
    };
  };

  try {
    const arb = fc.oneof(...writes);
    const examples = writes.map((w) => fc.sample(w, { seed: ctx.seed, numRuns: 1 })[0]);
    const failure = await findFailure(ctx, arb, judge, { numRuns: fewRuns(ctx, 8), examples });
    return failure ? ctx.fail(failure) : ctx.pass();
  } finally {
    if (jobId) await cancelJob(ctx, jobId);
    if (podId) await terminatePod(ctx, podId);
  }
}

registerCheck("auth.read-only-forbidden", readOnlyForbidden, { needs: { keys: ["api", "restricted"] } });
