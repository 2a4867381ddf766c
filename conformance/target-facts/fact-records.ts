/** The facts as the report's "how this target was read" records, each with the judged rules that used it. */
import type { RuleResult, TargetFactRecord } from "../../reports/conformance-report.ts";
import type { FactUse } from "./facts-view.ts";
import { FACT_KEYS, FACT_MEANING, type TargetFacts } from "./target-facts.ts";

export function targetFactRecords(facts: TargetFacts, use: FactUse, rules: readonly RuleResult[]): TargetFactRecord[] {
  const judged = new Set(rules.filter((r) => r.status !== "skip").map((r) => r.id));
  return FACT_KEYS.map((key) => ({
    key,
    meaning: FACT_MEANING[key],
    value: facts[key].value,
    source: facts[key].source,
    evidence: facts[key].evidence,
    unlocked: [...(use.get(key) ?? [])].filter((id) => judged.has(id)).sort(),
  }));
}
