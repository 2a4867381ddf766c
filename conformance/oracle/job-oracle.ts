/**
 * The job oracle, computed by the platform model (sim/domain's Serverless running the
 * conformance handler, conformance/oracle/shadow-models.ts): a model job is brought to a status,
 * left to its own moves (the moves it makes as an echo, a failing job, and a sleep past its
 * execution timeout: the spec does not show what makes a job FAILED or TIMED_OUT, so all three
 * are open), or sent cancel or retry. The strict set is the model's answer; the lenient set adds
 * what the spec leaves open (an accepted repeat that moves nothing). Memoized per (states, command).
 */
import { JOB_STATUSES, type JobStatus } from "../../sim/domain/serverless/index.ts";
import type { Profile } from "../options.ts";
import { memo } from "./memo.ts";
import { inOrder, mergeOutcomes, type JobCommand, type JobOracle, type Outcome } from "./oracle.ts";
import { JobModel, type JobKind } from "./shadow-models.ts";

const SCRATCH_SEED = 1;
const KINDS: readonly JobKind[] = ["echo", "fail", "timeout"];
const ACTIVE_JOB = new Set(["IN_QUEUE", "IN_PROGRESS"]);
const ALL_JOB: readonly string[] = JOB_STATUSES;
const isJobStatus = (s: string): s is JobStatus => ALL_JOB.includes(s);
const ordered = (states: Iterable<string>): string[] => inOrder(states, ALL_JOB);

/** Model jobs in `status`, one per kind of job that can be in it. */
function modelsIn(status: JobStatus): JobModel[] {
  if (ACTIVE_JOB.has(status)) return KINDS.map((k) => JobModel.inStatus(status, SCRATCH_SEED, k));
  return [JobModel.inStatus(status, SCRATCH_SEED)];
}

/** The statuses a job in `status` passes through by the model's own moves (cancel and retry are the suite's). */
const ownMoves = memo((status: string): readonly string[] => (isJobStatus(status) ? ordered(modelsIn(status).flatMap((m) => m.ownMoves())) : [status]));

function drift(possible: Iterable<string>): readonly string[] {
  return ordered([...possible].flatMap((s) => ownMoves(s)));
}

/** What the model answers to `command` on a job in `status` (the key "STATUS command"): 200 and where the job goes, or a refusal. */
const modelAnswers = memo((key: string): readonly Outcome[] => {
  const [status, command] = key.split(" ") as [string, JobCommand];
  const v: Outcome[] = [];
  if (isJobStatus(status)) {
    for (const m of modelsIn(status)) {
      const answered = command === "cancel" ? m.cancel() : m.retry();
      // The answer names a status (retry: IN_QUEUE) the job may already have left inside the call (an idle worker took it).
      // The spec gives no code to a refusal of cancel or retry ("not shown"): any 4xx.
      v.push(answered !== undefined ? { status: 200, next: drift([answered, m.status]) } : { status: "4xx", next: ownMoves(status) });
    }
  }
  return v;
});

function command(profile: Profile, possible: Iterable<string>, cmd: JobCommand): readonly Outcome[] {
  // The job may have moved by itself between the read and the command.
  const reach = drift(possible);
  const refused: Outcome = { status: "4xx", next: reach };
  const answers = mergeOutcomes(reach.flatMap((s) => modelAnswers(`${s} ${cmd}`)), ALL_JOB);
  const accepted = answers.find((o) => o.status === 200);
  if (profile === "strict") return accepted ? [accepted, refused] : [refused];
  // Lenient: repeating a request is no transition, so an accepted command that leaves the job
  // as it was (a second cancel answered CANCELLED) is allowed beside the model's move.
  const unchanged = reach.filter((s) => !ACTIVE_JOB.has(s) || cmd === "retry");
  const next = ordered([...(accepted?.next ?? []), ...unchanged]);
  return next.length ? [{ status: "2xx", next }, refused] : [refused];
}

export function modelJobOracle(profile: Profile): JobOracle {
  return { drift, command: (possible, cmd) => command(profile, possible, cmd) };
}
