/**
 * The small REST v1 pod surface the JavaScript SDK repository's `Pod` class calls
 * (`new Pod(options, key, "{base_url}/v1")`): create, list, get, stop, start, restart, delete.
 * Each is the v2 operation it names, run on a translated request (v1-pod-translation.ts) with
 * its answer translated back, so the model, validation, refusals and account isolation are the
 * v2 pods' own: a pod made here is in `GET /v2/pods`, and the other way round.
 *
 * Create: the body must fit V1PodOptions (422 with every failure, as the v2 body's schema), then
 * translate (400 naming what cannot), then each GPU type (CPU flavor) is tried in order until
 * one places; a refusal of the v2 body is answered as v2 words it, with the body sent (`v2Body`)
 * and the ids tried. `locked: true` is the v2 PATCH `{locked: true}` right after. Stop, start
 * and restart ignore their body (the class sends its options there) and answer the v1 pod.
 */
import { NO_INSTANCES_MESSAGE } from "../../../domain/scheduler/index.ts";
import { json } from "../../json-response.ts";
import type { Operation, OpContext } from "../../op-context.ts";
import { problem } from "../../problem.ts";
import type { Pod } from "../../schemas/index.ts";
import { respond, type ApiOutcome, type ApiResponse } from "../../types.ts";
import { createPod } from "./create-pod.ts";
import { deletePod } from "./delete-pod.ts";
import { podAction } from "./pod-action.ts";
import { getPod, listPods } from "./read-pods.ts";
import { restValidator } from "./resource-writes.ts";
import { updatePod } from "./update-pod.ts";
import type { V1PodOptions } from "./v1-pod-schemas.ts";
import { v1CreateBodies, v1PodView } from "./v1-pod-translation.ts";

/** Every v2 pod operation answers at once (none waits). */
function answerOf(out: ApiOutcome): ApiResponse {
  if (out.kind !== "response") throw new Error("a v2 pod operation answered with a wait");
  return out.response;
}

/** The v2 operation on `request` (body, method) and `params` of the caller's. */
const v2 = (op: Operation, ctx: OpContext, change: { body?: unknown; method?: OpContext["request"]["method"]; podId?: string } = {}): ApiResponse =>
  answerOf(
    op({
      ...ctx,
      request: { ...ctx.request, ...(change.method ? { method: change.method } : {}), ...("body" in change ? { body: change.body } : {}) },
      params: change.podId === undefined ? ctx.params : { ...ctx.params, podId: change.podId },
    }),
  );

/** A v2 answer with a Pod, in the v1 shape; anything else (a problem, 204) as it is. */
function v1Answer(ctx: OpContext, res: ApiResponse, status = res.status): ApiOutcome {
  if (res.status !== 200 && res.status !== 201) return respond(res);
  return respond(json(status, v1PodView(res.body as Pod, ctx.platform.catalog, ctx.principal.accountId)));
}

const isNoCapacity = (res: ApiResponse) => res.status === 409 && (res.body as { detail?: unknown }).detail === NO_INSTANCES_MESSAGE;

export const createPodV1: Operation = (ctx) => {
  const body = ctx.request.body ?? {};
  const checked = restValidator().validate("cpsim:V1PodOptions", body);
  if (!checked.ok) {
    const errors = checked.errors.map((e) => (e.startsWith(":") ? `(body)${e}` : e));
    return respond(problem(422, errors.length === 1 ? `The pod options do not fit V1PodOptions: ${errors[0]}` : `The pod options do not fit V1PodOptions (${errors.length} problems, each in errors).`, { errors }));
  }
  const translated = v1CreateBodies(body as V1PodOptions);
  if (!translated.ok) return respond(translated.response);
  const tried: string[] = [];
  let res: ApiResponse | undefined;
  for (const candidate of translated.candidates) {
    res = v2(createPod, ctx, { body: candidate });
    tried.push(((candidate.gpu ?? candidate.cpu) as { id: string }).id);
    if (res.status === 201) break;
    if (!isNoCapacity(res)) break;
  }
  if (res!.status !== 201) {
    const refused = res!.body as { detail: string; errors?: readonly string[] };
    const sent = translated.candidates[tried.length - 1];
    const answer = problem(res!.status, refused.detail, refused.errors ? { errors: refused.errors } : {});
    // RFC 9457 extension members: what the options became, and the ids tried in order.
    return respond({ ...answer, body: { ...(answer.body as object), v2Body: sent, tried } });
  }
  if (translated.locked) res = v2(updatePod, ctx, { method: "PATCH", body: { locked: true }, podId: (res!.body as Pod).id });
  return v1Answer(ctx, res!, 201);
};

export const listPodsV1: Operation = (ctx) => {
  const filters = Object.keys(ctx.request.query);
  if (filters.length > 0) return respond(problem(400, `GET /v1/pods takes no query here (${filters.join(", ")}); it answers all your pods, filter them yourself.`));
  const pods = (v2(listPods, ctx).body as { pods: Pod[] }).pods;
  return respond(json(200, pods.map((p) => v1PodView(p, ctx.platform.catalog, ctx.principal.accountId))));
};

export const getPodV1: Operation = (ctx) => v1Answer(ctx, v2(getPod, ctx));

const action = (name: "start" | "stop" | "restart"): Operation => (ctx) => v1Answer(ctx, v2(podAction, ctx, { body: { action: name } }));
export const stopPodV1 = action("stop");
export const startPodV1 = action("start");
export const restartPodV1 = action("restart");

export const deletePodV1: Operation = (ctx) => respond(v2(deletePod, ctx));
