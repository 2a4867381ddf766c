/**
 * podFindAndDeployOnDemand: the fields its answer offers, the input fields it accepts with the
 * spec's types, that it creates a pod that then runs, and env as `KEY=value` strings. Every
 * pod made here is removed at the end of its run. A deploy refused for capacity on every GPU
 * type tried is never a failure: that run cannot judge the rule.
 */
import { registerCheck } from "../../check-registry.ts";
import type { Exchange } from "../../recorder.ts";
import { storyOf } from "./captures.ts";
import { withBasicPod, sameImage } from "./basic-pod.ts";
import { DEPLOY, DEPLOY_SELECTION, deployDocument, deployOnce, removePod } from "./deploy.ts";
import { gpuCandidates, gpuCountFor } from "./gpu-candidates.ts";
import { gql, describe, errorText, rootObject } from "./graphql-request.ts";
import { envProblems } from "./env-problems.ts";
import { basicDeployArb, fullDeployArb, fullFields, minimalFields } from "./inputs.ts";
import { isObj, show } from "./json-shape.ts";
import { podQuery, runningBound, waitRunning, waitVisible } from "./pod-wait.ts";
import { checkProperty, fewRuns, Inconclusive } from "./property.ts";
import { isCapacityRefusal } from "./refusal.ts";
import { missingSelections } from "./selection-check.ts";

