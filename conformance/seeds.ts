/**
 * One seed drives the run; each rule draws from a seed derived from it and the rule's id, so
 * `--only` or a new rule never shifts another rule's draws, and `--seed N --only RULE`
 * replays exactly what the full run did for RULE.
 */
import { Rng } from "../sim/core/index.ts";

/** fast-check takes 32-bit seeds; a run's seed is kept in that range so it can be one too. */
export const MAX_SEED = 0x7fffffff;

export function ruleSeed(runSeed: number, ruleId: string): number {
  return new Rng(runSeed, "conform").fork(ruleId).int(0, MAX_SEED);
}

/** A fresh seed for a run that was given none (printed, so the run can be replayed). */
export function randomSeed(): number {
  return Math.floor(Math.random() * MAX_SEED);
}
