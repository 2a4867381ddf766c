/**
 * The pod requests the lifecycle and update checks send, in one place: createPod (the spec's),
 * getPod and updatePod (the spec's getPod and "partial update by PATCH"), and listPods, deletePod
 * and the action, whose paths the spec does not show: the target's facts give them. Each returns
 * the client's response as it is; judging it is the checks' business.
 */
import type { PodAction } from "../../../sim/api/schemas/index.ts";
import type { CheckContext } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { podActionRequest, podDeleteRequest, podListRequest } from "../../target-facts/index.ts";

const podUrl = (ctx: CheckContext, id: string) => `${ctx.target.rest}/v2/pods/${encodeURIComponent(id)}`;

export function createPod(ctx: CheckContext, body: unknown): Promise<ClientResponse> {
  return ctx.client.request({ method: "POST", url: `${ctx.target.rest}/v2/pods`, auth: { key: "api" }, json: body });
}

export function getPod(ctx: CheckContext, id: string): Promise<ClientResponse> {
  return ctx.client.request({ method: "GET", url: podUrl(ctx, id), auth: { key: "api" } });
}

export function listPods(ctx: CheckContext): Promise<ClientResponse> {
  return ctx.client.request(podListRequest(ctx));
}

export function patchPod(ctx: CheckContext, id: string, body: unknown): Promise<ClientResponse> {
  return ctx.client.request({ method: "PATCH", url: podUrl(ctx, id), auth: { key: "api" }, json: body });
}

/** DELETE of the pod where the target has one; where it has none, its `terminate` action. */
export function deletePod(ctx: CheckContext, id: string): Promise<ClientResponse> {
  return ctx.client.request(podDeleteRequest(ctx, id) ?? podActionRequest(ctx, id, "terminate"));
}

/** `body` defaults to `{action}` (sent only where the target takes the action in the body); the action-body checks send broken ones. */
export function podAction(ctx: CheckContext, id: string, action: PodAction, body?: unknown): Promise<ClientResponse> {
  return ctx.client.request(podActionRequest(ctx, id, action, body === undefined ? {} : { body }));
}

export const isSuccess = (status: number): boolean => status >= 200 && status < 300;

/**
 * Whether an answer about a pod that exists says the route itself is missing: 405, or 404 while
 * the pod is there. choices.md's routes are not the spec's, so under the lenient profile such a
 * target is skipped for what needs the route, never failed.
 */
export const routeMissing = (status: number): boolean => status === 404 || status === 405 || status === 501;

/** The JSON object of an answer, or undefined. */
export function jsonObject(res: ClientResponse): Record<string, unknown> | undefined {
  const j = res.json;
  return typeof j === "object" && j !== null && !Array.isArray(j) ? (j as Record<string, unknown>) : undefined;
}

/**
 * Terminates a pod the check created, whatever the target offers: DELETE, else the terminate
 * action; a locked pod is unlocked first when the target refuses. Best effort: the check's
 * verdict never depends on it, but a pod left running would disturb other checks (and cost money
 * on a real platform).
 */
export async function terminatePod(ctx: CheckContext, id: string): Promise<void> {
  const del = await deletePod(ctx, id);
  if (isSuccess(del.status)) return;
  const act = await podAction(ctx, id, "terminate");
  if (isSuccess(act.status) || act.status === 404) return;
  await patchPod(ctx, id, { locked: false });
  const again = await deletePod(ctx, id);
  if (!isSuccess(again.status)) await podAction(ctx, id, "terminate");
}
