/**
 * podStop and podResume. The spec: podStop offers id and desiredStatus and answers EXITED;
 * podResume offers id, desiredStatus and imageName and answers RUNNING. Which states each may
 * start from is not shown, so a run stops only a pod that is running (a non-null runtime) and
 * resumes only the pod it just stopped, after letting time pass.
 *
 * A resume refused because the pod's host has no free GPU any more is the real platform's
 * documented behaviour (choices.md: a stopped pod stays tied to its host), so such a refusal is
 * tried again three times, after 5, 10 and 20 s (pods of the rules beside this one may have freed
 * the GPUs), and a fourth refusal leaves the run unjudged rather than failed.
 */
import { registerCheck } from "../../check-registry.ts";
import type { CheckContext } from "../../check.ts";
import { advance } from "../support/time.ts";
import { storyOf } from "./captures.ts";
import { DEPLOY, type Deployed } from "./deploy.ts";
import { withBasicPod } from "./basic-pod.ts";
import { gqlString } from "./graphql-literal.ts";
import { describe, errorText, gql, rootObject, type GqlAnswer } from "./graphql-request.ts";
import { basicDeployArb } from "./inputs.ts";
import { show } from "./json-shape.ts";
import { runningBound, waitForPod, waitRunning } from "./pod-wait.ts";
import { checkProperty, fewRuns, Inconclusive, type ProbeResult } from "./property.ts";
import { speaksOfCapacity } from "./refusal.ts";
import { missingSelections } from "./selection-check.ts";

const STOP_SELECTION = "id desiredStatus";
/** The time let pass before each resume sent again after a refusal for capacity (doubling: 35 s in all). */
const RESUME_RETRY_MS = [5_000, 10_000, 20_000] as const;
const RESUME_SELECTION = "id desiredStatus imageName";

export const stopDocument = (podId: string): string => `mutation { podStop(input: {podId: ${gqlString(podId)}}) { ${STOP_SELECTION} } }`;
export const resumeDocument = (podId: string, gpuCount: number): string =>
  `mutation { podResume(input: {podId: ${gqlString(podId)}, gpuCount: ${gpuCount}}) { ${RESUME_SELECTION} } }`;

interface Story {
  readonly pod: Deployed & { readonly podId: string };
  readonly stop: GqlAnswer;
  readonly resume?: GqlAnswer;
}

/** Deploy, wait until running, stop, and (for the resume rules) let time pass and resume. */
async function tell(ctx: CheckContext, pod: Deployed, withResume: boolean, judge: (s: Story) => ProbeResult): Promise<ProbeResult> {
  const podId = pod.podId;
  if (!podId) return new Inconclusive("the deploy answer carried no pod id");
  const running = await waitRunning(ctx, podId, "id runtime { uptimeInSeconds }");
  if (!running) return new Inconclusive(`the deployed pod showed no runtime within ${runningBound(ctx)}, so there was no running pod to stop`);
  const stop = await gql(ctx, stopDocument(podId));
  if (rootObject(stop, "podStop")?.desiredStatus === "EXITED") ctx.exercised("graphql-pod", "RUNNING", "EXITED");
  if (!withResume) return judge({ pod: { ...pod, podId }, stop });
  if (!stop.ok) return new Inconclusive(`podStop was refused (${errorText(stop).slice(0, 200)}), so there was no stopped pod to resume (the podStop rules judge that)`);
  // Time passes between stop and resume; then, bounded, until the pod shows stopped.
  await advance(ctx, 5_000);
  await waitForPod(ctx, podId, (p) => p.runtime === null, false, "id runtime { uptimeInSeconds }");
  // A refusal for capacity (the host's GPUs taken meanwhile, by rules running beside this one) is
  // tried again later, as the refusal itself may advise, each time after twice as long.
  let resume = await gql(ctx, resumeDocument(podId, pod.fields.gpuCount));
  for (const gapMs of RESUME_RETRY_MS) {
    if (!speaksOfCapacity(resume)) break;
    await advance(ctx, gapMs);
    resume = await gql(ctx, resumeDocument(podId, pod.fields.gpuCount));
  }
  if (rootObject(resume, "podResume")?.desiredStatus === "RUNNING") ctx.exercised("graphql-pod", "EXITED", "RUNNING");
  if (speaksOfCapacity(resume)) {
    const waited = RESUME_RETRY_MS.reduce((a, b) => a + b, 0) / 1000;
    return new Inconclusive(`podResume was refused for capacity ${RESUME_RETRY_MS.length + 1} times over ${waited} s: ${errorText(resume).slice(0, 200)}`);
  }
  return judge({ pod: { ...pod, podId }, stop, resume });
}

