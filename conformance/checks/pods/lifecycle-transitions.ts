/**
 * pods.transition-legal: between two observations of a pod with nothing accepted in between, the
 * pod moved only as the spec lets it move on its own: PROVISIONING → STARTING → RUNNING (a read
 * may miss STARTING), or into EXITED, ERROR or TERMINATED (the spec leaves those moves open),
 * and never out of TERMINATED ("permanently deleted"). Moves caused by an action are choices.md's:
 * under the lenient profile any is accepted; under strict, a stop leads to EXITED and a
 * terminate or DELETE to TERMINATED.
 */
import { POD_STATUSES } from "../../../sim/api/schemas/index.ts";
import type { InvariantChecker } from "./lifecycle-observation.ts";

const KNOWN = new Set<string>(POD_STATUSES);
/** The moves the spec's table makes automatic, including two steps read as one. */
const FORWARD: Readonly<Record<string, readonly string[]>> = { PROVISIONING: ["STARTING", "RUNNING"], STARTING: ["RUNNING"] };
/** States the spec does not say how a pod enters: any live pod may go there. */
const OPEN_TARGETS = new Set(["EXITED", "ERROR", "TERMINATED"]);

export function automaticMoveLegal(from: string, to: string): boolean {
  if (from === to) return true;
  if (from === "TERMINATED") return false;
  return (FORWARD[from] ?? []).includes(to) || OPEN_TARGETS.has(to);
}

/** Under strict, where the first read after an accepted operation may find the pod. */
function afterOperationLegal(operation: string, to: string): boolean {
  if (operation === "stop") return to === "EXITED" || automaticMoveLegal("EXITED", to);
  if (operation === "terminate" || operation === "delete") return to === "TERMINATED";
  return true;
}

const SPEC_MOVES = "PROVISIONING → STARTING → RUNNING on its own (moves into EXITED, ERROR or TERMINATED are left open), and never out of TERMINATED";

export const transitionLegal: InvariantChecker = {
  notApplicable: "no pod was observed twice",
  applies: (obs) =>
    obs.kind === "view" && obs.previous !== undefined && KNOWN.has(obs.previous) && typeof obs.view.status === "string" && KNOWN.has(obs.view.status),
  check: (obs, env) => {
    if (obs.kind !== "view" || obs.previous === undefined) return undefined;
    const from = obs.previous;
    const to = obs.view.status as string;
    const label = `pod ${obs.pod.label}`;
    if (from === "TERMINATED" && to !== "TERMINATED") {
      return { expected: `${label}: a TERMINATED pod stays TERMINATED ("TERMINATED (permanently deleted)"); it was read ${to} after ${obs.changedBy ? `an accepted ${obs.changedBy}` : "nothing was sent to it"}` };
    }
    if (obs.changedBy === undefined) {
      return automaticMoveLegal(from, to) ? undefined : { expected: `${label}: with no operation sent, a pod moves ${SPEC_MOVES}; it went ${from} → ${to}` };
    }
    if (env.profile === "strict" && !afterOperationLegal(obs.changedBy, to)) {
      const want = obs.changedBy === "stop" ? "EXITED" : "TERMINATED";
      return { expected: `${label}: after an accepted ${obs.changedBy} the pod is ${want} (strict profile: GraphQL podStop's EXITED, choices.md's "pod becomes TERMINATED"); it went ${from} → ${to}` };
    }
    return undefined;
  },
};
