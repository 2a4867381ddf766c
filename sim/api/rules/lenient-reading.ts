/**
 * Every rule's lenient reading, from one principle: where the spec states a constraint but not
 * the answer to a request that breaks it, the lenient profile accepts a refusal (4xx) or an
 * answer that visibly keeps the constraint (a clamped value, a feature left off, an idempotent
 * repeat), and fails only an answer that breaks it. Where the spec states the answer (a status,
 * a shape, a state), lenient judges exactly that; choices.md's answers are judged only under
 * --profile strict. A rule whose reading takes a form of its own says so in its `lenient` field;
 * for the rest the reading follows from the rule's data, here.
 */
import type { Rule } from "./rule.ts";

const list = (s: readonly number[]) => (s.length === 1 ? `${s[0]}` : `${s.slice(0, -1).join(", ")} or ${s[s.length - 1]}`);

export function lenientReading(rule: Rule): string {
  if (rule.strictOnly !== undefined) {
    return `The sentence does not state ${rule.strictOnly}: the emulator's reading, not judged under the lenient profile; strict requires it.`;
  }
  if (rule.lenient) return rule.lenient;
  const strict = rule.strictStatuses ? ` Strict requires ${list(rule.strictStatuses)} (docs/choices.md).` : "";
  if (rule.source === "choices") {
    return "docs/choices.md's answer where the spec is silent, one honest reading among several: not judged under the lenient profile; strict requires it.";
  }
  switch (rule.kind) {
    case "request":
      if (rule.specStatuses) return `The spec states the answer: ${list(rule.specStatuses)}, under both profiles.`;
      if (rule.lenientStatuses) return `The spec states the constraint, not the status: ${list(rule.lenientStatuses)} accepted.${strict}`;
      if (rule.status === undefined) return "The spec states what the request must do; judged as stated, any value the spec leaves open (ids, times, order, extra fields) accepted.";
      return `The spec states the constraint, not the status: any refusal (4xx) accepted; an answer that breaks the constraint (accepting what it rules out) fails.${strict}`;
    case "response":
      return "The spec states the answer's shape or content: judged as stated; values it leaves open (id formats, time formats, extra fields, content-type parameters) accepted.";
    case "invariant":
      return "The spec states what holds of every observed state: checked after every step; how fast the state moves is left open.";
    case "transition":
      return rule.status !== undefined
        ? `The spec states which moves are allowed: a move it rules out must be refused (any 4xx) or visibly not happen (the state unchanged); a state that moves anyway fails.${strict}`
        : "The spec states which moves are allowed: observed states must follow them; a repeated request that moves nothing is not a transition; timing is left open.";
  }
}
