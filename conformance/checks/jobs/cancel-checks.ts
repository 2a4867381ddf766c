/**
 * cancel (spec, "Job status"): a queued job is removed before it starts, a job in progress is
 * stopped, the answer is `{id, status: "CANCELLED"}` at once, and a cancelled job never
 * completes afterwards. After a cancel the job may read CANCELLED or be gone (a 4xx): the spec
 * says queued jobs are "removed", and does not say how a removed job reads.
 *
 * The four cancel rules share one observation (issue 32 item 2): a job seen IN_PROGRESS and one
 * kept IN_QUEUE are each cancelled once, and what follows judges every rule it can. Each cancel's
 * answer judges jobs.cancel.response (against the state read right before it) and the job's own
 * rule (jobs.cancel.queued or .running: the cancel accepted); the watch after it, past the moment
 * a cancel that did not take would show (cancel-watch.ts), judges the job's own rule and
 * jobs.cancel.never-completes on every job whose cancel was accepted. Only what the selected rules
 * need is set up: jobs.cancel.queued alone never starts a running job, and jobs.cancel.response
 * alone watches nothing.
 */
import type { CheckContext, CheckGroup, CheckOutcome, FailureInput } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { SETUP_NOT_REACHED } from "../../../reports/conformance-report.ts";
import { schemaErrors } from "../support/schema.ts";
import { asJob, isFinal, show } from "./support/job-body.ts";
import { is2xx, type JobSession } from "./support/job-session.ts";
import { holdMs, stateAtSend, submitQueued, submitRunningAt } from "./support/job-states.ts";
import { START_BUDGET_MS } from "./support/budgets.ts";
import { targetClock } from "./support/target-clock.ts";
import { withSession } from "./support/with-session.ts";
import { showsBy, watchCancelled, type Watched } from "./cancel-watch.ts";
import { pacingGapMs } from "../../working-time.ts";

export const CANCEL_QUEUED = "jobs.cancel.queued";
export const CANCEL_RUNNING = "jobs.cancel.running";
export const CANCEL_NEVER_COMPLETES = "jobs.cancel.never-completes";
export const CANCEL_RESPONSE = "jobs.cancel.response";
export const CANCEL_RULES = [CANCEL_QUEUED, CANCEL_RUNNING, CANCEL_NEVER_COMPLETES, CANCEL_RESPONSE] as const;

type Kind = "IN_QUEUE" | "IN_PROGRESS";

/** What the shared observation found for each rule: its first failure, whether it judged anything, and why not. */
class Verdicts {
  private readonly failures = new Map<string, FailureInput>();
  private readonly judged = new Set<string>();
  private readonly why = new Map<string, string[]>();

  constructor(private readonly members: ReadonlyMap<string, CheckContext>) {}

  wants(...ids: string[]): boolean {
    return ids.some((id) => this.members.has(id));
  }

  fail(id: string, failure: FailureInput): void {
    if (!this.failures.has(id)) this.failures.set(id, failure);
  }

  judge(id: string): void {
    this.judged.add(id);
  }

  unjudged(id: string, reason: string): void {
    this.why.set(id, [...(this.why.get(id) ?? []), reason]);
  }

  outcomes(): Map<string, CheckOutcome> {
    const out = new Map<string, CheckOutcome>();
    for (const [id, ctx] of this.members) {
      const failure = this.failures.get(id);
      const why = this.why.get(id) ?? [];
      out.set(
        id,
        failure
          ? ctx.fail(failure)
          : this.judged.has(id)
            ? ctx.pass()
            : ctx.skip(skipReason(why)),
      );
    }
    return out;
  }
}

/** Why a rule judged nothing: a set-up that did not come about says so first (counted apart), anything else is "nothing was judged". */
function skipReason(why: readonly string[]): string {
  const setup = `${SETUP_NOT_REACHED}: `;
  if (why.length > 0 && why.every((w) => w.startsWith(setup))) return `${setup}${why.map((w) => w.slice(setup.length)).join("; ")}`;
  return `nothing was judged: ${why.join("; ") || "no cancelled job served this rule"}`;
}

