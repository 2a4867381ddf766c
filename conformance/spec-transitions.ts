/**
 * The state transitions the specification names (its "States and transitions" tables), for
 * the coverage report: which of them a run exercised. Moves the spec leaves open (pod actions,
 * the causes of FAILED and TIMED_OUT) are not listed: coverage counts the spec's own.
 */

export interface NamedTransition {
  readonly machine: "pod" | "job";
  readonly from: string;
  readonly to: string;
}

export const NONE = "(none)";

export const SPEC_TRANSITIONS: readonly NamedTransition[] = [
  { machine: "pod", from: NONE, to: "PROVISIONING" },
  { machine: "pod", from: "PROVISIONING", to: "STARTING" },
  { machine: "pod", from: "STARTING", to: "RUNNING" },
  { machine: "job", from: NONE, to: "IN_QUEUE" },
  { machine: "job", from: "IN_QUEUE", to: "IN_PROGRESS" },
  { machine: "job", from: "IN_PROGRESS", to: "COMPLETED" },
  { machine: "job", from: "IN_QUEUE", to: "CANCELLED" },
  { machine: "job", from: "IN_PROGRESS", to: "CANCELLED" },
  { machine: "job", from: "FAILED", to: "IN_QUEUE" },
  { machine: "job", from: "TIMED_OUT", to: "IN_QUEUE" },
];

export function transitionKey(machine: string, from: string, to: string): string {
  return `${machine}:${from}->${to}`;
}
