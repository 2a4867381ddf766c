// The rule catalog: every rule of the spec (and of choices.md), as data.
export type { Rule, RuleKind, RuleSeverity, RuleSource } from "./rule.ts";
export { defineRules, RuleCatalogError } from "./define-rules.ts";
export { isStrictOnly } from "./rule.ts";
export { acceptedStatuses, statusAccepted } from "./accepted-statuses.ts";
export type { AcceptedStatuses, Profile } from "./accepted-statuses.ts";
export { rules, ruleById, isRuleId } from "./rules.ts";
export { lenientReading } from "./lenient-reading.ts";
export type { CatalogRule, RuleId } from "./rules.ts";
