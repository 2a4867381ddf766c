/**
 * Waiting for a deployed pod, never assuming a timing: polls `pod(input: {podId})` with bounded
 * retries, advancing the emulator's virtual time between tries (or sleeping, against another
 * target). Running is read as a non-null `runtime`, the only live-state field the spec's
 * `pod` query offers.
 */
import type { CheckContext } from "../../check.ts";
import { realtimeBounds } from "../../check-context.ts";
import { SETTLED_POD_STATUSES } from "../support/pod-settled.ts";
import { adaptivePauses, describeWait } from "../support/poll.ts";
import { advance, waitIsOver } from "../support/time.ts";
import { gqlString } from "./graphql-literal.ts";
import { gql, rootObject, type GqlAnswer } from "./graphql-request.ts";
import { isObj, type Obj } from "./json-shape.ts";

/** Everything the spec's `runtime` record names. */
export const RUNTIME_SELECTION =
  "runtime { uptimeInSeconds ports { ip isIpPublic privatePort publicPort type } gpus { id gpuUtilPercent memoryUtilPercent } container { cpuPercent memoryPercent } }";

export function podQuery(podId: string, selection = `id name ${RUNTIME_SELECTION}`): string {
  return `{ pod(input: {podId: ${gqlString(podId)}}) { ${selection} } }`;
}

/**
 * The pauses between tries. Virtual time: even steps (an hour in all for a start, ten seconds
 * for a short wait). Real time: from 100 ms, growing to five seconds at most (support/poll.ts),
 * so a fast target is not kept waiting and a slow one is not polled needlessly (two minutes in
 * all for a start, REALTIME_RUNNING_WAIT_MS times the run's measured factor, twenty seconds for a short wait).
 */
function pauses(ctx: CheckContext, long: boolean): number[] {
  if (ctx.controlApi) return long ? Array<number>(120).fill(30_000) : Array<number>(5).fill(2_000);
  return adaptivePauses(long ? realtimeBounds(ctx.options).runningWaitMs : 20_000, long ? 5_000 : 2_000);
}

export interface PodRead {
  readonly answer: GqlAnswer;
  readonly pod: Obj;
}

/** The pod's REST status (getPod), or undefined when the target does not answer one. */
async function restStatus(ctx: CheckContext, podId: string): Promise<string | undefined> {
  const res = await ctx.client.request({ method: "GET", url: new URL(`/v2/pods/${encodeURIComponent(podId)}`, ctx.target.rest).href, auth: { key: "api" } });
  const status = isObj(res.json) ? res.json.status : undefined;
  return res.status === 200 && typeof status === "string" ? status : undefined;
}

/**
 * The pod once `accept` holds of it; undefined when it never did within the bound. A long wait
 * in real time also reads the pod's REST status now and then, and ends as soon as the pod
 * settled in ERROR, EXITED or TERMINATED (the spec allows a pod to fail): two minutes of polling
 * a failed pod would judge nothing.
 */
export async function waitForPod(ctx: CheckContext, podId: string, accept: (pod: Obj) => boolean, long: boolean, selection?: string): Promise<PodRead | undefined> {
  let tries = 0;
  for (const pause of [...pauses(ctx, long), undefined]) {
    const answer = await gql(ctx, podQuery(podId, selection));
    const pod = rootObject(answer, "pod");
    if (answer.ok && pod && accept(pod)) return { answer, pod };
    if (long && !ctx.controlApi && ++tries % 4 === 0 && SETTLED_POD_STATUSES.has((await restStatus(ctx, podId)) ?? "")) return undefined;
    if (pause !== undefined && waitIsOver(ctx)) return undefined;
    if (pause !== undefined) await advance(ctx, pause);
  }
  return undefined;
}

/** The pod as soon as the target lists it (it may take a moment to show on some platforms). */
export const waitVisible = (ctx: CheckContext, podId: string, selection?: string) => waitForPod(ctx, podId, () => true, false, selection);

/** The pod once it has a runtime: running. */
export const waitRunning = (ctx: CheckContext, podId: string, selection?: string) => waitForPod(ctx, podId, (p) => isObj(p.runtime), true, selection);

/** How long waitRunning waits, in words, for skip reasons. */
export const runningBound = (ctx: CheckContext): string => (ctx.controlApi ? "an hour of virtual time" : describeWait(realtimeBounds(ctx.options).runningWaitMs, false));
