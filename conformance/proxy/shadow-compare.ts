/**
 * Shadow mode's comparison: the same request answered by the target and by the shadow, judged
 * rule by rule with the checks one exchange can judge (the ones the proxy judges every exchange
 * with), and a difference reported only where one answer keeps a rule the other breaks. So only
 * what the spec fixes is compared: ids, times, the order of members, extra fields, a state one
 * implementation reached sooner than the other, statuses the spec leaves open (the lenient
 * profile) are no rule's business, and a rule one answer did not give occasion to judge (one
 * answered a job COMPLETED, the other still IN_PROGRESS) is no difference either.
 *
 * Beyond the rules, the outcome of the job requests the spec defines whatever the state (health,
 * run, runsync of a body the spec accepts): one implementation accepting what the other refuses
 * is a difference, unless either answer is a 429 or 503 (rate limits and load are open) or a
 * 401/403 (the two need not know the same keys).
 */
import { isStrictOnly } from "../../sim/api/rules/index.ts";
import type { SeenExchange } from "../passive/answer.ts";
import type { Operation } from "../passive/classify.ts";
import type { Profile } from "../passive/error-body.ts";
import { exchangeChecks } from "../passive/exchange-checks.ts";
import { requestChecks } from "../passive/request-checks.ts";
import { specCatalog } from "../rule-catalog.ts";

/** Each target-side rule the exchange judged: undefined when the answer keeps it, else what it broke. */
export type RuleVerdicts = ReadonlyMap<string, string | undefined>;

/** The rule id of an outcome difference (no rule of the catalog: the spec's operations and a request it accepts). */
export const OUTCOME_RULE = "shadow.outcome";

export function ruleVerdicts(x: SeenExchange, op: Operation, profile: Profile): { verdicts: RuleVerdicts; clientProblem: boolean } {
  const verdicts = new Map<string, string | undefined>();
  let clientProblem = false;
  for (const check of [...requestChecks, ...exchangeChecks]) {
    for (const j of check.judge({ exchange: x, op, profile })) {
      if (j.side === "client") {
        if (j.problem !== undefined) clientProblem = true;
        continue;
      }
      const rule = specCatalog.get(j.ruleId);
      if (!rule || (isStrictOnly(rule) && profile !== "strict")) continue;
      // One failure of a rule in an answer is enough: the first kept.
      if (!verdicts.has(j.ruleId) || (verdicts.get(j.ruleId) === undefined && j.problem !== undefined)) verdicts.set(j.ruleId, j.problem);
    }
  }
  return { verdicts, clientProblem };
}

export interface RuleDifference {
  readonly rule: string;
  /** What the target's answer did with the rule: "keeps it", or what it broke. */
  readonly target: string;
  readonly shadow: string;
}

const KEEPS = "keeps it";
const OPEN_STATUSES = new Set([401, 403, 429, 503]);

function outcomeFixed(op: Operation): boolean {
  return op.kind === "job" && (op.op === "health" || op.op === "run" || op.op === "runsync");
}

const klass = (status: number) => (status >= 200 && status < 300 ? "accepted (2xx)" : status < 500 ? `refused (${status})` : `failed (${status})`);

export function compareAnswers(
  op: Operation,
  target: { status: number; verdicts: RuleVerdicts; clientProblem: boolean },
  shadow: { status: number; verdicts: RuleVerdicts },
): RuleDifference[] {
  const out: RuleDifference[] = [];
  for (const [rule, mine] of target.verdicts) {
    if (!shadow.verdicts.has(rule)) continue;
    const theirs = shadow.verdicts.get(rule);
    if ((mine === undefined) === (theirs === undefined)) continue;
    out.push({ rule, target: mine ?? KEEPS, shadow: theirs ?? KEEPS });
  }
  if (outcomeFixed(op) && !target.clientProblem && !OPEN_STATUSES.has(target.status) && !OPEN_STATUSES.has(shadow.status)) {
    const ok = (s: number) => s >= 200 && s < 300;
    if (ok(target.status) !== ok(shadow.status) || (target.status >= 500) !== (shadow.status >= 500)) {
      out.push({ rule: OUTCOME_RULE, target: klass(target.status), shadow: klass(shadow.status) });
    }
  }
  return out;
}
