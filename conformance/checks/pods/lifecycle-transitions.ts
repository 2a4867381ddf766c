/**
 * pods.transition-legal: between two observations of a pod with nothing accepted in between, the
 * pod moved only as the spec lets it move on its own: PROVISIONING → STARTING → RUNNING (a read
 * may miss STARTING), or into EXITED, ERROR or TERMINATED (the spec leaves those moves open),
 * and never out of TERMINATED ("permanently deleted"). Moves caused by an action are choices.md's:
 * under the lenient profile any is accepted; under strict, a stop leads to EXITED and a
 * terminate or DELETE to TERMINATED. The sets come from the oracle (conformance/oracle).
 */
import { POD_STATUSES } from "../../../sim/api/schemas/index.ts";
import type { Oracle, PodOperation } from "../../oracle/oracle.ts";
import type { InvariantChecker } from "./lifecycle-observation.ts";

const KNOWN = new Set<string>(POD_STATUSES);
const OPERATIONS = new Set<string>(["start", "stop", "restart", "terminate", "delete", "patch"]);

const SPEC_MOVES = "PROVISIONING → STARTING → RUNNING on its own (moves into EXITED, ERROR or TERMINATED are left open), and never out of TERMINATED";

/**
 * The states the oracle allows after an accepted operation: the union of its successful
 * outcomes' next states (lenient: anything but leaving TERMINATED; strict: the emulator's move).
 */
function afterAccepted(oracle: Oracle, from: string, operation: string): ReadonlySet<string> | undefined {
  if (!OPERATIONS.has(operation)) return undefined;
  const outcomes = oracle.pods.operation(from, operation as PodOperation);
  return new Set(outcomes.filter((o) => o.status === "2xx" || (typeof o.status === "number" && o.status < 300)).flatMap((o) => o.next));
}

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
      return env.oracle.pods.drift(from).includes(to) ? undefined : { expected: `${label}: with no operation sent, a pod moves ${SPEC_MOVES}; it went ${from} → ${to}` };
    }
    const allowed = afterAccepted(env.oracle, from, obs.changedBy);
    if (allowed && !allowed.has(to)) {
      const want = [...allowed].join(" or ");
      return { expected: `${label}: after an accepted ${obs.changedBy} the pod is ${want} (${env.profile === "strict" ? `strict profile: GraphQL podStop's EXITED, docs/choices.md's "pod becomes TERMINATED"` : "the spec"}); it went ${from} → ${to}` };
    }
    return undefined;
  },
};
