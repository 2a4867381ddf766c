/**
 * auth.account-isolation: another account's pod and job are never listed, read or changed
 * (Authentication rule 4: no access to the resource; 403, or 404 for a resource that does not
 * exist for that key: the rule's statuses). The api key makes a pod and a job; fast-check then
 * draws requests of the other account's key about them. Judged:
 * - the job operations (spec paths): the rule's statuses;
 * - the pod paths of choices.md: any 4xx under lenient (a target may not serve them), the
 *   rule's statuses under strict; a listing must not hold the pod;
 * - GraphQL `pod`, `myself { pods }`, `podStop`: no data about the pod (errors are not shown,
 *   so their HTTP status is not judged).
 * - the other account's purge-queue (the endpoint may serve both accounts): any answer.
 * Afterwards the api key reads both back: neither was changed, and the job not cancelled or
 * purged, by the other account.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome, FailureInput } from "../../check.ts";
import type { ClientResponse, RequestSpec } from "../../client.ts";
import type { CurlCapture } from "../../curl.ts";
import type { Exchange } from "../../recorder.ts";
import { registerCheck } from "../../check-registry.ts";
import { inexpressibleActions, podActionRequest, podDeleteRequest, podListRequest } from "../../target-facts/index.ts";
import { acceptedText, accepts } from "../support/statuses.ts";
import { cancelJob, noteCreated, terminatePod } from "./cleanup.ts";
import { findFailure, fewRuns } from "./find-failure.ts";
import { gpuChoice, podBody } from "./pod-body.ts";
import { graphqlRequest, is2xx, is4xx, jobUrl, podUrl, restUrl, stringField } from "./target.ts";

type Verdict = (res: ClientResponse) => string | undefined;

interface Probe {
  readonly name: string;
  readonly spec: RequestSpec;
  readonly judge: Verdict;
  readonly about: "pod" | "job";
}

const RULE = "another account's resources are never listed, read or changed (Authentication rule 4)";

function dataOf(res: ClientResponse): Record<string, unknown> | undefined {
  const data = (res.json as { data?: unknown } | undefined)?.data;
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : undefined;
}

function listsId(list: unknown, id: string): boolean {
  return Array.isArray(list) && list.some((p) => stringField(p, "id") === id);
}

async function accountIsolation(ctx: CheckContext): Promise<CheckOutcome> {
  const gpu = await gpuChoice(ctx);
  const pod = gpu ? await ctx.client.request({ method: "POST", url: restUrl(ctx, "/v2/pods"), json: podBody(gpu, "cpsim-isolation"), auth: { key: "api" } }) : undefined;
  const podId = pod?.status === 201 ? stringField(pod.json, "id") : undefined;
  if (pod && podId) noteCreated(ctx, "pod", pod);
  const job = await ctx.client.request({ method: "POST", url: jobUrl(ctx, "run"), json: { input: { op: "sleep", ms: 30_000 } }, auth: { key: "api" } });
  const jobId = is2xx(job.status) ? stringField(job.json, "id") : undefined;
  if (jobId) noteCreated(ctx, "job", job);
  if (!podId && !jobId) {
    return ctx.skip(`the api key could create neither a pod (${pod ? `createPod answered ${pod.status}` : "no GPU type in stock in the target's catalog"}) nor a job (run answered ${job.status}): nothing to hide from the other account`);
  }

  const statusVerdict: Verdict = (res) => (accepts(ctx, res.status) ? undefined : `${acceptedText(ctx)}; got ${res.status}`);
  // Paths of choices.md: a target may not serve them (any 4xx hides the pod), unless strict.
  const choicesVerdict: Verdict = (res) =>
    ctx.options.profile === "strict" ? statusVerdict(res) : is4xx(res.status) ? undefined : `a 4xx refusal (${acceptedText(ctx)} under --profile strict); got ${res.status}`;

  const probes: fc.Arbitrary<Probe>[] = [];
  if (podId) {
    const gql = (name: string, query: string, leak: (data: Record<string, unknown>) => boolean): fc.Arbitrary<Probe> =>
      fc.constant({
        name,
        about: "pod",
        spec: graphqlRequest(ctx, query, { key: "other", via: "query" }),
        judge: (res) => {
          const data = dataOf(res);
          return data && leak(data) ? "no data about the pod (null, or an error)" : undefined;
        },
      });
    const q = JSON.stringify(podId);
    probes.push(
      fc.constant<Probe>({ name: "GET /v2/pods/<pod_id>", about: "pod", spec: { method: "GET", url: podUrl(ctx, podId) }, judge: choicesVerdict }),
      fc.constant<Probe>({
        name: "GET /v2/pods",
        about: "pod",
        spec: { method: "GET", url: podListRequest(ctx).url },
        judge: (res) => {
          if (!is2xx(res.status)) return undefined;
          const pods = (res.json as { pods?: unknown } | undefined)?.pods;
          return listsId(pods, podId) || (!Array.isArray(pods) && res.text.includes(podId)) ? "a listing without the api key's pod" : undefined;
        },
      }),
      fc.stringMatching(/^stolen-[a-z0-9]{1,6}$/).map((name) => ({ name: "PATCH /v2/pods/<pod_id>", about: "pod" as const, spec: { method: "PATCH", url: podUrl(ctx, podId), json: { name } }, judge: choicesVerdict })),
      fc.constant<Probe>({ name: "DELETE /v2/pods/<pod_id>", about: "pod", spec: { method: "DELETE", url: podDeleteRequest(ctx, podId)?.url ?? podUrl(ctx, podId) }, judge: choicesVerdict }),
      fc.constantFrom(...["stop", "restart", "terminate"].filter((a) => !inexpressibleActions(ctx.facts).includes(a))).map((action) => ({
        name: `POST /v2/pods/<pod_id>/action ${action}`,
        about: "pod" as const,
        spec: podActionRequest(ctx, podId, action, { key: "other" }),
        judge: choicesVerdict,
      })),
      gql("GraphQL pod(input: {podId})", `{ pod(input: {podId: ${q}}) { id name } }`, (d) => d.pod !== null && d.pod !== undefined),
      gql("GraphQL myself { pods }", "{ myself { pods { id } } }", (d) => listsId((d.myself as { pods?: unknown } | null | undefined)?.pods, podId)),
      gql("GraphQL podStop", `mutation { podStop(input: {podId: ${q}}) { id desiredStatus } }`, (d) => d.podStop !== null && d.podStop !== undefined),
    );
  }
  if (jobId) {
    for (const [method, op] of [["GET", "status"], ["GET", "stream"], ["POST", "cancel"], ["POST", "retry"]] as const) {
      probes.push(fc.constant<Probe>({ name: `${method} ${op}/<job_id>`, about: "job", spec: { method, url: jobUrl(ctx, op, jobId) }, judge: statusVerdict }));
    }
    // The endpoint may be shared by both accounts: the other account's purge is its own business,
    // judged afterwards by the api key's job still being there.
    probes.push(fc.constant<Probe>({ name: "POST purge-queue", about: "job", spec: { method: "POST", url: jobUrl(ctx, "purge-queue") }, judge: () => undefined }));
  }

  const setupOf = (about: "pod" | "job"): { sequence: Exchange[]; captures: CurlCapture[] } => {
    const made = about === "pod" ? pod : job;
    const id = about === "pod" ? podId : jobId;
    return made && id ? { sequence: [made.exchange], captures: [{ variable: about === "pod" ? "POD_ID" : "JOB_ID", fromRequest: 0, field: "id", value: id }] } : { sequence: [], captures: [] };
  };

  const judge = async (p: Probe): Promise<FailureInput | undefined> => {
    const res = await ctx.client.request({ ...p.spec, auth: p.spec.auth ?? { key: "other" } });
    const wrong = p.judge(res);
    if (!wrong) return undefined;
    return { expected: `${p.name} with the other account's key about the api key's ${p.about}: ${wrong}; ${RULE}`, exchange: res.exchange, ...setupOf(p.about) };
  };

  try {
    const examples = probes.map((p) => fc.sample(p, { seed: ctx.seed, numRuns: 1 })[0]);
    const failure = await findFailure(ctx, fc.oneof(...probes), judge, { numRuns: fewRuns(ctx, 4), examples });
    if (failure) return ctx.fail(failure);
    const changed = await unchanged(ctx, podId, jobId, setupOf);
    return changed ? ctx.fail(changed) : ctx.pass();
  } finally {
    if (jobId) await cancelJob(ctx, jobId);
    if (podId) await terminatePod(ctx, podId);
  }
}

/** Reads the pod and the job back with the api key: the other account's requests changed neither. */
async function unchanged(
  ctx: CheckContext,
  podId: string | undefined,
  jobId: string | undefined,
  setupOf: (about: "pod" | "job") => { sequence: Exchange[]; captures: CurlCapture[] },
): Promise<FailureInput | undefined> {
  const others = ctx.client.exchanges().filter((e) => e.request.headers.authorization?.includes("CPSIM_OTHER_API_KEY") || e.request.url.includes("CPSIM_OTHER_API_KEY"));
  if (podId) {
    const res = await ctx.client.request({ method: "GET", url: podUrl(ctx, podId), auth: { key: "api" } });
    // Judged only where the target serves getPod at the choices.md path.
    if (res.status === 200) {
      const name = stringField(res.json, "name");
      const status = stringField(res.json, "status");
      if (name !== "cpsim-isolation" || status === "TERMINATED") {
        const setup = setupOf("pod");
        return {
          expected: `the api key's pod unchanged after the other account's requests (name "cpsim-isolation", not terminated); it reads name ${JSON.stringify(name)}, status ${JSON.stringify(status)}; ${RULE}`,
          exchange: res.exchange,
          sequence: [...setup.sequence, ...others],
          captures: setup.captures,
        };
      }
    }
  }
  if (jobId) {
    const res = await ctx.client.request({ method: "GET", url: jobUrl(ctx, "status", jobId), auth: { key: "api" } });
    const status = stringField(res.json, "status");
    if (!is2xx(res.status) || status === "CANCELLED") {
      const setup = setupOf("job");
      return {
        expected: `the api key's job neither cancelled nor removed by the other account's requests; its status answers ${res.status}${status ? ` ${status}` : ""}; ${RULE}`,
        exchange: res.exchange,
        sequence: [...setup.sequence, ...others],
        captures: setup.captures,
      };
    }
  }
  return undefined;
}

registerCheck("auth.account-isolation", accountIsolation, { needs: { keys: ["api", "other"] } });
