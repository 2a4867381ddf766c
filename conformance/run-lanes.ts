/**
 * Runs a plan of lanes (schedule.ts): the lanes before, then the concurrent ones at once, then
 * the lanes after, each lane's units one after the other (or `width` of them at once, then its
 * exclusive window's one at a time), each unit a single check or a group's shared run. Each unit's
 * start and end are kept, with the unit whose end let it start, for the run's critical path
 * (critical-path.ts). The run's deadline (--max-duration) is kept twice over: a unit not started by then
 * is skipped as "not reached", and a check still running a little after it is cut, its rules
 * skipped as "interrupted" (what it did after the cut is not recorded).
 */
import type { RuleResult, TargetErrorRecord } from "../reports/conformance-report.ts";
import { applyBaseline, type Baseline } from "./baseline.ts";
import type { CheckRegistry } from "./check-registry.ts";
import { noteActivity, type Heartbeat } from "./heartbeat.ts";
import type { Progress } from "./progress.ts";
import { runCheck, runGroup, skippedResult, type RunCheckInput } from "./run-check.ts";
import { laneUnits, type Lane, type Plan, type Unit } from "./schedule.ts";

/** When a unit ran, in ms from the start of the lanes, and which unit's end let it start. */
export interface UnitTiming {
  readonly lane: string;
  readonly ids: readonly string[];
  readonly startMs: number;
  readonly endMs: number;
  /** Index in the timeline of the unit it waited for (the previous one of its runner, or of the phase before). */
  readonly after?: number;
}

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
  /** Every unit that ran, in the order they ended. */
  readonly timeline: readonly UnitTiming[];
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
  const timeline: UnitTiming[] = [];
  const origin = Date.now();
  /** With --fail-fast: the first rule that failed anew; no unit starts after it. */
  let stoppedBy: string | undefined;

  const record = (result: RuleResult) => {
    // The baseline applies as each rule finishes, so the live progress already says KNOWN.
    const [judged] = applyBaseline([result], input.baseline);
    byId.set(judged!.id, judged!);
    progress.rule(judged!);
    if (options.failFast && judged!.status === "fail" && judged!.severity !== "warning") stoppedBy ??= judged!.id;
  };
  /** Runs a unit and notes when; returns its index in the timeline. */
  const timed = async (lane: Lane, unit: Unit, after: number | undefined): Promise<number | undefined> => {
    const startMs = Date.now() - origin;
    await runUnit(unit);
    if (cut) return after;
    timeline.push({ lane: lane.name, ids: unit.ids, startMs, endMs: Date.now() - origin, ...(after !== undefined ? { after } : {}) });
    return timeline.length - 1;
  };
  // The timeline is in the order units ended: the highest index ended last (ties of a millisecond included).
  const latest = (indexes: readonly (number | undefined)[]): number | undefined =>
    indexes.reduce<number | undefined>((best, i) => (i === undefined ? best : best === undefined || i > best ? i : best), undefined);
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
  /** Runs the lane from `after` (the unit that ended the phase before); returns the index of its last-ended unit. */
  const runLane = async (lane: Lane, after: number | undefined): Promise<number | undefined> => {
    let next = 0;
    const runner = async (): Promise<number | undefined> => {
      let last = after;
      while (!cut && next < lane.units.length) last = await timed(lane, lane.units[next++]!, last);
      return last;
    };
    const width = Math.max(1, Math.min(lane.width ?? 1, lane.units.length));
    let last = latest(await Promise.all(Array.from({ length: width }, runner)));
    for (const unit of lane.exclusive?.units ?? []) {
      if (cut) break;
      last = await timed(lane, unit, last);
    }
    return last;
  };
  const all = (async () => {
    let last: number | undefined;
    for (const lane of plan.before) last = await runLane(lane, last);
    const before = last;
    last = latest(await Promise.all(plan.concurrent.map((lane) => runLane(lane, before)))) ?? before;
    for (const lane of plan.after) last = await runLane(lane, last);
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
    const ids = [...plan.before, ...plan.concurrent, ...plan.after].flatMap((l) => laneUnits(l).flatMap((u) => u.ids));
    for (const id of ids) {
      if (byId.has(id)) continue;
      const reason = started.has(id) ? `interrupted: ${bound} ran out while this rule ran` : `not reached: ${bound} ran out before this rule started`;
      record(skippedResult(registry.catalog.get(id)!, reason));
    }
  }
  clearTimeout(timer);
  input.heartbeat?.stop();
  return { byId, targetErrors, cut, timeline };
}
