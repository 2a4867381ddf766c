/**
 * Successful answers to judge the rate-limit headers on: "Both headers also accompany
 * successful responses". fast-check draws an operation and a key; only 2xx answers are judged
 * (a target that does not serve a choices.md path just gives nothing to judge there).
 * - job endpoints (health, run) and createPod: the spec's own operations;
 * - GET /v2/pods (choices.md): judged wherever the target answers it with 2xx;
 * - GraphQL: whether its answers carry the headers the spec does not say; choices.md says every
 *   authenticated answer does, so only under --profile strict.
 * The restricted key reads only, the other account's key only reads too (its minute quota is
 * kept for the exhaustion checks), and what a sample creates is removed at once.
 */
import * as fc from "fast-check";
import type { CheckContext, FailureInput } from "../../../check.ts";
import type { ClientResponse, RequestSpec } from "../../../client.ts";
import type { KeyRole } from "../../../keys.ts";
import { noteCreated, undoCreation } from "../cleanup.ts";
import { findFailure, fewRuns } from "../find-failure.ts";
import { gpuChoice, podBody } from "../pod-body.ts";
import { graphqlRequest, is2xx, jobUrl, restUrl } from "../target.ts";

export interface SampleSurface {
  readonly name: string;
  readonly write: boolean;
  readonly creates?: "pod" | "job";
  request(ctx: CheckContext, key: KeyRole): RequestSpec;
}

export async function sampleSurfaces(ctx: CheckContext): Promise<SampleSurface[]> {
  const gpu = await gpuChoice(ctx);
  const out: SampleSurface[] = [
    { name: "GET health", write: false, request: (c, key) => ({ method: "GET", url: jobUrl(c, "health"), auth: { key } }) },
    { name: "POST run", write: true, creates: "job", request: (c, key) => ({ method: "POST", url: jobUrl(c, "run"), json: { input: {} }, auth: { key } }) },
    { name: "GET /v2/pods", write: false, request: (c, key) => ({ method: "GET", url: restUrl(c, "/v2/pods"), auth: { key } }) },
  ];
  if (gpu) {
    out.push({ name: "POST /v2/pods", write: true, creates: "pod", request: (c, key) => ({ method: "POST", url: restUrl(c, "/v2/pods"), json: podBody(gpu, "cpsim-ratelimit"), auth: { key } }) });
  }
  if (ctx.options.profile === "strict") {
    out.push({ name: "POST /graphql", write: false, request: (c, key) => graphqlRequest(c, "{ gpuTypes { id } }", { key, via: "query" }) });
  }
  return out;
}

export interface Sample {
  readonly surface: SampleSurface;
  readonly key: KeyRole;
}

/** The (operation, key) pairs worth sending: the api key everywhere, the others on reads. */
export function samplePairs(ctx: CheckContext, surfaces: readonly SampleSurface[]): Sample[] {
  const pairs: Sample[] = [];
  for (const surface of surfaces) {
    if (ctx.keys.api) pairs.push({ surface, key: "api" });
    if (!surface.write && ctx.keys.restricted) pairs.push({ surface, key: "restricted" });
  }
  const health = surfaces.find((s) => s.name === "GET health");
  if (health && ctx.keys.other) pairs.push({ surface: health, key: "other" });
  return pairs;
}

/**
 * Runs `judge` on the successful answers of drawn samples. Undefined when no sample succeeded:
 * the caller skips, since there was nothing to judge.
 */
export async function judgeSuccesses(
  ctx: CheckContext,
  judge: (res: ClientResponse, sample: Sample) => string | undefined,
  expected: string,
): Promise<{ failure?: FailureInput; judged: number }> {
  const pairs = samplePairs(ctx, await sampleSurfaces(ctx));
  if (pairs.length === 0) return { judged: 0 };
  let judged = 0;
  const failure = await findFailure(
    ctx,
    fc.constantFrom(...pairs),
    async (sample) => {
      const res = await ctx.client.request(sample.surface.request(ctx, sample.key));
      if (sample.surface.creates) noteCreated(ctx, sample.surface.creates, res);
      await undoCreation(ctx, sample.surface.creates, res);
      if (!is2xx(res.status)) return undefined;
      judged++;
      const wrong = judge(res, sample);
      return wrong ? { expected: `${expected}; the ${res.status} answer to ${sample.surface.name} (${sample.key} key): ${wrong}`, exchange: res.exchange } : undefined;
    },
    { numRuns: fewRuns(ctx, 6), examples: pairs },
  );
  return failure ? { failure, judged } : { judged };
}

export function noSuccessReason(): string {
  return "no sampled request (job health and run, createPod, GET /v2/pods) answered 2xx: no successful answer to judge";
}

