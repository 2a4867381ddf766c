/** The whole rule catalog, sealed by defineRules (a duplicate id throws at load time). */
import { authRules } from "./auth-rules.ts";
import { catalogRules } from "./catalog-rules.ts";
import { clientRules } from "./client-rules.ts";
import { defineRules } from "./define-rules.ts";
import { errorRules } from "./error-rules.ts";
import { graphqlRules } from "./graphql-rules.ts";
import { lenientReading } from "./lenient-reading.ts";
import { jobRules } from "./job-rules.ts";
import { localServerRules } from "./local-server-rules.ts";
import { podCreateRules } from "./pod-create-rules.ts";
import { podRules } from "./pod-rules.ts";
import { podUpdateRules } from "./pod-update-rules.ts";
import { ratelimitRules } from "./ratelimit-rules.ts";
import type { Rule } from "./rule.ts";
import { versioningRules } from "./versioning-rules.ts";

const catalog = defineRules([
  ...podCreateRules,
  ...podUpdateRules,
  ...podRules,
  ...errorRules,
  ...authRules,
  ...jobRules,
  ...graphqlRules,
  ...ratelimitRules,
  ...catalogRules,
  ...localServerRules,
  ...versioningRules,
  ...clientRules,
]);

/** The id of a rule of the catalog. */
export type RuleId = (typeof catalog)[number]["id"];

/** A rule of the catalog: its id is one of the catalog's, and it carries its lenient reading. */
export interface CatalogRule extends Rule {
  readonly id: RuleId;
  readonly lenient: string;
}

/** Every rule, in catalog order (pods, errors, auth, jobs, GraphQL, rate limits, ...). */
export const rules: readonly CatalogRule[] = catalog.map((r) => ({ ...r, lenient: lenientReading(r) }));

const byId: ReadonlyMap<string, CatalogRule> = new Map(rules.map((r) => [r.id, r]));

/** The rule with this id; for a literal id of the catalog the result is never undefined. */
export function ruleById(id: RuleId): CatalogRule;
export function ruleById(id: string): CatalogRule | undefined;
export function ruleById(id: string): CatalogRule | undefined {
  return byId.get(id);
}

/** Whether `id` is the id of a rule of the catalog. */
export function isRuleId(id: string): id is RuleId {
  return byId.has(id);
}
