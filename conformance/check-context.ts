/**
 * Builds the context one check runs with: its own scoped client, the keys, the options, a
 * seeded fast-check configuration, the oracle when there is one, and the helpers that turn
 * evidence into failures. This is the extension point for the real checks: everything a check
 * may use arrives here, so checks stay plain functions of their context.
 */
import fc from "fast-check";
import type { CheckContext, CheckDefinition, CheckOutcome, Failure, FailureInput, Oracle } from "./check.ts";
import type { Client } from "./client.ts";
import { makeFailure } from "./failure.ts";
import { keyRedactions } from "./keys.ts";
import { reproduceCommand, type ResolvedOptions } from "./options.ts";
import type { Rule } from "./rule-catalog.ts";
import { ruleSeed } from "./seeds.ts";
import { transitionKey } from "./spec-transitions.ts";
import { defaultTargetFacts, factsView, type FactUse, type TargetFacts } from "./target-facts/index.ts";
import { realtimeBounds } from "./property-bounds.ts";
import { interruptAfterWorkingTime, workingNow } from "./working-time.ts";

export { REALTIME_PROPERTY_LIMIT_MS, REALTIME_RUNNING_WAIT_MS, REALTIME_RUNNING_PROPERTY_LIMIT_MS, VIRTUAL_PROPERTY_LIMIT_MS, realtimeBounds, type RealtimeBounds } from "./property-bounds.ts";

export interface ContextInput {
  readonly check: CheckDefinition;
  readonly rule: Rule;
  readonly client: Client;
  readonly options: ResolvedOptions;
  readonly target: CheckContext["target"];
  readonly oracle: Oracle;
  readonly controlApi?: boolean;
  /** When the run must end (Date.now() value); Infinity without --max-duration. */
  readonly deadline?: number;
  readonly log: (message: string) => void;
  /** Where observed transitions are collected, as transitionKey()s. */
  readonly transitions: Set<string>;
  /** The target's facts (default: choices.md's conventions). */
  readonly facts?: TargetFacts;
  /** Where the rules that read each fact are noted. */
  readonly factUse?: FactUse;
  /** Aborted when the check is over (run-check.ts); never, by default. */
  readonly signal?: AbortSignal;
}

function isFailure(f: Failure | FailureInput): f is Failure {
  return "ruleId" in f && "reproduction" in f;
}

export function makeContext(input: ContextInput): CheckContext {
  const { rule, options } = input;
  const client = input.client.scoped({ raw429: input.check.raw429 });
  const seed = ruleSeed(options.seed, rule.id);
  const deadline = input.deadline ?? Number.POSITIVE_INFINITY;
  // Against a real-time target, the property's bound in working time (its requests' waits for quota not counted).
  const timeLimit = input.controlApi
    ? Number.isFinite(deadline)
      ? fc.interruptAfterTimeLimit(Math.max(1, deadline - Date.now()))
      : undefined
    : interruptAfterWorkingTime(realtimeBounds(options).propertyMs, workingNow(client), deadline);
  const source = {
    rule,
    seed: options.seed,
    command: reproduceCommand(options, rule.id),
    redactions: keyRedactions(options.keys),
  };
  const failure = (f: FailureInput): Failure => {
    const exchanges = client.exchanges();
    const exchange = f.exchange ?? [...exchanges].reverse().find((e) => e.response);
    if (!exchange) throw new Error(`a failure of ${rule.id} needs an exchange as evidence, and the check made no request`);
    return makeFailure(source, { ...f, exchange });
  };
  return {
    rule,
    client,
    keys: options.keys,
    options,
    target: input.target,
    seed,
    fc: {
      seed,
      numRuns: options.runs,
      // A property stops drawing runs (and shrinking) when its time is up; what ran is judged:
      // against a real-time target each run and each shrink step costs seconds, so a property
      // gets REALTIME_PROPERTY_LIMIT_MS at most (times the run's measured factor); and never beyond --max-duration.
      ...(timeLimit !== undefined ? { plugins: [timeLimit] } : {}),
    },
    oracle: input.oracle,
    deadline,
    signal: input.signal ?? new AbortController().signal,
    controlApi: input.controlApi ?? false,
    facts: factsView(input.facts ?? defaultTargetFacts(), rule.id, input.factUse),
    log: input.log,
    exercised: (machine, from, to) => void input.transitions.add(transitionKey(machine, from, to)),
    pass: (): CheckOutcome => ({ status: "pass" }),
    skip: (reason: string): CheckOutcome => ({ status: "skip", reason }),
    failure,
    fail: (...failures): CheckOutcome => ({ status: "fail", failures: failures.map((f) => (isFailure(f) ? f : failure(f))) }),
  };
}
