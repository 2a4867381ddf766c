/**
 * deletePod (`DELETE /v2/pods/{podId}`): terminates the pod; 204 without a body. Deleting a pod
 * that is already TERMINATED (still visible until the registry drops it) answers 204 as well:
 * DELETE is idempotent in HTTP, and the state asked for already holds. After the drop: 404.
 */
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { respond } from "../../types.ts";
import { actionRefusal, podNotFound } from "./pod-problems.ts";

export const deletePod: Operation = ({ platform, params, principal }) => {
  const podId = params.podId ?? "";
  const pod = platform.pods.get(principal.accountId, podId);
  if (!pod) return respond(podNotFound(podId));
  if (pod.status === "TERMINATED") return respond(json(204, undefined));
  const out = platform.pods.action(principal.accountId, podId, "terminate");
  if (!out.ok) return respond(actionRefusal(out, platform.pods.get(principal.accountId, podId), podId, "terminate"));
  return respond(json(204, undefined));
};
