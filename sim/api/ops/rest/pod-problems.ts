/**
 * The problem+json answers of the pod operations: an unknown pod, a failed validation, and the
 * registry's refusals rendered as sentences that say what was wrong and what to do instead.
 * The registry decides (status and code); this file only words it.
 */
import type { PodAction, PodRecord, PodRefusal } from "../../../domain/pods/index.ts";
import { actionsFor } from "../../../domain/pods/index.ts";
import { problem } from "../../problem.ts";
import type { ApiResponse } from "../../types.ts";
import { describeFailure, type ValidationFailure } from "../../validate/index.ts";

/** 404 for an unknown pod id, and equally for another account's pod: its existence is not revealed. */
export function podNotFound(podId: string): ApiResponse {
  return problem(404, `No pod ${JSON.stringify(podId)} exists in your account; list your pods with GET /v2/pods.`);
}

/** 400 or 422 with every violation in `errors`. */
export function validationProblem(failure: ValidationFailure): ApiResponse {
  const { detail, errors } = describeFailure(failure);
  return problem(failure.status, detail, { errors });
}

/** The registry's own wording, made a sentence (it writes lower-case fragments for logs). */
function sentence(message: string): string {
  const s = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** The registry's fragment after a colon: its own case, ending with a period. */
function clause(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

function allowedNow(pod: PodRecord): string {
  const actions = actionsFor(pod.status);
  return actions.length === 0 ? `a ${pod.status} pod allows no actions` : `the actions allowed now are ${actions.join(", ")}`;
}

/** A refused action (podAction, deletePod); `pod` is the pod as it stands after the refusal. */
export function actionRefusal(refusal: PodRefusal, pod: PodRecord | undefined, podId: string, action: PodAction): ApiResponse {
  if (refusal.code === "not-found" || pod === undefined) return podNotFound(podId);
  switch (refusal.code) {
    case "not-allowed":
      return problem(refusal.status, `Pod ${podId} is ${pod.status}, which does not allow ${action}; ${allowedNow(pod)}.`);
    case "locked":
      return problem(
        refusal.status,
        `Pod ${podId} is locked, so it cannot be stopped or restarted; unlock it first with PATCH /v2/pods/${podId} {"locked": false}.`,
      );
    case "host-full":
      // choices.md quotes the real platform's words; they are kept verbatim inside the sentence.
      return problem(
        refusal.status,
        `Pod ${podId} cannot start: ${refusal.message}. A stopped pod stays tied to its host; try again later, or terminate it and create a new pod.`,
      );
    default:
      return problem(refusal.status, sentence(refusal.message));
  }
}

/** A refused PATCH that passed validation (a TERMINATED pod, a rule only the registry can judge). */
export function updateRefusal(refusal: PodRefusal, pod: PodRecord | undefined, podId: string): ApiResponse {
  if (refusal.code === "not-found" || pod === undefined) return podNotFound(podId);
  if (refusal.code === "not-allowed") {
    return problem(refusal.status, `Pod ${podId} is ${pod.status} and can no longer be changed; create a new pod instead.`);
  }
  return problem(refusal.status, `Pod ${podId} cannot be updated: ${clause(refusal.message)}`);
}

/** A refused createPod that passed validation. */
export function createRefusal(refusal: PodRefusal): ApiResponse {
  // No placement: the status the registry chose and the real platform's own message, unchanged.
  if (refusal.code === "no-capacity") return problem(refusal.status, refusal.message);
  if (refusal.code === "pod-limit") {
    return problem(refusal.status, `${sentence(refusal.message)} Terminate pods you no longer need, then create again.`);
  }
  return problem(refusal.status, `The pod cannot be created: ${clause(refusal.message)}`);
}
