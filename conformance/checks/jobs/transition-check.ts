/**
 * jobs.transition-legal: a stateful property. fast-check draws a sequence of job operations
 * (submit a job that echoes, sleeps or fails; let time pass; read a job; cancel it; retry it),
 * runs it against the target, and every answer is held to the oracle's set of outcomes computed
 * from the job's shadow in the platform model, which follows the target (support/job-trace.ts;
 * the trace is fast-check's model). After the sequence every job is followed to its end, so a
 * cancelled job that completes anyway, or a retried one that never comes back, shows up too. A
 * failing sequence shrinks to the fewest operations that still break the table.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { FINISH_BUDGET_MS } from "./support/budgets.ts";
import type { JobSession } from "./support/job-session.ts";
import type { JobTrace } from "./support/job-trace.ts";
import { fail, failMessageArb, sleep, type Input } from "./support/inputs.ts";
import { property, runsFor, Violation } from "./support/property.ts";
import { withSession } from "./support/with-session.ts";

/** fast-check's model: the session's trace, whose jobs are the platform model's shadows of the target's. */
type Model = JobTrace;

interface Real {
  readonly session: JobSession;
  readonly ids: string[];
}

function assertLegal(real: Real): void {
  const [move] = real.session.trace.illegal;
  if (!move) return;
  throw new Violation(
    real.session.evidence(
      `job ${move.jobId} moving only along the spec's table of job states (IN_QUEUE → IN_PROGRESS → COMPLETED; FAILED or TIMED_OUT when the job fails; CANCELLED by cancel from IN_QUEUE or IN_PROGRESS; IN_QUEUE again by retry from FAILED or TIMED_OUT): ${move.why}`,
      move.exchange,
    ),
  );
}

abstract class JobCommand implements fc.AsyncCommand<Model, Real> {
  check(model: Readonly<Model>): boolean {
    return model.size > 0;
  }
  abstract run(model: Model, real: Real): Promise<void>;
  abstract toString(): string;
}

class Submit extends JobCommand {
  constructor(readonly input: Input) {
    super();
  }
  override check(): boolean {
    return true;
  }
  async run(_model: Model, real: Real): Promise<void> {
    const { id } = await real.session.run(this.input);
    if (id !== undefined) real.ids.push(id);
    assertLegal(real);
  }
  toString(): string {
    return `run(${JSON.stringify(this.input)})`;
  }
}

class Wait extends JobCommand {
  constructor(readonly ms: number) {
    super();
  }
  override check(): boolean {
    return true;
  }
  async run(_model: Model, real: Real): Promise<void> {
    // Real time is spent sparingly: the sequence's shape matters more than its length.
    await real.session.advance(real.session.virtual ? this.ms : Math.min(this.ms, 1_500));
  }
  toString(): string {
    return `wait(${this.ms})`;
  }
}

type Action = "status" | "cancel" | "retry";

class Act extends JobCommand {
  constructor(
    readonly action: Action,
    readonly job: number,
  ) {
    super();
  }
  async run(_model: Model, real: Real): Promise<void> {
    const id = real.ids[this.job % real.ids.length] as string;
    await real.session[this.action](id);
    assertLegal(real);
  }
  toString(): string {
    return `${this.action}(job ${this.job})`;
  }
}

function commandsArb(): fc.Arbitrary<Iterable<fc.AsyncCommand<Model, Real>>> {
  const input = fc.oneof(
    fc.constant<Input>({}),
    fc.integer({ min: 0, max: 8_000 }).map((ms) => sleep(ms)),
    failMessageArb().map(fail),
  );
  return fc.commands<Model, Real, false>(
    [
      input.map((i) => new Submit(i)),
      fc.integer({ min: 200, max: 6_000 }).map((ms) => new Wait(ms)),
      fc.tuple(fc.constantFrom<Action>("status", "status", "cancel", "retry"), fc.nat(9)).map(([a, k]) => new Act(a, k)),
    ],
    { maxCommands: 10 },
  );
}

export async function checkTransitionLegal(ctx: CheckContext): Promise<CheckOutcome | void> {
  return property(
    ctx,
    commandsArb(),
    (cmds) =>
      withSession(ctx, async (session) => {
        const real: Real = { session, ids: [] };
        await fc.asyncModelRun(() => ({ model: session.trace, real }), cmds);
        for (const id of real.ids) {
          await session.untilFinal(id, { budgetMs: FINISH_BUDGET_MS, stepMs: 3_000 });
          assertLegal(real);
        }
      }),
    { numRuns: runsFor(ctx, 4) },
  );
}
