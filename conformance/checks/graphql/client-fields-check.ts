/**
 * graphql.client-fields (choices.md, strict only): the official Python client's documents,
 * character for character (sim/api/graphql/python-client-documents.ts), sent as the client
 * sends them (`Authorization: Bearer`), each answered without errors and holding every field it
 * selects: get_gpus, get_gpu, dataCenters, create_pod, get_pods, get_pod, stop_pod, resume_pod,
 * terminate_pod. A deploy or resume refused for capacity leaves those steps unjudged.
 */
import {
  pythonDeployMutation, pythonGpuQuery, pythonGpuTypesQuery, pythonPodQuery, pythonPodsQuery, pythonResumeMutation,
  pythonStopMutation, pythonTerminateMutation,
} from "../../../sim/api/graphql/python-client-documents.ts";
import { registerCheck } from "../../check-registry.ts";
import type { CheckContext, FailureInput } from "../../check.ts";
import type { Auth } from "../../client.ts";
import { advance } from "../support/time.ts";
import { storyOf } from "./captures.ts";
import { DEPLOY, removePod } from "./deploy.ts";
import { candidatesFor, gpuCandidates } from "./gpu-candidates.ts";
import { describe, gql, rootObject, type GqlAnswer } from "./graphql-request.ts";
import { IMAGE } from "./inputs.ts";
import { nonEmptyString } from "./json-shape.ts";
import { waitRunning } from "./pod-wait.ts";
import { failWith } from "./property.ts";
import { isCapacityRefusal, speaksOfCapacity } from "./refusal.ts";
import { missingSelections } from "./selection-check.ts";

const PYTHON_AUTH: Auth = { key: "api", via: "bearer" };

const DATA_CENTERS = "{ dataCenters { id name location gpuAvailability { gpuTypeId displayName stockStatus } } }";

type Judge = (what: string, doc: string, answer: GqlAnswer, extra?: Partial<FailureInput>) => void;

function judgeInto(ctx: CheckContext, failures: FailureInput[]): Judge {
  return (what, doc, answer, extra = {}) => {
    const missing = answer.ok ? missingSelections(doc, answer.data) : [];
    if (answer.ok && missing.length === 0) return;
    const why = answer.ok ? `missing: ${missing.join(", ")}` : `got ${describe(answer)}`;
    failures.push({ expected: `the official Python client's ${what} answered without errors, holding every field it selects ("${ctx.rule.spec}"); ${why}`, exchange: answer.res.exchange, ...extra });
  };
}

registerCheck(
  "graphql.client-fields",
  async (ctx) => {
    const failures: FailureInput[] = [];
    const judge = judgeInto(ctx, failures);
    const send = (doc: string) => gql(ctx, doc, PYTHON_AUTH);

    judge("get_gpus", pythonGpuTypesQuery, await send(pythonGpuTypesQuery));
    const candidates = await gpuCandidates(ctx);
    if (candidates[0]) {
      const doc = pythonGpuQuery(candidates[0].id);
      judge("get_gpu", doc, await send(doc));
    }
    judge("dataCenters query", DATA_CENTERS, await send(DATA_CENTERS));

    let podId: string | undefined;
    let deploy: GqlAnswer | undefined;
    let note: string | undefined;
    for (const gpu of candidatesFor(candidates, 1).slice(0, 3)) {
      const doc = pythonDeployMutation({ name: "cpsim-gql-python", imageName: IMAGE, gpuTypeId: gpu.id, cloudType: "ALL", gpuCount: 1, ports: "8888/http", env: { CPSIM_CLIENT: "python" } });
      deploy = await send(doc);
      const id = rootObject(deploy, DEPLOY)?.id;
      podId = nonEmptyString(id) ? id : undefined;
      if (deploy.ok) {
        judge("create_pod", doc, deploy);
        break;
      }
      if (podId) await removePod(ctx, podId);
      podId = undefined;
      if (!isCapacityRefusal(deploy)) {
        judge("create_pod", doc, deploy);
        break;
      }
      note = "create_pod was refused for capacity on every GPU type tried";
    }
    if (podId && deploy) {
      const created = deploy;
      const extra = (a: GqlAnswer): Partial<FailureInput> => storyOf(ctx, created.res.exchange, a.res.exchange, DEPLOY, podId);
      try {
        const pods = pythonPodsQuery();
        const podsAnswer = await send(pods);
        judge("get_pods", pods, podsAnswer, extra(podsAnswer));
        const one = pythonPodQuery(podId);
        const podAnswer = await send(one);
        judge("get_pod", one, podAnswer, extra(podAnswer));
        if (await waitRunning(ctx, podId, "id runtime { uptimeInSeconds }")) {
          const stop = await send(pythonStopMutation(podId));
          judge("stop_pod", pythonStopMutation(podId), stop, extra(stop));
          if (stop.ok) {
            await advance(ctx, 5_000);
            const resume = await send(pythonResumeMutation(podId, 1));
            if (speaksOfCapacity(resume)) note = "resume_pod was refused for capacity";
            else judge("resume_pod", pythonResumeMutation(podId, 1), resume, extra(resume));
          }
        } else note = "the pod never ran, so stop_pod and resume_pod were not tried";
        const terminate = await send(pythonTerminateMutation(podId));
        judge("terminate_pod", pythonTerminateMutation(podId), terminate, extra(terminate));
        if (terminate.ok && Object.hasOwn(terminate.data ?? {}, "podTerminate")) podId = undefined;
      } finally {
        if (podId) await removePod(ctx, podId);
      }
    }
    if (failures.length > 0) return failWith(ctx, ...failures);
    if (note) ctx.log(note);
    return ctx.pass();
  },
  { needs: { keys: ["api"] } },
);