registerCheck(
  "graphql.pod-find-and-deploy.fields",
  (ctx) =>
    checkProperty(
      ctx,
      basicDeployArb,
      (d) =>
        withBasicPod(ctx, d, async (pod) => {
          const doc = deployDocument(pod.fields);
          const missing = missingSelections(doc, pod.answer.data);
          const deployed = rootObject(pod.answer, DEPLOY);
          if (!deployed) missing.unshift(DEPLOY);
          if (missing.length === 0) return undefined;
          return {
            expected: `the deployed pod offering ${DEPLOY_SELECTION} ("${ctx.rule.spec}"); missing: ${missing.join(", ")}`,
            exchange: pod.answer.res.exchange,
          };
        }),
      { numRuns: fewRuns(ctx, 2) },
    ),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "graphql.pod-find-and-deploy.input",
  (ctx) =>
    checkProperty(
      ctx,
      fullDeployArb,
      async (d) => {
        const candidates = await gpuCandidates(ctx);
        if (candidates.length === 0) return new Inconclusive("the target's gpuTypes lists no GPU type to deploy on");
        const count = gpuCountFor(candidates, d.countPick);
        let last = "";
        for (const gpu of candidates.slice(0, 3)) {
          const full = fullFields(d, gpu.id, count);
          const first = await deployOnce(ctx, full);
          if (first.podId) await removePod(ctx, first.podId);
          if (first.answer.ok) return undefined;
          // Refused: the same deploy with only the fields no deploy can do without tells whether
          // the input's extra fields were the cause or the platform's capacity.
          const minimal = await deployOnce(ctx, minimalFields(full));
          if (minimal.podId) await removePod(ctx, minimal.podId);
          if (minimal.answer.ok && isCapacityRefusal(first.answer)) {
            // allowedCudaVersions and the minimums may legitimately exclude the hosts that had room.
            return new Inconclusive(`the full input was refused for capacity while the minimal one deployed: ${errorText(first.answer).slice(0, 300)}`);
          }
          if (minimal.answer.ok) {
            return {
              expected: `podFindAndDeployOnDemand accepting every input field of the spec's table with its type (cloudType ALL, gpuCount, volumeInGb, containerDiskInGb, minVcpuCount, minMemoryInGb, gpuTypeId, name, imageName, dockerArgs, ports, volumeMountPath, env [{key, value}], allowedCudaVersions) ("${ctx.rule.spec}"): the full input was refused (${errorText(first.answer).slice(0, 300)}) while the same deploy with only gpuTypeId, gpuCount, cloudType, name and imageName was accepted`,
              exchange: first.answer.res.exchange,
            };
          }
          last = errorText(first.answer).slice(0, 300);
        }
        return new Inconclusive(`no deploy succeeded on the GPU types tried, with or without the optional fields: ${last}`);
      },
      { numRuns: fewRuns(ctx, 3), shrinkBudget: 5 },
    ),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "graphql.pod-find-and-deploy.creates",
  (ctx) =>
    checkProperty(
      ctx,
      basicDeployArb,
      (d) =>
        withBasicPod(
          ctx,
          d,
          async (pod) => {
            const rule = `("${ctx.rule.spec}")`;
            const deployed = rootObject(pod.answer, DEPLOY) ?? {};
            if (!pod.podId) return { expected: `the created pod's id in the answer ${rule}; got ${show(deployed.id)}`, exchange: pod.answer.res.exchange };
            if (!sameImage(pod.fields.imageName, deployed.imageName)) {
              return { expected: `the created pod with the imageName asked for, ${JSON.stringify(pod.fields.imageName)} ${rule}; got ${show(deployed.imageName)}`, exchange: pod.answer.res.exchange };
            }
            const seen = await waitVisible(ctx, pod.podId, "id name");
            const story = (last: Exchange) => storyOf(ctx, pod.answer.res.exchange, last, DEPLOY, pod.podId);
            if (!seen || seen.pod.id !== pod.podId || seen.pod.name !== pod.fields.name) {
              const again = await gql(ctx, podQuery(pod.podId, "id name"));
              return {
                expected: `pod(input: {podId}) finding the created pod ${JSON.stringify(pod.podId)} named ${JSON.stringify(pod.fields.name)} ${rule}; got ${describe(again)}`,
                exchange: again.res.exchange,
                ...story(again.res.exchange),
              };
            }
            const mine = await gql(ctx, "{ myself { pods { id name } } }");
            const pods = isObj(mine.data?.myself) ? mine.data.myself.pods : undefined;
            if (!Array.isArray(pods) || !pods.some((p) => isObj(p) && p.id === pod.podId)) {
              return { expected: `myself { pods } listing the created pod ${JSON.stringify(pod.podId)} ${rule}; got ${describe(mine)}`, exchange: mine.res.exchange, ...story(mine.res.exchange) };
            }
            ctx.exercised("graphql-pod", "(none)", "created");
            const running = await waitRunning(ctx, pod.podId, "id runtime { uptimeInSeconds }");
            if (running) {
              ctx.exercised("graphql-pod", "created", "running");
              return undefined;
            }
            // A pod may end in ERROR ("unrecoverable error"), which the spec allows: where REST
            // shows that status, the run cannot judge deployment.
            const rest = await ctx.client.request({ method: "GET", url: new URL(`/v2/pods/${encodeURIComponent(pod.podId)}`, ctx.target.rest).href, auth: { key: "api" } });
            const status = isObj(rest.json) ? rest.json.status : undefined;
            if (rest.status === 200 && status === "ERROR") return new Inconclusive("the deployed pod ended in ERROR, which the spec allows");
            // Deploying means running; only virtual time makes "never, within an hour" a verdict.
            if (!ctx.controlApi) return new Inconclusive(`the deployed pod showed no runtime within ${runningBound(ctx)} (the wait's bound)`);
            const last = await gql(ctx, podQuery(pod.podId, "id runtime { uptimeInSeconds }"));
            return {
              expected: `the deployed pod running (a non-null runtime) within ${runningBound(ctx)} ${rule}; got ${describe(last)}`,
              exchange: last.res.exchange,
              ...story(last.res.exchange),
            };
          },
          (refused) =>
            refused.capacity
              ? new Inconclusive(refused.reason)
              : {
                  expected: `a valid deploy (the spec's input fields only) creating a pod, or a refusal that says the platform lacks capacity ("${ctx.rule.spec}"); got ${describe(refused.answers[refused.answers.length - 1])}`,
                  exchange: refused.answers[refused.answers.length - 1].res.exchange,
                },
        ),
      { numRuns: fewRuns(ctx, 2), shrinkBudget: 5, waitsForRunning: true },
    ),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "graphql.env-key-value",
  (ctx) =>
    checkProperty(
      ctx,
      basicDeployArb,
      (d) =>
        withBasicPod(ctx, d, async (pod) => {
          const env = rootObject(pod.answer, DEPLOY)?.env;
          const problems = envProblems(d.env, env);
          if (problems.length === 0) return undefined;
          return { expected: `env as a list of KEY=value strings holding every variable sent ("${ctx.rule.spec}"); ${problems.slice(0, 6).join("; ")}`, exchange: pod.answer.res.exchange };
        }),
      { numRuns: fewRuns(ctx, 3) },
    ),
  { needs: { keys: ["api"] } },
);

