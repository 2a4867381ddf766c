/**
 * The oracle of the stateful runs: for each command the suite sends, the SET of outcomes the
 * spec allows (status class or code, and the states the entity may be read in next), never one
 * exact timing or id. The target's answer must fall in the set; the model then follows the
 * state the target chose where the set holds several. Under --profile strict the sets narrow to
 * the emulator's choices (choices.md). `platformOracle` computes it with the platform model of
 * sim/domain itself: model pods and jobs brought to a state and sent the command
 * (pod-oracle.ts, job-oracle.ts, health-oracle.ts), and a shadow platform per stateful run that
 * steps alongside the target (shadow-platform.ts).
 */
import type { Profile } from "../options.ts";
import type { HealthOracle } from "./health-oracle.ts";
import type { ShadowPlatform } from "./shadow-platform.ts";

/** An HTTP status: an exact code, or a class ("2xx" any success, "4xx" any refusal). */
export type StatusPattern = number | "2xx" | "4xx";

/** One allowed outcome of a command: an answer's status, and the states that may follow it. */
export interface Outcome {
  readonly status: StatusPattern;
  /** States the entity may be read in after this answer (before anything else is sent). */
  readonly next: readonly string[];
}

export type PodOperation = "start" | "stop" | "restart" | "terminate" | "delete" | "patch";
export type JobCommand = "cancel" | "retry";

export interface PodOracle {
  /** The states a pod last read in `from` may be read in next with nothing sent to it. */
  drift(from: string): readonly string[];
  /** What `operation` sent to a pod last read in `from` may answer, and where the pod may go. */
  operation(from: string, operation: PodOperation): readonly Outcome[];
}

export interface JobOracle {
  /** The states a job that may be in any of `possible` may be read in next, with nothing sent. */
  drift(possible: Iterable<string>): readonly string[];
  /** What `command` sent to a job that may be in any of `possible` may answer, and where it may go. */
  command(possible: Iterable<string>, command: JobCommand): readonly Outcome[];
}

export interface Oracle {
  readonly profile: Profile;
  readonly pods: PodOracle;
  readonly jobs: JobOracle;
  /** The least each health counter may read, given the run's own jobs. */
  readonly health: HealthOracle;
  /** A fresh shadow platform for one stateful run, seeded from the run's seed. */
  shadow(seed: number): ShadowPlatform;
}

export function statusMatches(pattern: StatusPattern, status: number): boolean {
  if (pattern === "2xx") return status >= 200 && status < 300;
  if (pattern === "4xx") return status >= 400 && status < 500;
  return pattern === status;
}

/** The outcomes an answer's status falls in (empty: the answer is outside the set). */
export function outcomesFor(outcomes: readonly Outcome[], status: number): readonly Outcome[] {
  return outcomes.filter((o) => statusMatches(o.status, status));
}

/** The states that may follow an answer with this status (empty: none, the answer is not allowed). */
export function nextAfter(outcomes: readonly Outcome[], status: number): ReadonlySet<string> {
  return new Set(outcomesFor(outcomes, status).flatMap((o) => o.next));
}

/** The states once each, in the order of `order` (the model's list of its states). */
export function inOrder(states: Iterable<string>, order: readonly string[]): string[] {
  return [...new Set(states)].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** Outcomes with the same status merged, their next states joined (in `order`). */
export function mergeOutcomes(outcomes: readonly Outcome[], order: readonly string[]): Outcome[] {
  const by = new Map<StatusPattern, Set<string>>();
  for (const o of outcomes) {
    const set = by.get(o.status) ?? new Set<string>();
    for (const s of o.next) set.add(s);
    by.set(o.status, set);
  }
  return [...by].map(([status, next]) => ({ status, next: inOrder(next, order) }));
}

/** The set in words, for a failure's "expected": "200 → EXITED, 409 → RUNNING". */
export function describeOutcomes(outcomes: readonly Outcome[]): string {
  return outcomes.map((o) => `${o.status} → ${o.next.length ? o.next.join(" or ") : "(nothing)"}`).join("; ");
}
