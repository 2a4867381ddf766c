/**
 * Checks registered by rule id, in registration order. An id registered twice, or one the rule
 * catalog does not know, is a programming error and throws at registration: a typo in an id
 * would otherwise make a rule silently unchecked.
 */
import type { CheckDefinition, CheckFn, CheckGroup, CheckNeeds } from "./check.ts";
import { CheckRegistryError } from "./errors.ts";
import { specCatalog, type RuleCatalog } from "./rule-catalog.ts";

export interface RegisterOptions {
  readonly needs?: CheckNeeds;
  /** Default: rules whose id starts with `ratelimit.`. */
  readonly raw429?: boolean;
  /** The group whose shared run judges this rule (one model, many checkers). */
  readonly group?: CheckGroup;
}

export class CheckRegistry {
  private readonly checks = new Map<string, CheckDefinition>();

  constructor(readonly catalog: RuleCatalog = specCatalog) {}

  register(ruleId: string, run: CheckFn, options: RegisterOptions = {}): this {
    if (this.checks.has(ruleId)) {
      throw new CheckRegistryError("CPSIM_ERR_DUPLICATE_CHECK", `a check for rule "${ruleId}" is already registered`, ruleId);
    }
    if (!this.catalog.get(ruleId)) {
      throw new CheckRegistryError("CPSIM_ERR_UNKNOWN_RULE", `"${ruleId}" is not a rule of the catalog (sim/api/rules)`, ruleId);
    }
    this.checks.set(ruleId, {
      ruleId,
      run,
      needs: options.needs ?? {},
      raw429: options.raw429 ?? ruleId.startsWith("ratelimit."),
      ...(options.group ? { group: options.group } : {}),
    });
    return this;
  }

  /**
   * Registers rules judged together by one shared run. Each also works alone (`run` of one
   * member runs the group with that member only), so a registry user that knows nothing of
   * groups still gets every verdict.
   */
  registerGroup(group: CheckGroup, ruleIds: readonly string[], options: Omit<RegisterOptions, "group"> = {}): this {
    for (const ruleId of ruleIds) {
      const alone: CheckFn = async (ctx) => (await group.run(new Map([[ruleId, ctx]]))).get(ruleId);
      this.register(ruleId, alone, { ...options, group });
    }
    return this;
  }

  get(ruleId: string): CheckDefinition | undefined {
    return this.checks.get(ruleId);
  }

  list(): CheckDefinition[] {
    return [...this.checks.values()];
  }

  get size(): number {
    return this.checks.size;
  }
}

/** The suite's checks. Check modules register here when imported. */
export const checks = new CheckRegistry();

export function registerCheck(ruleId: string, run: CheckFn, options?: RegisterOptions): void {
  checks.register(ruleId, run, options);
}
