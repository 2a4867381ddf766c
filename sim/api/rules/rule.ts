/**
 * A rule of the specification, as data: what it says (quoted), where it says it, and what a
 * violation must produce. The emulator rejects with `status`; the conformance suite accepts
 * `specStatuses` (or `lenientStatuses`, or any 4xx when both are absent) under the default
 * lenient profile and `strictStatuses` under `--profile strict`.
 */

/** request: judges a request; response: the shape or content of an answer; invariant: holds of
 * every observed state; transition: how state may change (including state-dependent refusals). */
export type RuleKind = "request" | "response" | "invariant" | "transition";

export type RuleSeverity = "error" | "warning";

/** spec: compute-platform-api.md, normative. choices: choices.md, the emulator's documented
 * answer where the spec is silent, checked only under the strict profile. */
export type RuleSource = "spec" | "choices";

export interface Rule {
  /** Stable, dotted: `<area>.<operation?>.<name>`, e.g. `pods.create.unknown-property`. */
  readonly id: string;
  /** One line saying what the rule requires. */
  readonly title: string;
  /** The sentence the rule comes from, verbatim (with the reading notes' "request" restored). */
  readonly spec: string;
  /** The heading the sentence sits under, and its rule number: `Job endpoints › rule 6`. */
  readonly section: string;
  readonly source: RuleSource;
  readonly severity: RuleSeverity;
  readonly kind: RuleKind;
  /** The status the emulator answers a violation with. */
  readonly status?: number;
  /** Statuses the spec itself mandates for a violation; absent when the spec is silent. */
  readonly specStatuses?: readonly number[];
  /** Statuses choices.md lets the lenient profile accept, when narrower than any 4xx. */
  readonly lenientStatuses?: readonly number[];
  /** The emulator's choice where the spec is silent, required only under `--profile strict`. */
  readonly strictStatuses?: readonly number[];
  /**
   * The rule's lenient reading, where it takes a form of its own (a clamped value, a feature left
   * off, an idempotent repeat accepted); lenient-reading.ts derives the others from the principle.
   */
  readonly lenient?: string;
  /**
   * Set on a spec rule that asserts more than its sentence states (a restriction, a type, a
   * status): what the sentence leaves unstated. Such a rule is the emulator's reading, judged
   * only under `--profile strict`, like a rule of choices.md.
   */
  readonly strictOnly?: string;
}

/** Whether the rule is judged only under `--profile strict`: choices.md's, or a spec rule asserting more than its sentence. */
export function isStrictOnly(rule: Pick<Rule, "source" | "strictOnly">): boolean {
  return rule.source === "choices" || rule.strictOnly !== undefined;
}