/** The replay of a story up to `answer`: deploy, the waits, the stop (and resume). */
const evidence = (ctx: CheckContext, s: Story, answer: GqlAnswer) => ({
  exchange: answer.res.exchange,
  ...storyOf(ctx, s.pod.answer.res.exchange, answer.res.exchange, DEPLOY, s.pod.podId),
});

function register(ruleId: string, withResume: boolean, judge: (ctx: CheckContext, s: Story) => ProbeResult): void {
  registerCheck(
    ruleId,
    (ctx) =>
      checkProperty(ctx, basicDeployArb, (d) => withBasicPod(ctx, d, (pod) => tell(ctx, pod, withResume, (s) => judge(ctx, s))), {
        numRuns: fewRuns(ctx, 2),
        shrinkBudget: 4,
        waitsForRunning: true,
      }),
    { needs: { keys: ["api"] } },
  );
}

register("graphql.pod-stop.fields", false, (ctx, s) => {
  const rule = `("${ctx.rule.spec}")`;
  if (!s.stop.ok) return { expected: `podStop of a running pod answering {data: {podStop: {id, desiredStatus}}} ${rule}; got ${describe(s.stop)}`, ...evidence(ctx, s, s.stop) };
  const missing = missingSelections(stopDocument(s.pod.podId), s.stop.data);
  const got = rootObject(s.stop, "podStop");
  if (!got) missing.unshift("podStop");
  else if (got.id !== s.pod.podId) missing.push(`id ${show(got.id)} instead of ${JSON.stringify(s.pod.podId)}`);
  if (missing.length === 0) return undefined;
  return { expected: `podStop offering id and desiredStatus of the pod stopped ${rule}; ${missing.join(", ")}`, ...evidence(ctx, s, s.stop) };
});

register("graphql.pod-stop.exited", false, (ctx, s) => {
  const status = rootObject(s.stop, "podStop")?.desiredStatus;
  if (s.stop.ok && status === "EXITED") return undefined;
  return {
    expected: `podStop of a running pod answering desiredStatus EXITED ("${ctx.rule.spec}"); got ${s.stop.ok ? `desiredStatus ${show(status)}` : describe(s.stop)}`,
    ...evidence(ctx, s, s.stop),
  };
});

register("graphql.pod-resume.fields", true, (ctx, s) => {
  const resume = s.resume as GqlAnswer;
  const rule = `("${ctx.rule.spec}")`;
  if (!resume.ok) return { expected: `podResume of the pod just stopped answering {data: {podResume: {id, desiredStatus, imageName}}} ${rule}; got ${describe(resume)}`, ...evidence(ctx, s, resume) };
  const missing = missingSelections(resumeDocument(s.pod.podId, s.pod.fields.gpuCount), resume.data);
  const got = rootObject(resume, "podResume");
  if (!got) missing.unshift("podResume");
  else if (got.id !== s.pod.podId) missing.push(`id ${show(got.id)} instead of ${JSON.stringify(s.pod.podId)}`);
  if (missing.length === 0) return undefined;
  return { expected: `podResume offering id, desiredStatus and imageName of the pod resumed ${rule}; ${missing.join(", ")}`, ...evidence(ctx, s, resume) };
});

register("graphql.pod-resume.running", true, (ctx, s) => {
  const resume = s.resume as GqlAnswer;
  const status = rootObject(resume, "podResume")?.desiredStatus;
  if (resume.ok && status === "RUNNING") return undefined;
  return {
    expected: `podResume of the pod just stopped answering desiredStatus RUNNING ("${ctx.rule.spec}"); got ${resume.ok ? `desiredStatus ${show(status)}` : describe(resume)}`,
    ...evidence(ctx, s, resume),
  };
});
