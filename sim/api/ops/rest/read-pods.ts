/** listPods (`GET /v2/pods` → `{"pods": [...]}`, the caller's pods only) and getPod (`GET /v2/pods/{podId}`). */
import { podRestView } from "../../../domain/pods/index.ts";
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { respond } from "../../types.ts";
import { podNotFound } from "./pod-problems.ts";

export const listPods: Operation = ({ platform, principal, now }) =>
  respond(json(200, { pods: platform.pods.list(principal.accountId).map((pod) => podRestView(pod, now)) }));

export const getPod: Operation = ({ platform, params, principal, now }) => {
  const podId = params.podId ?? "";
  const pod = platform.pods.get(principal.accountId, podId);
  return respond(pod ? json(200, podRestView(pod, now)) : podNotFound(podId));
};
