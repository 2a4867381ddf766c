/**
 * A network volume for a target that lists none: one the target itself accepted in a create.
 * The spec shows no way to list or make a volume, and a target that lists none may still take a
 * pod with a network mount (it may know the id from elsewhere, or take any). So the suite asks it
 * once per run: a pod with a network mount of a volume id of its own; when the target creates it,
 * that id is one the target accepts (in the data center the pod was placed in), the pod is
 * terminated, and the rules that need a network volume use it. A refusal leaves them skipped.
 */
import type { CheckContext } from "../../check.ts";
import { createdPodId } from "./create-pod-client.ts";
import { createPod, isSuccess, jsonObject, terminatePod } from "./lifecycle-pods.ts";

/** The volume id the suite asks a target to mount. */
export const ASKED_VOLUME_ID = "cpsim-conformance-volume";
/** Computes tried (a target may have no capacity for one). */
const MAX_TRIES = 2;

export type AcceptedVolume = { readonly id: string; readonly dataCenterId: string | undefined; readonly from: string } | { readonly reason: string };

const cache = new WeakMap<object, Promise<AcceptedVolume>>();

/** `computes`: createPod compute fields to try (`{cpu: {...}}`, `{gpu: {...}}`), cheapest first. Asked once per run. */
export function volumeAcceptedInCreate(ctx: CheckContext, computes: readonly Record<string, unknown>[]): Promise<AcceptedVolume> {
  let cached = cache.get(ctx.options);
  if (!cached) {
    cached = ask(ctx, computes);
    cache.set(ctx.options, cached);
    cached.catch(() => cache.delete(ctx.options));
  }
  return cached;
}

async function ask(ctx: CheckContext, computes: readonly Record<string, unknown>[]): Promise<AcceptedVolume> {
  let last = "no GPU type or CPU flavor to create a pod with";
  for (const compute of computes.slice(0, MAX_TRIES)) {
    const body = { name: "cpsim-volume-probe", image: "ubuntu:22.04", ...compute, mounts: { network: [{ volumeId: ASKED_VOLUME_ID, path: "/workspace" }] } };
    const res = await createPod(ctx, body);
    const view = jsonObject(res);
    const id = createdPodId(res);
    if (isSuccess(res.status) && id !== undefined) {
      await terminatePod(ctx, id);
      const dc = typeof view?.dataCenterId === "string" && view.dataCenterId !== "" ? view.dataCenterId : undefined;
      return { id: ASKED_VOLUME_ID, dataCenterId: dc, from: `a pod with a network mount of "${ASKED_VOLUME_ID}" the target created${dc ? ` in ${dc}` : ""}` };
    }
    last = `a pod with a network mount of "${ASKED_VOLUME_ID}" was refused (${res.status})`;
  }
  return { reason: `the target lists no network volume, and ${last}` };
}
