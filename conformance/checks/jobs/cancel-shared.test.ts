/**
 * Issue 32 item 2: the four cancel rules share one observation. Against a two-worker real-time
 * target, one job seen IN_PROGRESS and one kept IN_QUEUE (with the sleep that holds the other
 * worker) are all the jobs they submit, each cancelled once; the answers and one watch judge all
 * four rules, and a planted defect still fails the rules that catch it.
 */
import t from "tap";
import { jobOp, type Breakage } from "../../test-support/jobs/test-target.ts";
import { twoWorkerTarget } from "../../test-support/jobs/two-worker-target.ts";
import "./index.ts";

const RULES = ["jobs.cancel.queued", "jobs.cancel.running", "jobs.cancel.never-completes", "jobs.cancel.response"];

/**
 * Counts the jobs submitted to be cancelled (sleeps of 3 s or more: the target clock's measurement,
 * once a run, sleeps 2 s), and the cancels by job id.
 */
function counting(): { breakage: Breakage; cancellable: () => number; cancels: Map<string, number> } {
  let submitted = 0;
  const cancels = new Map<string, number>();
  const breakage: Breakage = (req, next) => {
    const op = jobOp(req);
    const input = (req.body as { input?: { op?: unknown; ms?: unknown } } | undefined)?.input;
    if (op === "run" && input?.op === "sleep" && typeof input.ms === "number" && input.ms >= 3_000) submitted++;
    if (op === "cancel") {
      const id = req.path.split("/").pop()!;
      cancels.set(id, (cancels.get(id) ?? 0) + 1);
    }
    return next(req);
  };
  return { breakage, cancellable: () => submitted, cancels };
}

t.test("one running and one queued job, each cancelled once, judge all four cancel rules", async (t) => {
  const seen = counting();
  const target = await twoWorkerTarget([], seen.breakage);
  t.teardown(() => target.stop());
  const { report } = await target.run(RULES);
  t.same(report.rules.map((r) => [r.id, r.status, r.reason ?? ""]), RULES.map((id) => [id, "pass", ""]));
  // The running job and the queued one, with at most two sleeps that hold the workers before it
  // (each rule setting up its own jobs, with --runs 1: 5 to 9).
  const n = seen.cancellable();
  t.ok(n >= 2 && n <= 4, `jobs submitted to be cancelled: ${n}`);
  t.ok([...seen.cancels.values()].every((n) => n === 1), `every job cancelled once: ${JSON.stringify([...seen.cancels.values()])}`);
});

t.test("cancel-lies (CANCELLED answered, the job runs on to COMPLETED) fails never-completes and the rules of the jobs that ran on, from the shared watch", async (t) => {
  const target = await twoWorkerTarget(["cancel-lies"]);
  t.teardown(() => target.stop());
  const { report } = await target.run(RULES);
  const status = Object.fromEntries(report.rules.map((r) => [r.id, r.status]));
  t.same(status, { "jobs.cancel.queued": "fail", "jobs.cancel.running": "fail", "jobs.cancel.never-completes": "fail", "jobs.cancel.response": "pass" });
  const never = report.rules.find((r) => r.id === "jobs.cancel.never-completes")!;
  t.match(never.failures[0]?.evidence.expected, /^a job cancelled while IN_(QUEUE|PROGRESS) never completing afterwards: CANCELLED or gone; got 200 /);
});

/**
 * The target answers every cancel 409 and, from then on, reads the job COMPLETED: as if each job
 * had ended before its cancel reached it (a send held back by the rate limit's pacing). That is no
 * verdict on the cancel rules; a refusal while the job still reads running is (the second target).
 */
function refusingCancels(endedFirst: boolean): Breakage {
  const ended = new Set<string>();
  return (req, next) => {
    const op = jobOp(req);
    const id = req.path.split("/").pop()!;
    if (op === "cancel") {
      if (endedFirst) ended.add(id);
      return { kind: "response", response: { status: 409, headers: { "content-type": "application/json" }, body: { detail: `job ${id} cannot be cancelled now` } } };
    }
    if (op === "status" && ended.has(id)) return { kind: "response", response: { status: 200, headers: { "content-type": "application/json" }, body: { id, status: "COMPLETED", output: {}, delayTime: 1, executionTime: 1 } } };
    return next(req);
  };
}

t.test("a cancel refused because the job ended first is no verdict; refused while it still runs, a failure", async (t) => {
  const ended = await twoWorkerTarget([], refusingCancels(true));
  t.teardown(() => ended.stop());
  const first = await ended.run(["jobs.cancel.running", "jobs.cancel.queued"]);
  for (const r of first.report.rules) {
    t.equal(r.status, "skip", `${r.id}: not failed`);
    t.match(r.reason ?? "", /ended before the cancel reached it/, `${r.id}: says why`);
  }
  const running = await twoWorkerTarget([], refusingCancels(false));
  t.teardown(() => running.stop());
  const second = await running.run(["jobs.cancel.running"]);
  t.equal(second.report.rules[0]?.status, "fail", "refused while the job reads IN_PROGRESS: jobs.cancel.running fails");
});
