/**
 * updatePod (`PATCH /v2/pods/{podId}`): the body is judged against the pod it changes (its kind,
 * and the mount kind fixed at create, for the five mount update rules), then applied by the
 * registry. 200 with the Pod; 404 for a pod the caller does not have; 400/422 for a body that
 * breaks a rule; 409 for a TERMINATED pod.
 */
import type { PodRecord } from "../../../domain/pods/index.ts";
import { podRestView } from "../../../domain/pods/index.ts";
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { respond } from "../../types.ts";
import { validateUpdatePod, type UpdatePodTarget } from "../../validate/index.ts";
import { podNotFound, updateRefusal, validationProblem } from "./pod-problems.ts";

/** What the mount rules need to know of a pod. */
export function updateTarget(pod: PodRecord): UpdatePodTarget {
  const kind = pod.gpu ? "gpu" : "cpu";
  const volumeId = pod.mounts.network?.[0]?.volumeId;
  if (volumeId !== undefined) return { kind, mountKind: "network", volumeId };
  return { kind, mountKind: pod.mounts.persistent ? "persistent" : "none" };
}

export const updatePod: Operation = ({ platform, request, params, principal, now }) => {
  const podId = params.podId ?? "";
  const pod = platform.pods.get(principal.accountId, podId);
  if (!pod) return respond(podNotFound(podId));
  const valid = validateUpdatePod(request.body, updateTarget(pod));
  if (!valid.ok) return respond(validationProblem(valid));
  const out = platform.pods.update(principal.accountId, podId, valid.value);
  if (!out.ok) return respond(updateRefusal(out, platform.pods.get(principal.accountId, podId), podId));
  return respond(json(200, podRestView(out.pod, now)));
};
