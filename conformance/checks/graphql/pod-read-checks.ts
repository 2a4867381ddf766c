/**
 * Reading pods: `myself { pods }` and `pod(input: {podId})` offer id, name and runtime; the
 * pod fields and the runtime record have the spec's types. Each run deploys a pod of its own
 * (so the lists are never vacuously empty), reads it, and removes it.
 */
import { registerCheck } from "../../check-registry.ts";
import type { CheckContext, FailureInput } from "../../check.ts";
import type { Exchange } from "../../recorder.ts";
import { schemaErrors, statedOnly } from "../support/schema.ts";
import { storyOf } from "./captures.ts";
import { DEPLOY, type Deployed } from "./deploy.ts";
import { withBasicPod } from "./basic-pod.ts";
import { describe, gql, rootObject } from "./graphql-request.ts";
import { basicDeployArb } from "./inputs.ts";
import { isObj, missingKeys, show, type Obj } from "./json-shape.ts";
import { RUNTIME_SELECTION, runningBound, waitRunning, waitVisible } from "./pod-wait.ts";
import { checkProperty, fewRuns, Inconclusive } from "./property.ts";
import { missingSelections } from "./selection-check.ts";
import { podTypeProblems, STATED_RUNTIME } from "./pod-types.ts";

const MYSELF_FIELDS = "{ myself { pods { id name runtime { uptimeInSeconds } } } }";
const MYSELF_RUNTIME = `{ myself { pods { id name ${RUNTIME_SELECTION} } } }`;

const story = (ctx: CheckContext, pod: Deployed, last: Exchange) => storyOf(ctx, pod.answer.res.exchange, last, DEPLOY, pod.podId);

/** The account's pods, or the failure of a read that should have succeeded. */
async function myPods(ctx: CheckContext, pod: Deployed, doc: string): Promise<{ pods: Obj[]; exchange: Exchange } | FailureInput> {
  const answer = await gql(ctx, doc);
  const myself = answer.data?.myself;
  const pods = isObj(myself) ? myself.pods : undefined;
  if (!answer.ok || !Array.isArray(pods)) {
    return { expected: `{data: {myself: {pods: [...]}}} for ${doc} ("${ctx.rule.spec}"); got ${describe(answer)}`, exchange: answer.res.exchange, ...story(ctx, pod, answer.res.exchange) };
  }
  return { pods: pods.filter(isObj), exchange: answer.res.exchange };
}

