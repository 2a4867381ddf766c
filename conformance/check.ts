/**
 * What a check is: a plain function of a context, registered under the id of the rule it
 * checks. It returns nothing (the rule holds), or an outcome made by `ctx.pass()`,
 * `ctx.skip(reason)` or `ctx.fail(...)`. A TargetError it lets escape is reported as a target
 * error; any other exception is a bug of the check, reported as such, never as a rule failure.
 */
import type * as fc from "fast-check";
import type { Client } from "./client.ts";
import type { CurlCapture } from "./curl.ts";
import type { Failure } from "./failure.ts";
import type { KeyRole, Keys } from "./keys.ts";
import type { ResolvedOptions } from "./options.ts";
import type { Exchange } from "./recorder.ts";
import type { Rule } from "./rule-catalog.ts";
import type { TargetFacts } from "./target-facts/index.ts";

export type { Failure };

export type CheckOutcome =
  | { readonly status: "pass" }
  | { readonly status: "skip"; readonly reason: string }
  | { readonly status: "fail"; readonly failures: readonly Failure[] };

/** What a failure needs from the check; the rest (rule, seed, curl) the context fills in. */
export interface FailureInput {
  /** What the rule required, in words: "400 or 422 problem+json naming `bogus`". */
  readonly expected: string;
  /** The exchange that shows the failure (default: the client's last). */
  readonly exchange?: Exchange;
  /** The exchanges before it that the replay needs, in order (default: none). */
  readonly sequence?: readonly Exchange[];
  /** Ids that later requests of the sequence take from earlier answers. */
  readonly captures?: readonly CurlCapture[];
  /** fast-check's counterexample path. */
  readonly path?: string;
}

export type { Oracle } from "./oracle/oracle.ts";
import type { Oracle } from "./oracle/oracle.ts";

export interface CheckContext {
  readonly rule: Rule;
  /** A client of its own (its recording is this check's), raw on 429s for rate-limit rules. */
  readonly client: Client;
  readonly keys: Keys;
  readonly options: ResolvedOptions;
  /** Base URLs: REST and GraphQL, and job endpoints; the endpoint running the conformance handler. */
  readonly target: { readonly rest: string; readonly serverless: string; readonly endpoint: string };
  /** This rule's seed, derived from the run's seed and the rule id. */
  readonly seed: number;
  /** fast-check parameters: this rule's seed and `--runs`; spread them into fc.assert. */
  readonly fc: fc.Parameters<unknown>;
  /** The platform model as the oracle of the stateful runs: the set of outcomes the spec allows (narrowed under --profile strict). */
  readonly oracle: Oracle;
  /** When the run must end (--max-duration), as a Date.now() value; waits and properties stop by then. */
  readonly deadline: number;
  /**
   * Aborted once the check is over: it returned, or its property was cut by its time bound
   * (fast-check then leaves the cut run going, unawaited). Waits end at once and polling loops
   * stop, so a cut run sends a few requests more at most (its clean-up), never minutes of polls or
   * clock advances under the next check.
   */
  readonly signal: AbortSignal;
  /** Whether the target serves the emulator's control API (`/_sim/clock`): virtual time can be advanced. */
  readonly controlApi: boolean;
  /** How this target does what the spec does not show (action paths, volume lists, model slugs), and where each fact came from. */
  readonly facts: TargetFacts;
  /** The run's progress log, for a check that takes long. */
  log(message: string): void;
  /** Notes a state transition the check observed, for the coverage report (e.g. "pod", "PROVISIONING", "STARTING"). */
  exercised(machine: string, from: string, to: string): void;
  pass(): CheckOutcome;
  skip(reason: string): CheckOutcome;
  failure(input: FailureInput): Failure;
  fail(...failures: readonly (Failure | FailureInput)[]): CheckOutcome;
}

/** What a check requires of the run; without it the rule is skipped, with the reason. */
export interface CheckNeeds {
  readonly keys?: readonly KeyRole[];
  /** The emulator's control API (virtual time); skipped against other targets unless `--slow`. */
  readonly controlApi?: boolean;
  /** Takes real minutes (retention, ttl): runs only with `--slow`. */
  readonly slow?: boolean;
}

export type CheckFn = (ctx: CheckContext) => Promise<CheckOutcome | void> | CheckOutcome | void;

export interface CheckDefinition {
  readonly ruleId: string;
  readonly run: CheckFn;
  readonly needs: CheckNeeds;
  /** Sees 429s raw: the rate-limit rules, which provoke them on purpose. */
  readonly raw429: boolean;
  /** Judged together with the other rules of this group, by one run (one model, many checkers). */
  readonly group?: CheckGroup;
}

/**
 * Rules judged by one shared run: `run` gets the context of every member the run judges (those
 * selected and not skipped), keyed by rule id, and answers each one's outcome. Requests go
 * through the first member's client.
 */
export interface CheckGroup {
  readonly id: string;
  run(members: ReadonlyMap<string, CheckContext>): Promise<ReadonlyMap<string, CheckOutcome>>;
}
