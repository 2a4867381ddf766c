/**
 * Runs one check and turns what happened into the rule's result. Skips come first, from what
 * the check needs and the run lacks (keys, a control API, --slow, the strict profile for a
 * choice of choices.md). A TargetError the check lets escape is a target error, and any other
 * exception a crash of the check: neither is a verdict on the rule, which is then skipped.
 */
import type { RuleResult, TargetErrorRecord } from "../reports/conformance-report.ts";
import type { CheckDefinition, CheckOutcome, Oracle } from "./check.ts";
import type { CheckContext } from "./check.ts";
import type { Client } from "./client.ts";
import { makeContext } from "./check-context.ts";
import { TargetError } from "./errors.ts";
import { KEY_FLAG } from "./keys.ts";
import type { ResolvedOptions } from "./options.ts";
import { lenientReading } from "../sim/api/rules/index.ts";
import type { Rule } from "./rule-catalog.ts";
import type { FactUse, TargetFacts } from "./target-facts/index.ts";

export interface RunCheckInput {
  readonly check: CheckDefinition;
  readonly rule: Rule;
  readonly client: Client;
  readonly options: ResolvedOptions;
  readonly target: CheckContext["target"];
  /** Whether the target offers the emulator's control API (virtual time). */
  readonly controlApi: boolean;
  readonly oracle?: Oracle;
  readonly log: (message: string) => void;
  readonly now: () => number;
  readonly transitions: Set<string>;
  readonly facts?: TargetFacts;
  readonly factUse?: FactUse;
}

export interface RunCheckResult {
  readonly result: RuleResult;
  readonly targetErrors: readonly TargetErrorRecord[];
}

/** Why the rule cannot run in this configuration, or undefined when it can. */
export function skipReason(check: CheckDefinition, rule: Rule, options: ResolvedOptions, controlApi: boolean): string | undefined {
  if (rule.source === "choices" && options.profile !== "strict") {
    return "the emulator's choice where the spec is silent (choices.md): checked only under --profile strict";
  }
  const missing = (check.needs.keys ?? []).filter((k) => !options.keys[k]);
  if (missing.length) return `needs ${missing.map((k) => KEY_FLAG[k]).join(" and ")}`;
  if (check.needs.slow && !options.slow) return "takes minutes of real time: runs with --slow";
  if (check.needs.controlApi && !controlApi && !options.slow) {
    return "needs the emulator's control API to advance time; against this target it runs only with --slow";
  }
  return undefined;
}

export async function runCheck(input: RunCheckInput): Promise<RunCheckResult> {
  const { check, rule } = input;
  const base = { id: rule.id, title: rule.title, spec: rule.spec, section: rule.section, severity: rule.severity, lenient: lenientReading(rule) };
  const reason = skipReason(check, rule, input.options, input.controlApi);
  if (reason) return { result: { ...base, status: "skip", reason, durationMs: 0, requests: 0, failures: [] }, targetErrors: [] };

  const ctx = makeContext(input);
  const before = input.client.stats.requests;
  const started = input.now();
  let outcome: CheckOutcome;
  const targetErrors: TargetErrorRecord[] = [];
  try {
    outcome = (await check.run(ctx)) ?? { status: "pass" };
  } catch (err) {
    if (err instanceof TargetError) {
      targetErrors.push({ ruleId: rule.id, code: err.code, message: err.message, request: err.request });
      outcome = { status: "skip", reason: `target error (${err.code}): ${err.message}` };
    } else {
      const message = err instanceof Error ? err.message : String(err);
      targetErrors.push({ ruleId: rule.id, code: "CPSIM_ERR_CHECK_CRASHED", message: `the check itself failed, a bug of the suite: ${message}` });
      outcome = { status: "skip", reason: `the check crashed (a bug of the suite): ${message}` };
    }
  }
  const durationMs = input.now() - started;
  const requests = input.client.stats.requests - before;
  const result: RuleResult =
    outcome.status === "fail" && outcome.failures.length > 0
      ? { ...base, status: "fail", durationMs, requests, failures: outcome.failures }
      : outcome.status === "skip"
        ? { ...base, status: "skip", reason: outcome.reason, durationMs, requests, failures: [] }
        : { ...base, status: "pass", durationMs, requests, failures: [] };
  return { result, targetErrors };
}
