/**
 * What a passive check says about one exchange: for each rule it can judge there, whether the
 * exchange keeps it, and if not, what the rule required, on whose side (the target's answer, or
 * the client's request) and which earlier exchanges the replay needs.
 */
import type { SeenExchange } from "./answer.ts";
import type { Operation } from "./classify.ts";
import type { Profile } from "./error-body.ts";

export type Side = "target" | "client";

export interface Judgement {
  readonly ruleId: string;
  readonly side: Side;
  /** Absent: the exchange keeps the rule. Present: what the rule required, and what came instead. */
  readonly problem?: string;
  /** Earlier exchanges that led to this one (a state machine's history), oldest first. */
  readonly sequence?: readonly SeenExchange[];
  /** The exchange that shows it, when not the one judged (a finding of the whole traffic, at the end). */
  readonly exchange?: SeenExchange;
}

export interface CheckInput {
  readonly exchange: SeenExchange;
  readonly op: Operation;
  readonly profile: Profile;
}

/** A passive check: the rules it can judge from traffic, and its judgements of one exchange. */
export interface PassiveCheck {
  readonly name: string;
  readonly rules: readonly { readonly id: string; readonly side: Side }[];
  judge(input: CheckInput): readonly Judgement[];
  /** Judgements only the whole traffic can give (a counter that never moved), at the end. */
  finish?(profile: Profile): readonly Judgement[];
}

export const pass = (ruleId: string, side: Side = "target"): Judgement => ({ ruleId, side });
export const verdict = (ruleId: string, problem: string | undefined, side: Side = "target", sequence?: readonly SeenExchange[]): Judgement =>
  problem === undefined ? { ruleId, side } : { ruleId, side, problem, ...(sequence?.length ? { sequence } : {}) };
