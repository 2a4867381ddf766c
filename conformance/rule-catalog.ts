/**
 * The rules the suite may check: the catalog of sim/api/rules by default. A registry validates
 * check ids against a catalog, and tests of the framework itself pass a small one of their own.
 */
import { rules as specRules, type Rule } from "../sim/api/rules/index.ts";

export type { Rule };

export interface RuleCatalog {
  readonly rules: readonly Rule[];
  get(id: string): Rule | undefined;
}

export function catalogOf(rules: readonly Rule[]): RuleCatalog {
  const byId = new Map(rules.map((r) => [r.id, r]));
  return { rules, get: (id) => byId.get(id) };
}

/** Every rule of the specification and of choices.md. */
export const specCatalog: RuleCatalog = catalogOf(specRules);
