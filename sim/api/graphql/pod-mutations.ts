/**
 * podResume, podStop and podTerminate: the pod actions start, stop and terminate of the domain,
 * with the same allowed-status table as `POST /v2/pods/{id}/action` (choices.md), so both paths
 * refuse the same requests.
 *
 * podResume's gpuCount resumes a stopped GPU pod with that many GPUs on its host (ignored for
 * CPU pods and for a pod in ERROR, which still holds its GPUs). Its allowedCudaVersions is
 * accepted and ignored: a stopped pod resumes on the host it is tied to, so there is no placement
 * for the versions to restrict.
 */
import type { PodAction } from "../../domain/pods/index.ts";
import { GraphqlCode, userError } from "./error-codes.ts";
import type { PodIdInput, PodResumeInput } from "./input-types.ts";
import { podObject, type PodObject } from "./pod-object.ts";
import { podRefusalError } from "./pod-refusal.ts";
import type { ResolverContext } from "./resolver-context.ts";

function act(ctx: ResolverContext, podId: string, action: PodAction, gpuCount?: number): PodObject {
  const out = ctx.platform.pods.action(ctx.principal.accountId, podId, action, gpuCount !== undefined ? { gpuCount } : {});
  if (!out.ok) throw podRefusalError(out, podId, action);
  return podObject(out.pod, ctx.now, ctx.platform.gpuStock);
}

export function podResume(args: { readonly input: PodResumeInput }, ctx: ResolverContext): PodObject {
  const { podId, gpuCount } = args.input;
  if (gpuCount != null && gpuCount < 1) {
    throw userError(GraphqlCode.BAD_USER_INPUT, `podResume: gpuCount is ${gpuCount}; send a whole number of GPUs, 1 or more, or leave it out to resume with the pod's own count.`);
  }
  return act(ctx, podId, "start", gpuCount ?? undefined);
}

export function podStop(args: { readonly input: PodIdInput }, ctx: ResolverContext): PodObject {
  return act(ctx, args.input.podId, "stop");
}

/** Returns Void: the answer is `{"data": {"podTerminate": null}}`. */
export function podTerminate(args: { readonly input: PodIdInput }, ctx: ResolverContext): null {
  act(ctx, args.input.podId, "terminate");
  return null;
}
