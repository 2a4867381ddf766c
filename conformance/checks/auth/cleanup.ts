/**
 * Removing what a check created (or what a broken target created when it should have refused),
 * so other checks see the platform as they left it. Best effort: an answer here is never
 * judged, and a target without the choices.md paths simply keeps the pod.
 */
import type { CheckContext } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import type { KeyRole } from "../../keys.ts";
import { podActionRequest, podDeleteRequest } from "../../target-facts/index.ts";
import { is2xx, jobUrl, stringField } from "./target.ts";

export async function terminatePod(ctx: CheckContext, podId: string, key: KeyRole = "api"): Promise<void> {
  if (!ctx.keys[key]) return;
  const del = podDeleteRequest(ctx, podId, key);
  if (del) {
    const res = await ctx.client.request(del);
    if (is2xx(res.status) || res.status === 404) return;
  }
  await ctx.client.request(podActionRequest(ctx, podId, "terminate", { key }));
}

export async function cancelJob(ctx: CheckContext, jobId: string, key: KeyRole = "api"): Promise<void> {
  if (!ctx.keys[key]) return;
  await ctx.client.request({ method: "POST", url: jobUrl(ctx, "cancel", jobId), auth: { key } });
}

/** Undoes a createPod or run that answered 2xx (a broken target accepting what it should refuse). */
export async function undoCreation(ctx: CheckContext, kind: "pod" | "job" | undefined, res: ClientResponse): Promise<void> {
  const id = stringField(res.json, "id");
  if (!kind || !is2xx(res.status) || !id) return;
  if (kind === "pod") await terminatePod(ctx, id);
  else await cancelJob(ctx, id);
}

/** Notes the creation transitions the spec names, for the coverage report. */
export function noteCreated(ctx: CheckContext, kind: "pod" | "job", res: ClientResponse): void {
  const status = stringField(res.json, "status");
  if (kind === "pod" && res.status === 201 && status === "PROVISIONING") ctx.exercised("pod", "(none)", "PROVISIONING");
  if (kind === "job" && is2xx(res.status) && status === "IN_QUEUE") ctx.exercised("job", "(none)", "IN_QUEUE");
}
