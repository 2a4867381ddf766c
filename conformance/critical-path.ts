/**
 * Where a run's time went (issue 32): the chain of rules that ended last. Each unit of the
 * timeline (run-lanes.ts) names the unit whose end let it start (the one before it on its lane's
 * runner, or the unit that ended the phase before); following those links back from the unit
 * that ended last gives the rules on the run's critical path, and the lane it ended in is the
 * area that decided the run's length. A rule off that path could take longer without making the
 * run any longer, so it is what to shorten first.
 */
import type { CriticalPath } from "../reports/conformance-report.ts";
import type { UnitTiming } from "./run-lanes.ts";

export function criticalPath(timeline: readonly UnitTiming[]): CriticalPath | undefined {
  // The timeline is in the order units ended.
  const last = timeline.length - 1;
  if (last < 0) return undefined;
  const path: UnitTiming[] = [];
  const seen = new Set<number>();
  for (let i: number | undefined = last as number | undefined; i !== undefined && !seen.has(i); i = timeline[i]!.after) {
    seen.add(i);
    path.unshift(timeline[i]!);
  }
  const end = timeline[last]!;
  return {
    lane: end.lane,
    area: areaOf(end),
    endedAtMs: end.endMs,
    rules: path.flatMap((u) => u.ids.map((id) => ({ id, lane: u.lane, startMs: u.startMs, durationMs: u.endMs - u.startMs }))),
  };
}

/** A lane's area: the first part of its first rule's id (`jobs`, `pods`, `graphql`, ...). */
function areaOf(u: UnitTiming): string {
  return u.ids[0]?.split(".")[0] ?? u.lane;
}

/** The path in one line for the terminal, e.g. `critical path: jobs (ended at 88.2 s): jobs.cancel.never-completes 31.0 s → ...`. */
export function describeCriticalPath(path: CriticalPath): string {
  const steps = path.rules.map((r) => `${r.id} ${(r.durationMs / 1000).toFixed(1)} s`);
  return `critical path: ${path.area} ended last (lane ${path.lane}, at ${(path.endedAtMs / 1000).toFixed(1)} s): ${steps.join(" → ")}`;
}