/** One job set up for a cancel: which state it was set up in, and (running) when its handler started at the latest and how long it sleeps. */
interface SetUp {
  readonly id: string;
  readonly kind: Kind;
  readonly seenAt?: number;
  readonly handlerMs: number;
}

/** The rule a job of `kind` judges by its own cancel, and what it expects to read after it. */
function ownRule(kind: Kind): string {
  return kind === "IN_QUEUE" ? CANCEL_QUEUED : CANCEL_RUNNING;
}

function watchExpectation(rule: string, job: SetUp): string {
  if (rule === CANCEL_QUEUED) return `a cancelled queued job removed before it starts: CANCELLED or gone, never IN_QUEUE, IN_PROGRESS or COMPLETED, even once workers are free`;
  if (rule === CANCEL_RUNNING) return `a cancelled job in progress stopped: CANCELLED or gone, never IN_PROGRESS or COMPLETED, even after the ${job.handlerMs} ms it would have run`;
  return `a job cancelled while ${job.kind} never completing afterwards: CANCELLED or gone`;
}

/** jobs.cancel.response on one cancel's answer, judged against the state read right before it. */
async function judgeResponse(session: JobSession, v: Verdicts, id: string, state: string | undefined, res: ClientResponse): Promise<void> {
  if (state !== "IN_QUEUE" && state !== "IN_PROGRESS") {
    v.unjudged(CANCEL_RESPONSE, `job ${id} was ${state ?? "unreadable"} right before the cancel`);
    return;
  }
  const errors = is2xx(res) ? schemaErrors("CancelResponse", res.json) : [];
  const body = asJob(res.json);
  if (is2xx(res) && !errors.length && body?.["id"] === id && body.status === "CANCELLED") {
    v.judge(CANCEL_RESPONSE);
    return;
  }
  // A refusal from a job that finished between the read and the cancel is no verdict: the state
  // at send time is then unknown.
  const after = is2xx(res) ? undefined : await stateAtSend(session, id);
  if (after !== undefined && after !== state && after !== "CANCELLED") {
    v.unjudged(CANCEL_RESPONSE, `job ${id} moved from ${state} to ${after} while the cancel was sent`);
    return;
  }
  v.fail(
    CANCEL_RESPONSE,
    session.evidence(
      `a 2xx {"id": "${id}", "status": "CANCELLED"} for cancel of a job ${state} (read right before the cancel)${errors.length ? ` (${errors.join("; ")})` : ""}; got ${res.status} ${show(res.json)}`,
      res.exchange,
    ),
  );
}

/** The jobs the selected rules need: one seen IN_PROGRESS first (set up after the queued one, it would wait behind the sleeps that hold the workers), then one kept IN_QUEUE. */
async function setUp(session: JobSession, v: Verdicts): Promise<SetUp[]> {
  const jobs: SetUp[] = [];
  if (v.wants(CANCEL_RUNNING, CANCEL_NEVER_COMPLETES, CANCEL_RESPONSE)) {
    // In real time it outlasts the longest wait for rate-limit quota seen, so a read lands while it runs.
    const handlerMs = session.virtual ? 60_000 : 15_000 + pacingGapMs(session.ctx.client);
    const running = await submitRunningAt(session, handlerMs);
    if (running) jobs.push({ id: running.id, kind: "IN_PROGRESS", seenAt: running.seenAt, handlerMs });
    else v.unjudged(CANCEL_RUNNING, `${SETUP_NOT_REACHED}: could not observe a job IN_PROGRESS within ${session.bound(START_BUDGET_MS)} (the wait's bound)`);
  }
  if (v.wants(CANCEL_QUEUED, CANCEL_NEVER_COMPLETES, CANCEL_RESPONSE)) {
    const id = await submitQueued(session);
    // Queued first: cancelling the running job first would free a worker to take it.
    if (id !== undefined) jobs.unshift({ id, kind: "IN_QUEUE", handlerMs: holdMs(session) });
    else v.unjudged(CANCEL_QUEUED, `${SETUP_NOT_REACHED}: could not get a job to stay IN_QUEUE (every submission was taken by a worker at once)`);
  }
  if (jobs.length === 0) {
    for (const id of [CANCEL_RESPONSE, CANCEL_NEVER_COMPLETES]) v.unjudged(id, `${SETUP_NOT_REACHED}: could not get a job IN_QUEUE or IN_PROGRESS to cancel`);
  }
  return jobs;
}

