/**
 * One check's view of the target facts: reading a fact notes that this rule asked for it, so the
 * report can list, per fact, the rules it unlocked (the judged rules that used it).
 */
import { FACT_KEYS, type FactKey, type TargetFacts } from "./target-facts.ts";

/** Rule ids by the fact they read. */
export type FactUse = Map<FactKey, Set<string>>;

export function factsView(facts: TargetFacts, ruleId: string, use: FactUse | undefined): TargetFacts {
  if (!use) return facts;
  const view = {} as Record<FactKey, unknown>;
  for (const key of FACT_KEYS) {
    Object.defineProperty(view, key, {
      enumerable: true,
      get: () => {
        let rules = use.get(key);
        if (!rules) use.set(key, (rules = new Set()));
        rules.add(ruleId);
        return facts[key];
      },
    });
  }
  return view as unknown as TargetFacts;
}
