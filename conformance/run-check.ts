/**
 * Runs one check and turns what happened into the rule's result. Skips come first, from what
 * the check needs and the run lacks (keys, a control API, --slow, the strict profile for a
 * choice of choices.md). A TargetError the check lets escape is a target error, and any other
 * exception a crash of the check: neither is a verdict on the rule, which is then skipped.
 * A group's rules run together (runGroup): one shared run, one verdict per member.
 */
import type { RuleResult, TargetErrorRecord } from "../reports/conformance-report.ts";
import type { CheckContext, CheckDefinition, CheckOutcome, Oracle } from "./check.ts";
import type { Client } from "./client.ts";
import { makeContext, realtimeBounds } from "./check-context.ts";
import { PropertyInterrupted } from "./checks/support/interrupted.ts";
import { TargetError } from "./errors.ts";
import { KEY_FLAG } from "./keys.ts";
import type { ResolvedOptions } from "./options.ts";
import { lenientReading } from "../sim/api/rules/index.ts";
import type { Rule } from "./rule-catalog.ts";
import type { FactUse, TargetFacts } from "./target-facts/index.ts";
import { nothingServed, RouteMissing } from "./route-evidence.ts";
import type { KeyRole } from "./keys.ts";

export interface RunCheckInput {
  readonly check: CheckDefinition;
  readonly rule: Rule;
  readonly client: Client;
  readonly options: ResolvedOptions;
  readonly target: CheckContext["target"];
  /** Whether the target offers the emulator's control API (virtual time). */
  readonly controlApi: boolean;
  readonly oracle: Oracle;
  /** When the run must end (Date.now() value); Infinity without --max-duration. */
  readonly deadline?: number;
  readonly log: (message: string) => void;
  readonly now: () => number;
  readonly transitions: Set<string>;
  readonly facts?: TargetFacts;
  readonly factUse?: FactUse;
  /** Keys the target refused in the run's first read (key-check.ts), with what it answered. */
  readonly refusedKeys?: ReadonlyMap<KeyRole, string>;
}

export interface RunCheckResult {
  readonly result: RuleResult;
  readonly targetErrors: readonly TargetErrorRecord[];
}

/** Why the rule cannot run in this configuration, or undefined when it can. */
export function skipReason(check: CheckDefinition, rule: Rule, options: ResolvedOptions, controlApi: boolean, refusedKeys?: ReadonlyMap<KeyRole, string>): string | undefined {
  if (rule.source === "choices" && options.profile !== "strict") {
    return "checked only under --profile strict: the emulator's choice where the spec is silent (docs/choices.md)";
  }
  if (rule.strictOnly !== undefined && options.profile !== "strict") {
    return `its sentence does not state ${rule.strictOnly}: the emulator's reading, checked only under --profile strict`;
  }
  const refused = (check.needs.keys ?? []).filter((k) => refusedKeys?.has(k));
  if (refused.length) return refused.map((k) => `${KEY_FLAG[k]} was refused by the target (${refusedKeys!.get(k)})`).join("; ");
  const missing = (check.needs.keys ?? []).filter((k) => !options.keys[k]);
  if (missing.length) return `needs ${missing.map((k) => KEY_FLAG[k]).join(" and ")}`;
  if (check.needs.slow && !options.slow) return "takes minutes of real time: runs with --slow";
  if (check.needs.controlApi && !controlApi && !options.slow) {
    return "needs the emulator's control API to advance time; against this target it runs only with --slow";
  }
  return undefined;
}

const baseOf = (rule: Rule) => ({ id: rule.id, title: rule.title, spec: rule.spec, section: rule.section, severity: rule.severity, lenient: lenientReading(rule) });

/**
 * What escaped a check, as the rule's skip and a target error record. A property stopped by its
 * time bound, or anything thrown once the run's deadline passed (the run cuts its checks short
 * then), is no verdict and no bug: only the skip, saying so.
 */
