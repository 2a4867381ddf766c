/**
 * Checkers of what the target answers to pod operations, all choices.md's (strict profile only):
 * an action outside the status's list is refused with 409 and one inside it is done; start, stop
 * and restart answer 200 with the pod and terminate 204; DELETE answers 204 without a body and
 * the pod is then TERMINATED; listPods answers `{pods: [Pod, ...]}`.
 */
import { describeOutcomes, outcomesFor } from "../../oracle/oracle.ts";
import { schemaErrors } from "../support/schema.ts";
import { allowedActions } from "./lifecycle-invariants.ts";
import type { InvariantChecker, Observation } from "./lifecycle-observation.ts";

const isSuccess = (status: number) => status >= 200 && status < 300;

const actionOf = (obs: Observation) => (obs.kind === "operation" && obs.operation !== "delete" && obs.operation !== "patch" ? obs.operation : undefined);

export const actionAllowedInStatus: InvariantChecker = {
  focus: { action: 8 },
  notApplicable: "no action was sent to a pod of known status (the target may lack POST /v2/pods/{id}/action)",
  applies: (obs) => actionOf(obs) !== undefined && obs.kind === "operation" && obs.statusBefore !== undefined && allowedActions(obs.statusBefore) !== undefined,
  check: (obs, env) => {
    const action = actionOf(obs);
    if (obs.kind !== "operation" || action === undefined || obs.statusBefore === undefined) return undefined;
    // The oracle's set for this action in this status (and the statuses the pod may have moved to since the read).
    const outcomes = env.oracle.pods.operation(obs.statusBefore, action);
    const status = obs.response.status;
    // This rule is about done-or-refused; which success code is pods.action.response-status's.
    const successAllowed = outcomes.some((o) => o.status === "2xx" || (typeof o.status === "number" && isSuccess(o.status)));
    if (isSuccess(status) ? successAllowed : outcomesFor(outcomes, status).length > 0) return undefined;
    const label = `pod ${obs.pod.label} (${obs.statusBefore})`;
    // No status the pod may have reached since the read allows the action: the model refuses it.
    if (isSuccess(status)) {
      return { expected: `${label}: ${action} is not in the ${obs.statusBefore} pod's actions [${allowedActions(obs.statusBefore)!.join(", ")}], so it answers 409 ("An action not allowed in the current status gives 409"); got ${status}` };
    }
    return { expected: `${label}: ${action} answers one of ${describeOutcomes(outcomes)} (docs/choices.md's actions table); got ${status}` };
  },
};

export const actionResponseStatus: InvariantChecker = {
  focus: { action: 8 },
  notApplicable: "no action was accepted (the target may lack POST /v2/pods/{id}/action)",
  applies: (obs) => actionOf(obs) !== undefined && obs.kind === "operation" && isSuccess(obs.response.status),
  check: (obs) => {
    const action = actionOf(obs);
    if (obs.kind !== "operation" || action === undefined) return undefined;
    const { status } = obs.response;
    const label = `pod ${obs.pod.label}`;
    if (action === "terminate") {
      return status === 204 ? undefined : { expected: `${label}: an accepted terminate answers 204 ("204 (terminate)"); got ${status}` };
    }
    if (status !== 200) return { expected: `${label}: an accepted ${action} answers 200 with the Pod ("200 Pod (start, stop, restart)"); got ${status}` };
    const body = obs.response.json as Record<string, unknown> | undefined;
    const errors = schemaErrors("Pod", body);
    if (errors.length > 0) return { expected: `${label}: an accepted ${action} answers 200 with the Pod record; the body is not one: ${errors.slice(0, 3).join("; ")}` };
    if (body?.id !== obs.pod.id) return { expected: `${label}: an accepted ${action} answers with that pod (id ${obs.pod.id}); got id ${JSON.stringify(body?.id)}` };
    return undefined;
  },
};

/**
 * DELETE of a pod that is not yet TERMINATED: 204 and no body; the next read of the pod (which the
 * model makes at once) finds it TERMINATED, or the pod gone (404).
 */
export const deleteNoContent: InvariantChecker = {
  focus: { delete: 4 },
  notApplicable: "no pod was deleted (the target may lack DELETE /v2/pods/{id})",
  applies: (obs) =>
    (obs.kind === "operation" && obs.operation === "delete" && obs.statusBefore !== "TERMINATED" && !obs.pod.terminated) ||
    (obs.kind === "view" && obs.changedBy === "delete"),
  check: (obs) => {
    const label = `pod ${obs.kind === "list" ? "" : obs.pod.label}`;
    if (obs.kind === "operation") {
      const { status, text } = obs.response;
      if (status !== 204) return { expected: `${label}: DELETE answers 204 ("204, no body (pod becomes TERMINATED)"); got ${status}` };
      if (text !== "") return { expected: `${label}: DELETE answers 204 with no body ("204, no body"); got a body of ${text.length} characters` };
      return undefined;
    }
    if (obs.kind === "view" && obs.view.status !== "TERMINATED") {
      return { expected: `${label}: after a DELETE answered 204 the pod is TERMINATED ("pod becomes TERMINATED"); got status ${JSON.stringify(obs.view.status)}` };
    }
    return undefined;
  },
};

export const listShape: InvariantChecker = {
  focus: { list: 4 },
  notApplicable: "listPods was never called",
  applies: (obs) => obs.kind === "list",
  check: (obs) => {
    if (obs.kind !== "list") return undefined;
    const { status, json } = obs.response;
    if (status !== 200) return { expected: `GET /v2/pods answers 200 {"pods": [Pod, ...]} (docs/choices.md listPods); got ${status}` };
    const errors = schemaErrors("PodList", json);
    if (errors.length > 0) return { expected: `GET /v2/pods answers {"pods": [Pod, ...]}; the body is not that: ${errors.slice(0, 3).join("; ")}` };
    const ids = new Set(((json as { pods: { id: string }[] }).pods ?? []).map((p) => p.id));
    const missing = obs.expectedIds.filter((id) => !ids.has(id));
    if (missing.length > 0) return { expected: `GET /v2/pods lists the account's pods, including ${missing.join(", ")} (created by this run and not terminated)` };
    return undefined;
  },
};