/**
 * When a cancel of `job` that did not take would have shown: a running job's handler ends by
 * the time it was seen running plus its sleep; a job kept in the queue shows once a worker
 * takes it (past a pick-up; on virtual time, its whole sleep too).
 */
function watchUntil(session: JobSession, job: SetUp, cancelledAt: number): Promise<number> {
  if (job.kind === "IN_PROGRESS") return showsBy(session, job.seenAt!, job.handlerMs);
  return showsBy(session, cancelledAt, session.virtual ? job.handlerMs : 0);
}

async function observe(session: JobSession, v: Verdicts): Promise<void> {
  // The target's clock sizes the watches (measured once a run, with jobs of its own): read before
  // the set-up, so that no cancel waits for it while its job runs on.
  if (!session.virtual && v.wants(CANCEL_QUEUED, CANCEL_RUNNING, CANCEL_NEVER_COMPLETES)) await targetClock(session.ctx);
  const jobs = await setUp(session, v);
  const watched: (Watched & { readonly job: SetUp; readonly serves: readonly string[] })[] = [];
  for (const job of jobs) {
    // Judged against the state read right before the cancel, not the one seen when the job was set up.
    const state = v.wants(CANCEL_RESPONSE) ? await stateAtSend(session, job.id) : undefined;
    const cancelledAt = session.now();
    const res = await session.cancel(job.id);
    if (v.wants(CANCEL_RESPONSE)) await judgeResponse(session, v, job.id, state, res);
    const accepted = is2xx(res) && asJob(res.json)?.status === "CANCELLED";
    const own = ownRule(job.kind);
    const serves: string[] = [];
    if (v.wants(own)) {
      // A refusal from a job that ended before the cancel reached it (a send held back by the rate
      // limit's pacing, or a slow machine) is no verdict: read where the job is now.
      const after = accepted || is2xx(res) ? undefined : await stateAtSend(session, job.id);
      if (accepted) serves.push(own);
      else if (after !== undefined && after !== "CANCELLED" && isFinal(after)) {
        v.unjudged(own, `${SETUP_NOT_REACHED}: job ${job.id}, set up ${job.kind}, was ${after} once the cancel had been refused (${res.status}): it ended before the cancel reached it`);
      } else {
        v.fail(
          own,
          session.evidence(
            `a 2xx {id, status: "CANCELLED"} for cancel of a job ${job.kind} (IN_QUEUE or IN_PROGRESS → CANCELLED on POST cancel); got ${res.status} ${show(res.json)}`,
            res.exchange,
          ),
        );
      }
    }
    if (accepted && v.wants(CANCEL_NEVER_COMPLETES)) serves.push(CANCEL_NEVER_COMPLETES);
    else if (v.wants(CANCEL_NEVER_COMPLETES)) v.unjudged(CANCEL_NEVER_COMPLETES, `the cancel of job ${job.id} (${job.kind}) was not accepted: ${res.status}`);
    if (serves.length) watched.push({ id: job.id, untilMs: await watchUntil(session, job, cancelledAt), job, serves });
  }
  if (watched.length === 0) return;
  const alive = await watchCancelled(session, watched);
  for (const w of watched) {
    const read = alive.get(w.id);
    for (const rule of w.serves) {
      if (!read) v.judge(rule);
      else v.fail(rule, session.evidence(`${watchExpectation(rule, w.job)}; got ${read.res.status} ${show(read.res.json)}`, read.exchange));
    }
  }
}

/** The cancel rules' shared run: one session (the first member's context sends), a verdict for each member. */
export const cancelGroup: CheckGroup = {
  id: "jobs.cancel",
  async run(members) {
    const lead = [...members.values()][0]!;
    const v = new Verdicts(members);
    await withSession(lead, (session) => observe(session, v));
    return v.outcomes();
  },
};
