/**
 * The oracle built from the platform model's tables (sim/domain): the pod actions table
 * (ACTIONS_BY_STATUS) and the job transition table (ALLOWED_TRANSITIONS). The lenient sets are
 * the spec's (a refusal, or an answer that visibly keeps the constraint, is allowed wherever the
 * spec states no answer); the strict sets are the emulator's choices.
 */
import { ACTIONS_BY_STATUS, POD_STATUSES, type PodStatus } from "../../sim/domain/pods/index.ts";
import { ALLOWED_TRANSITIONS } from "../../sim/domain/serverless/index.ts";
import type { Profile } from "../options.ts";
import type { JobCommand, JobOracle, Oracle, Outcome, PodOperation, PodOracle } from "./oracle.ts";

const ALL_POD = [...POD_STATUSES] as readonly string[];
const LIVE = ["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR"];
/** The spec's automatic moves (a read may miss STARTING); EXITED, ERROR and TERMINATED may come at any time (the spec leaves their causes open). */
const POD_FORWARD: Readonly<Record<string, readonly string[]>> = { PROVISIONING: ["STARTING", "RUNNING"], STARTING: ["RUNNING"] };
const POD_OPEN = ["EXITED", "ERROR", "TERMINATED"];

function podDrift(from: string): readonly string[] {
  if (from === "TERMINATED") return ["TERMINATED"];
  return [...new Set([from, ...(POD_FORWARD[from] ?? []), ...POD_OPEN])];
}

/** The states the pod may be in when the operation reaches the target (pods move between a read and the next request). */
function podReachable(from: string): readonly string[] {
  if (from === "PROVISIONING") return ["PROVISIONING", "STARTING", "RUNNING", "ERROR"];
  if (from === "STARTING") return ["STARTING", "RUNNING", "ERROR"];
  return [from];
}

const isPodStatus = (s: string): s is PodStatus => (ALL_POD as readonly string[]).includes(s);

function podOperation(profile: Profile, from: string, op: PodOperation): readonly Outcome[] {
  // Nothing brings a pod back from TERMINATED: an accepted repeat is idempotent, a refusal is too.
  if (from === "TERMINATED") return [{ status: "2xx", next: ["TERMINATED"] }, { status: "4xx", next: ["TERMINATED"] }];
  const refused: Outcome = { status: "4xx", next: podDrift(from) };
  if (profile === "lenient" || !isPodStatus(from)) {
    // Where an operation leads is choices.md's; the spec only keeps TERMINATED final.
    return [{ status: "2xx", next: ALL_POD }, refused];
  }
  if (op === "patch") return [{ status: 200, next: podDrift(from) }, refused];
  if (op === "delete") return [{ status: 204, next: ["TERMINATED"] }];
  const states = podReachable(from).filter(isPodStatus);
  const allowedSomewhere = states.some((s) => ACTIONS_BY_STATUS[s].includes(op));
  const refusedSomewhere = states.some((s) => !ACTIONS_BY_STATUS[s].includes(op));
  const after: readonly string[] = op === "terminate" ? ["TERMINATED"] : op === "stop" ? podDrift("EXITED") : [...LIVE, "TERMINATED"];
  const out: Outcome[] = [];
  if (allowedSomewhere) out.push({ status: op === "terminate" ? 204 : 200, next: after });
  // A start of an EXITED pod may also be refused because its host's GPUs were taken meanwhile.
  if (refusedSomewhere || (op === "start" && from === "EXITED")) out.push({ status: 409, next: podDrift(from) });
  return out;
}

/** The model's job moves that happen without a request: the table minus cancel and retry (the suite's own moves) and expiry. */
function automaticJobMoves(): Record<string, string[]> {
  const moves: Record<string, string[]> = {};
  for (const [from, tos] of Object.entries(ALLOWED_TRANSITIONS)) {
    if (from === "(none)") continue;
    moves[from] = tos.filter((to) => to !== "(gone)" && to !== "CANCELLED" && !(to === "IN_QUEUE" && (from === "FAILED" || from === "TIMED_OUT")));
  }
  // The spec does not show what makes a job FAILED or TIMED_OUT: a queued job may end so too.
  moves.IN_QUEUE = [...new Set([...(moves.IN_QUEUE ?? []), "FAILED", "TIMED_OUT"])];
  return moves;
}

const JOB_MOVES = automaticJobMoves();
const ACTIVE_JOB = new Set(["IN_QUEUE", "IN_PROGRESS"]);
const RETRYABLE = new Set(["FAILED", "TIMED_OUT"]);

function jobDrift(possible: Iterable<string>): readonly string[] {
  const out = new Set<string>();
  const todo = [...possible];
  while (todo.length) {
    const s = todo.pop()!;
    if (out.has(s)) continue;
    out.add(s);
    todo.push(...(JOB_MOVES[s] ?? []));
  }
  return [...out];
}

function jobCommand(profile: Profile, possible: Iterable<string>, command: JobCommand): readonly Outcome[] {
  const reach = jobDrift(possible);
  const refused: Outcome = { status: "4xx", next: reach };
  const canMove = command === "cancel" ? reach.some((s) => ACTIVE_JOB.has(s)) : reach.some((s) => RETRYABLE.has(s));
  const after = command === "cancel" ? ["CANCELLED"] : jobDrift(["IN_QUEUE"]);
  if (profile === "strict") return canMove ? [{ status: 200, next: after }, refused] : [refused];
  // Lenient: repeating a request is no transition, so an accepted command that leaves the job
  // as it was (a second cancel answered CANCELLED) is allowed beside the move itself.
  const unchanged = reach.filter((s) => !ACTIVE_JOB.has(s) || command === "retry");
  const accepted = [...new Set([...(canMove ? after : []), ...unchanged])];
  return accepted.length ? [{ status: "2xx", next: accepted }, refused] : [refused];
}

export function platformOracle(profile: Profile): Oracle {
  const pods: PodOracle = { drift: podDrift, operation: (from, op) => podOperation(profile, from, op) };
  const jobs: JobOracle = { drift: jobDrift, command: (possible, command) => jobCommand(profile, possible, command) };
  return { profile, pods, jobs };
}
