/**
 * createPod (`POST /v2/pods`), as the spec gives it: validate the body against the schema and the
 * handler's rules (400/422 with every failure in `errors`), then let the registry place the pod.
 * Accepted: 201 with the Pod, status PROVISIONING. No host fits: the registry's status and the
 * real platform's "no instances available" message.
 */
import { podRestView } from "../../../domain/pods/index.ts";
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { respond } from "../../types.ts";
import { validateCreatePod } from "../../validate/index.ts";
import { createPodContext } from "./create-pod-context.ts";
import { createRefusal, validationProblem } from "./pod-problems.ts";

export const createPod: Operation = ({ platform, request, principal, now }) => {
  const valid = validateCreatePod(request.body, createPodContext(platform.catalog, principal.accountId));
  if (!valid.ok) return respond(validationProblem(valid));
  const out = platform.pods.create(principal.accountId, valid.value);
  if (!out.ok) return respond(createRefusal(out));
  return respond(json(201, podRestView(out.pod, now)));
};
