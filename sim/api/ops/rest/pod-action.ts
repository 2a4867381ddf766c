/**
 * podAction (`POST /v2/pods/{podId}/action` with `{"action": ...}` and nothing else): 200 with the
 * Pod for start, stop and restart; 204 for terminate. The registry decides what the status
 * allows (choices.md's table) and refuses the rest with 409, as it does stop/restart of a locked
 * pod and a start whose host's GPUs were taken meanwhile.
 */
import { podRestView } from "../../../domain/pods/index.ts";
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { respond } from "../../types.ts";
import { validatePodAction } from "../../validate/index.ts";
import { actionRefusal, podNotFound, validationProblem } from "./pod-problems.ts";

export const podAction: Operation = ({ platform, request, params, principal, now }) => {
  const podId = params.podId ?? "";
  if (!platform.pods.get(principal.accountId, podId)) return respond(podNotFound(podId));
  const valid = validatePodAction(request.body);
  if (!valid.ok) return respond(validationProblem(valid));
  const { action } = valid.value;
  const out = platform.pods.action(principal.accountId, podId, action);
  if (!out.ok) return respond(actionRefusal(out, platform.pods.get(principal.accountId, podId), podId, action));
  return respond(action === "terminate" ? json(204, undefined) : json(200, podRestView(out.pod, now)));
};