function escaped(err: unknown, ruleIds: readonly string[], input: Pick<RunCheckInput, "deadline" | "options">): { outcome: CheckOutcome; errors: TargetErrorRecord[] } {
  if (err instanceof RouteMissing) return { outcome: { status: "skip", reason: err.message }, errors: [] };
  if (err instanceof PropertyInterrupted) {
    const bounds = realtimeBounds(input.options);
    return { outcome: { status: "skip", reason: `interrupted: ${err.message} (against a real-time target ${bounds.propertyMs / 1000} s per property, ${bounds.runningPropertyMs / 1000} s where a pod must first start; or --max-duration)` }, errors: [] };
  }
  if (Date.now() >= (input.deadline ?? Number.POSITIVE_INFINITY)) {
    return { outcome: { status: "skip", reason: `interrupted: the run's bound (--max-duration ${input.options.maxDurationS} s) ran out while this rule ran` }, errors: [] };
  }
  if (err instanceof TargetError) {
    return {
      outcome: { status: "skip", reason: `target error (${err.code}): ${err.message}` },
      errors: ruleIds.map((ruleId) => ({ ruleId, code: err.code, message: err.message, request: err.request })),
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return {
    outcome: { status: "skip", reason: `the check crashed (a bug of the suite): ${message}` },
    errors: ruleIds.map((ruleId) => ({ ruleId, code: "CPSIM_ERR_CHECK_CRASHED", message: `the check itself failed, a bug of the suite: ${message}` })),
  };
}

function resultOf(rule: Rule, outcome: CheckOutcome, durationMs: number, requests: number): RuleResult {
  const base = baseOf(rule);
  return outcome.status === "fail" && outcome.failures.length > 0
    ? { ...base, status: "fail", durationMs, requests, failures: outcome.failures }
    : outcome.status === "skip"
      ? { ...base, status: "skip", reason: outcome.reason, durationMs, requests, failures: [] }
      : { ...base, status: "pass", durationMs, requests, failures: [] };
}

/** A rule skipped before it ran (a missing key, the profile, --max-duration): no time, no request. */
export function skippedResult(rule: Rule, reason: string): RuleResult {
  return { ...baseOf(rule), status: "skip", reason, durationMs: 0, requests: 0, failures: [] };
}

export async function runCheck(input: RunCheckInput): Promise<RunCheckResult> {
  const { check, rule } = input;
  const reason = skipReason(check, rule, input.options, input.controlApi, input.refusedKeys);
  if (reason) return { result: skippedResult(rule, reason), targetErrors: [] };

  const over = new AbortController();
  const transitions = new CountingSet(input.transitions);
  const ctx = makeContext({ ...input, transitions, signal: over.signal });
  const started = input.now();
  let outcome: CheckOutcome;
  const targetErrors: TargetErrorRecord[] = [];
  try {
    outcome = (await check.run(ctx)) ?? { status: "pass" };
  } catch (err) {
    const e = escaped(err, [rule.id], input);
    outcome = e.outcome;
    targetErrors.push(...e.errors);
  } finally {
    over.abort();
  }
  if (outcome.status === "pass") outcome = await earned(outcome, [rule.id], ctx, transitions);
  return { result: resultOf(rule, outcome, input.now() - started, ctx.client.sent), targetErrors };
}

/** A set that also adds to the run's: one check's observed transitions, counted. */
class CountingSet extends Set<string> {
  constructor(private readonly outer: Set<string>) {
    super();
  }
  override add(value: string): this {
    this.outer?.add(value);
    return super.add(value);
  }
}

/** Rules about the legality of transitions: passed only with at least one transition observed. */
export function isTransitionRule(ruleId: string): boolean {
  return /\.transition-legal$/.test(ruleId);
}

/**
 * A pass is kept only when it was earned: a transition rule saw a transition, and a check that
 * sent requests got at least one answer from a route the target serves (route-evidence.ts).
 */
async function earned(outcome: CheckOutcome, ruleIds: readonly string[], ctx: CheckContext, transitions: ReadonlySet<string>): Promise<CheckOutcome> {
  if (ruleIds.some(isTransitionRule) && transitions.size === 0) {
    return { status: "skip", reason: "nothing was judged: no transition was observed (0 transitions), so no transition could be illegal" };
  }
  if (ctx.client.sent > 0 && ctx.client.served === 0) {
    try {
      const why = await nothingServed(ctx.client, ctx.client.exchanges(), ctx.keys.api ? { key: "api" } : undefined);
      if (why) return { status: "skip", reason: why };
    } catch {
      // The probe's own failure leaves the verdict as it was.
    }
  }
  return outcome;
}

export interface GroupMember {
  readonly check: CheckDefinition;
  readonly rule: Rule;
}

/**
 * Runs the rules of one group with one shared run (one model, many checkers). Members the run
 * configuration rules out are skipped as single rules are; the others share the run's time and
 * requests, each judged on its own checker's verdict.
 */
export async function runGroup(
  members: readonly GroupMember[],
  input: Omit<RunCheckInput, "check" | "rule">,
): Promise<{ results: RuleResult[]; targetErrors: TargetErrorRecord[] }> {
  const results = new Map<string, RuleResult>();
  const contexts = new Map<string, CheckContext>();
  const over = new AbortController();
  const transitions = new CountingSet(input.transitions);
  for (const m of members) {
    const reason = skipReason(m.check, m.rule, input.options, input.controlApi, input.refusedKeys);
    if (reason) results.set(m.rule.id, skippedResult(m.rule, reason));
    else contexts.set(m.rule.id, makeContext({ ...input, transitions, check: m.check, rule: m.rule, signal: over.signal }));
  }
  const targetErrors: TargetErrorRecord[] = [];
  const group = members[0]?.check.group;
  if (group && contexts.size > 0) {
    const lead = [...contexts.values()][0]!;
    const started = input.now();
    let outcomes: ReadonlyMap<string, CheckOutcome> = new Map();
    let failure: CheckOutcome | undefined;
    try {
      outcomes = await group.run(contexts);
    } catch (err) {
      const e = escaped(err, [...contexts.keys()].slice(0, 1), input);
      failure = e.outcome;
      targetErrors.push(...e.errors);
    } finally {
      over.abort();
    }
    const durationMs = input.now() - started;
    // The shared run reads the target's facts through its lead's context: every member it judged used them.
    const leadId = [...contexts.keys()][0]!;
    for (const users of input.factUse?.values() ?? []) if (users.has(leadId)) for (const id of contexts.keys()) users.add(id);
    for (const m of members) {
      if (!contexts.has(m.rule.id)) continue;
      let outcome = failure ?? outcomes.get(m.rule.id) ?? { status: "skip" as const, reason: `the shared run of ${group.id} gave this rule no verdict (a bug of the suite)` };
      if (outcome.status === "pass") outcome = await earned(outcome, [m.rule.id], lead, transitions);
      results.set(m.rule.id, resultOf(m.rule, outcome, durationMs, lead.client.sent));
    }
  }
  return { results: members.map((m) => results.get(m.rule.id)!), targetErrors };
}
