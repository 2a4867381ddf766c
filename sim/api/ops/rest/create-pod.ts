/**
 * createPod (`POST /v2/pods`), as the spec gives it: validate the body against the schema and the
 * handler's rules (400/422 with every failure in `errors`), then let the registry place the pod.
 * A `templateId` first fills what the body leaves out (create-pod-template.ts).
 * Accepted: 201 with the Pod, status PROVISIONING. No host fits: the registry's status and the
 * real platform's "no instances available" message.
 */
import { podRestView } from "../../../domain/pods/index.ts";
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { respond } from "../../types.ts";
import { validateCreatePod } from "../../validate/index.ts";
import { createPodContext } from "./create-pod-context.ts";
import { applyTemplate } from "./create-pod-template.ts";
import { createRefusal, validationProblem } from "./pod-problems.ts";

export const createPod: Operation = ({ platform, request, principal, now }) => {
  const applied = applyTemplate(request.body, platform, principal.accountId);
  if (!applied.ok) return respond(applied.response);
  const valid = validateCreatePod(applied.body, createPodContext(platform.catalog, principal.accountId));
  if (!valid.ok) return respond(validationProblem(valid));
  const out = platform.pods.create(principal.accountId, applied.template === null ? valid.value : { ...valid.value, template: applied.template });
  if (!out.ok) return respond(createRefusal(out));
  return respond(json(201, podRestView(out.pod, now)));
};
