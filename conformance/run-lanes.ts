/**
 * Runs a plan of lanes (schedule.ts): the lanes before, then the concurrent ones at once, then
 * the lanes after, each lane's units one after the other, each unit a single check or a group's
 * shared run. The run's deadline (--max-duration) is kept twice over: a unit not started by then
 * is skipped as "not reached", and a check still running a little after it is cut, its rules
 * skipped as "interrupted" (what it did after the cut is not recorded).
 */
import type { RuleResult, TargetErrorRecord } from "../reports/conformance-report.ts";
import { applyBaseline, type Baseline } from "./baseline.ts";
import type { CheckRegistry } from "./check-registry.ts";
import { noteActivity, type Heartbeat } from "./heartbeat.ts";
import type { Progress } from "./progress.ts";
import { runCheck, runGroup, skippedResult, type RunCheckInput } from "./run-check.ts";
import type { Lane, Plan, Unit } from "./schedule.ts";

export interface LanesInput extends Omit<RunCheckInput, "check" | "rule" | "log"> {
  readonly registry: CheckRegistry;
  readonly baseline?: Baseline;
  readonly progress: Progress;
  /** Says, while a rule runs long, which and what it waits on. */
  readonly heartbeat?: Heartbeat;
  /** A check's progress message, with the first rule id of its unit. */
  readonly log: (ruleId: string, message: string) => void;
}

export interface LanesResult {
  readonly byId: ReadonlyMap<string, RuleResult>;
  readonly targetErrors: readonly TargetErrorRecord[];
  /** Whether the deadline cut a check that was still running. */
  readonly cut: boolean;
}

/** How long after the deadline a running check is cut: a tenth of the bound, 1 to 10 s. */
function graceMs(maxDurationS: number | undefined): number {
  return Math.min(10_000, Math.max(1_000, (maxDurationS ?? 0) * 100));
}

export async function runLanes(plan: Plan, input: LanesInput): Promise<LanesResult> {
  const { registry, progress, options } = input;
  const deadline = input.deadline ?? Number.POSITIVE_INFINITY;
  const byId = new Map<string, RuleResult>();
  const targetErrors: TargetErrorRecord[] = [];
  const started = new Set<string>();
  const bound = `the run's bound (--max-duration ${options.maxDurationS} s)`;
  let cut = false;
  /** With --fail-fast: the first rule that failed anew; no unit starts after it. */
  let stoppedBy: string | undefined;

  const record = (result: RuleResult) => {
    // The baseline applies as each rule finishes, so the live progress already says KNOWN.
    const [judged] = applyBaseline([result], input.baseline);
    byId.set(judged!.id, judged!);
    progress.rule(judged!);
    if (options.failFast && judged!.status === "fail" && judged!.severity !== "warning") stoppedBy ??= judged!.id;
  };
  const runUnit = async (unit: Unit): Promise<void> => {
    const members = unit.ids.map((id) => ({ check: registry.get(id)!, rule: registry.catalog.get(id)! }));
    if (stoppedBy !== undefined) {
      for (const m of members) record(skippedResult(m.rule, `not run: --fail-fast stopped the run after ${stoppedBy} failed`));
      return;
    }
    if (Date.now() >= deadline) {
      for (const m of members) record(skippedResult(m.rule, `not reached: ${bound} ran out before this rule started`));
      return;
    }
    for (const id of unit.ids) started.add(id);
    const log = (m: string) => {
      noteActivity(m);
      input.log(unit.ids[0]!, m);
    };
    const judge = () =>
      members.length === 1 && !members[0]!.check.group
        ? runCheck({ ...input, ...members[0]!, log }).then((r) => ({ results: [r.result], targetErrors: r.targetErrors }))
        : runGroup(members, { ...input, log });
    const done = input.heartbeat ? await input.heartbeat.track(unit.ids, judge) : await judge();
    if (cut) return;
    targetErrors.push(...done.targetErrors);
    done.results.forEach(record);
  };
  const runLane = async (lane: Lane): Promise<void> => {
    for (const unit of lane.units) {
      if (cut) return;
      await runUnit(unit);
    }
  };
  const all = (async () => {
    for (const lane of plan.before) await runLane(lane);
    await Promise.all(plan.concurrent.map(runLane));
    for (const lane of plan.after) await runLane(lane);
  })();

  let timer: NodeJS.Timeout | undefined;
  const overrun = Number.isFinite(deadline)
    ? new Promise<"cut">((resolve) => {
        timer = setTimeout(() => resolve("cut"), Math.max(0, deadline - Date.now()) + graceMs(options.maxDurationS));
      })
    : new Promise<"cut">(() => {});
  if ((await Promise.race([all.then(() => "done" as const), overrun])) === "cut") {
    cut = true;
    all.catch(() => {});
    const ids = [...plan.before, ...plan.concurrent, ...plan.after].flatMap((l) => l.units.flatMap((u) => u.ids));
    for (const id of ids) {
      if (byId.has(id)) continue;
      const reason = started.has(id) ? `interrupted: ${bound} ran out while this rule ran` : `not reached: ${bound} ran out before this rule started`;
      record(skippedResult(registry.catalog.get(id)!, reason));
    }
  }
  clearTimeout(timer);
  input.heartbeat?.stop();
  return { byId, targetErrors, cut };
}
