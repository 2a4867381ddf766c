/**
 * Seals a rule catalog: every id unique and well formed, every status consistent with the
 * statuses the rule allows. A mistake here is a programming error, so it throws at load time.
 */
import type { Rule } from "./rule.ts";

const ID_FORM = /^[a-z0-9]+(\.[a-z0-9]+(-[a-z0-9]+)*)+$/;

export class RuleCatalogError extends Error {
  override readonly name = "RuleCatalogError";
  readonly code = "CPSIM_ERR_RULE_CATALOG";
  constructor(message: string, readonly ruleId: string) {
    super(message);
  }
}

export function defineRules<const T extends readonly Rule[]>(list: T): T {
  const seen = new Set<string>();
  for (const rule of list) {
    if (seen.has(rule.id)) throw new RuleCatalogError(`Rule id "${rule.id}" is defined twice; give each rule its own id.`, rule.id);
    seen.add(rule.id);
    if (!ID_FORM.test(rule.id)) {
      throw new RuleCatalogError(`Rule id "${rule.id}" is not of the form area.name (lower-case words, dots, hyphens).`, rule.id);
    }
    if (rule.spec.trim() === "") throw new RuleCatalogError(`Rule "${rule.id}" quotes no spec sentence.`, rule.id);
    const allowed: Array<[string, readonly number[] | undefined]> = [
      ["specStatuses", rule.specStatuses],
      ["strictStatuses", rule.strictStatuses],
    ];
    for (const [field, statuses] of allowed) {
      if (statuses !== undefined && rule.status !== undefined && !statuses.includes(rule.status)) {
        throw new RuleCatalogError(`Rule "${rule.id}" answers ${rule.status}, which its ${field} (${statuses.join(", ")}) does not allow.`, rule.id);
      }
    }
  }
  return list;
}
