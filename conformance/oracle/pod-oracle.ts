/**
 * The pod oracle, computed by the platform model (sim/domain's PodRegistry, conformance/oracle/
 * shadow-models.ts): for a pod in a status, a model pod is brought to that status, sent the
 * operation, and what it answers and where it goes (with the moves it then makes by itself) is
 * the strict set. Where a real target's pod may have moved between the suite's read and its
 * request, the union over the statuses the model's own moves reach is taken; a start may also
 * meet a host another pod took meanwhile (the model is asked with its host taken too). The
 * lenient set is the spec's: any answer that keeps TERMINATED final. Answers are memoized: the
 * model is asked once per (status, operation).
 */
import { POD_STATUSES, type PodStatus } from "../../sim/domain/pods/index.ts";
import type { Profile } from "../options.ts";
import { memo } from "./memo.ts";
import { inOrder, mergeOutcomes, type Outcome, type PodOperation, type PodOracle } from "./oracle.ts";
import { PodModel } from "./shadow-models.ts";

const ALL_POD: readonly string[] = POD_STATUSES;
/** Moves the spec leaves open (their causes are not shown): a pod may be read EXITED, ERROR or TERMINATED at any time. */
const POD_OPEN: readonly PodStatus[] = ["EXITED", "ERROR", "TERMINATED"];
/** The model's scratch pods draw delays only; no answer depends on the seed. */
const SCRATCH_SEED = 1;

const isPodStatus = (s: string): s is PodStatus => ALL_POD.includes(s);
const ordered = (states: Iterable<string>): string[] => inOrder(states, ALL_POD);

/** Model pods in `status`, one per way a container start may end (RUNNING or ERROR) where that matters. */
function modelsIn(status: PodStatus): PodModel[] {
  if (status === "PROVISIONING" || status === "STARTING") return [PodModel.inStatus(status, "gpu", SCRATCH_SEED, "RUNNING"), PodModel.inStatus(status, "gpu", SCRATCH_SEED, "ERROR")];
  return [PodModel.inStatus(status, "gpu", SCRATCH_SEED)];
}

/** The statuses a pod in `status` passes through by the model's own moves (what a read may find later, nothing sent). */
const ownMoves = memo((status: string): readonly string[] => (isPodStatus(status) ? ordered(modelsIn(status).flatMap((m) => m.ownMoves())) : [status]));

/** The model's own moves, and the moves the spec leaves open; TERMINATED is final. */
const drift = memo((from: string): readonly string[] => (from === "TERMINATED" ? ["TERMINATED"] : ordered([...ownMoves(from), ...POD_OPEN])));

/** What the model answers to `op` on a pod in `status` (its host free, or taken meanwhile), and where the pod may be read next. */
function modelAnswers(status: PodStatus, op: PodOperation): Outcome[] {
  const out: Outcome[] = [];
  for (const hostTaken of [false, true]) {
    for (const m of modelsIn(status)) {
      if (hostTaken) m.takeHost();
      const r = op === "patch" ? m.patch(true) : m.action(op === "delete" ? "terminate" : op);
      // choices.md's codes: terminate and DELETE answer 204, the other actions and PATCH 200 with the Pod.
      if (r.ok) out.push({ status: op === "terminate" || op === "delete" ? 204 : 200, next: drift(m.status) });
      else out.push({ status: r.status, next: drift(status) });
    }
  }
  // A PATCH may be refused by the target's own catalog (global networking it cannot give).
  if (op === "patch") out.push({ status: "4xx", next: drift(status) });
  return out;
}

const strictOperation = memo((key: string): readonly Outcome[] => {
  const [from, op] = key.split(" ") as [PodStatus, PodOperation];
  // The pod may have moved by itself between the read and the request (a real target's clock runs on).
  return mergeOutcomes(ownMoves(from).flatMap((s) => modelAnswers(s as PodStatus, op)), ALL_POD);
});

/**
 * A TERMINATED pod under strict: the model refuses every action (409); the emulator's DELETE of
 * it answers 204 (DELETE is idempotent in HTTP: the state asked for holds); once the pod is
 * dropped after its retention, anything answers 404.
 */
const strictTerminated = memo((op: string): readonly Outcome[] =>
  mergeOutcomes([...modelAnswers("TERMINATED", op as PodOperation), ...(op === "delete" ? [{ status: 204, next: ["TERMINATED"] }] : []), { status: 404, next: ["TERMINATED"] }], ALL_POD),
);

function operation(profile: Profile, from: string, op: PodOperation): readonly Outcome[] {
  if (from === "TERMINATED") {
    // Lenient: nothing brings a pod back from TERMINATED; an accepted repeat that keeps it so is idempotent, a refusal is too.
    return profile === "strict" ? strictTerminated(op) : [{ status: "2xx", next: ["TERMINATED"] }, { status: "4xx", next: ["TERMINATED"] }];
  }
  const refused: Outcome = { status: "4xx", next: drift(from) };
  // Lenient (or a status the model lacks): where an operation leads is choices.md's; the spec only keeps TERMINATED final.
  if (profile === "lenient" || !isPodStatus(from)) return [{ status: "2xx", next: ALL_POD }, refused];
  return strictOperation(`${from} ${op}`);
}

export function modelPodOracle(profile: Profile): PodOracle {
  return { drift, operation: (from, op) => operation(profile, from, op) };
}