registerCheck(
  "graphql.myself-pods.fields",
  (ctx) =>
    checkProperty(
      ctx,
      basicDeployArb,
      (d) =>
        withBasicPod(ctx, d, async (pod) => {
          if (!pod.podId) return new Inconclusive("the deploy answer carried no pod id");
          await waitVisible(ctx, pod.podId, "id");
          const read = await myPods(ctx, pod, MYSELF_FIELDS);
          if (!("pods" in read)) return read;
          if (read.pods.length === 0) return new Inconclusive("myself { pods } listed no pod, not even the one just deployed (graphql.pod-find-and-deploy.creates judges that)");
          const missing = missingSelections(MYSELF_FIELDS, { myself: { pods: read.pods } });
          if (missing.length === 0) return undefined;
          return { expected: `every pod of myself { pods } offering id, name, runtime ("${ctx.rule.spec}"); missing: ${missing.join(", ")}`, exchange: read.exchange, ...story(ctx, pod, read.exchange) };
        }),
      { numRuns: fewRuns(ctx, 1) },
    ),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "graphql.pod.fields",
  (ctx) =>
    checkProperty(
      ctx,
      basicDeployArb,
      (d) =>
        withBasicPod(ctx, d, async (pod) => {
          if (!pod.podId) return new Inconclusive("the deploy answer carried no pod id");
          const selection = "id name runtime { uptimeInSeconds }";
          const seen = await waitVisible(ctx, pod.podId, selection);
          if (!seen) return new Inconclusive(`pod(input: {podId}) never found the pod just deployed (graphql.pod-find-and-deploy.creates judges that)`);
          const missing = missingKeys(seen.pod, ["id", "name", "runtime"]);
          const wrongId = seen.pod.id !== pod.podId ? [`id ${show(seen.pod.id)} instead of ${JSON.stringify(pod.podId)}`] : [];
          if (missing.length === 0 && wrongId.length === 0) return undefined;
          return {
            expected: `pod(input: {podId}) offering id, name, runtime of the pod asked for ("${ctx.rule.spec}"); ${[...missing.map((m) => `missing ${m}`), ...wrongId].join("; ")}`,
            exchange: seen.answer.res.exchange,
            ...story(ctx, pod, seen.answer.res.exchange),
          };
        }),
      { numRuns: fewRuns(ctx, 1) },
    ),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "graphql.pod.types",
  (ctx) =>
    checkProperty(
      ctx,
      basicDeployArb,
      (d) =>
        withBasicPod(ctx, d, async (pod) => {
          const rule = `("${ctx.rule.spec}")`;
          const deployed = rootObject(pod.answer, DEPLOY);
          const fromDeploy = deployed ? podTypeProblems(DEPLOY, deployed) : [];
          if (fromDeploy.length > 0) return { expected: `pod fields typed as the spec says ${rule}; ${fromDeploy.slice(0, 8).join("; ")}`, exchange: pod.answer.res.exchange };
          if (!pod.podId) return new Inconclusive("the deploy answer carried no pod id");
          const seen = await waitVisible(ctx, pod.podId, "id name runtime { uptimeInSeconds }");
          if (seen) {
            const problems = podTypeProblems("pod", seen.pod);
            if (problems.length > 0) return { expected: `pod fields typed as the spec says ${rule}; ${problems.slice(0, 8).join("; ")}`, exchange: seen.answer.res.exchange, ...story(ctx, pod, seen.answer.res.exchange) };
          }
          const read = await myPods(ctx, pod, MYSELF_FIELDS);
          if (!("pods" in read)) return undefined;
          const problems = read.pods.flatMap((p, i) => podTypeProblems(`myself.pods[${i}]`, p));
          if (problems.length > 0) return { expected: `pod fields typed as the spec says ${rule}; ${problems.slice(0, 8).join("; ")}`, exchange: read.exchange, ...story(ctx, pod, read.exchange) };
          return undefined;
        }),
      { numRuns: fewRuns(ctx, 1) },
    ),
  { needs: { keys: ["api"] } },
);

// The runtime's shape as the sentence states it: STATED_RUNTIME (pod-types.ts).
registerCheck(
  "graphql.runtime.types",
  (ctx) =>
    checkProperty(
      ctx,
      basicDeployArb,
      (d) =>
        withBasicPod(ctx, d, async (pod) => {
          const rule = `("${ctx.rule.spec}")`;
          if (!pod.podId) return new Inconclusive("the deploy answer carried no pod id");
          const running = await waitRunning(ctx, pod.podId, `id ${RUNTIME_SELECTION}`);
          if (!running) return new Inconclusive(`the deployed pod showed no runtime within ${runningBound(ctx)}`);
          const problems = statedOnly(ctx, schemaErrors("GraphqlPodRuntime", running.pod.runtime), STATED_RUNTIME).map((e) => `pod.runtime${e}`);
          if (problems.length > 0) return { expected: `runtime shaped as the spec says ${rule}; ${problems.slice(0, 8).join("; ")}`, exchange: running.answer.res.exchange, ...story(ctx, pod, running.answer.res.exchange) };
          const read = await myPods(ctx, pod, MYSELF_RUNTIME);
          if (!("pods" in read)) return undefined;
          const listed = read.pods.flatMap((p, i) => (p.runtime === null || p.runtime === undefined ? [] : statedOnly(ctx, schemaErrors("GraphqlPodRuntime", p.runtime), STATED_RUNTIME).map((e) => `myself.pods[${i}].runtime${e}`)));
          if (listed.length > 0) return { expected: `runtime shaped as the spec says ${rule}; ${listed.slice(0, 8).join("; ")}`, exchange: read.exchange, ...story(ctx, pod, read.exchange) };
          return undefined;
        }),
      { numRuns: fewRuns(ctx, 1), waitsForRunning: true },
    ),
  { needs: { keys: ["api"] } },
);
