/**
 * Checks registered by rule id, in registration order. An id registered twice, or one the rule
 * catalog does not know, is a programming error and throws at registration: a typo in an id
 * would otherwise make a rule silently unchecked.
 */
import type { CheckDefinition, CheckFn, CheckNeeds } from "./check.ts";
import { CheckRegistryError } from "./errors.ts";
import { specCatalog, type RuleCatalog } from "./rule-catalog.ts";

export interface RegisterOptions {
  readonly needs?: CheckNeeds;
  /** Default: rules whose id starts with `ratelimit.`. */
  readonly raw429?: boolean;
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
    this.checks.set(ruleId, { ruleId, run, needs: options.needs ?? {}, raw429: options.raw429 ?? ruleId.startsWith("ratelimit.") });
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
