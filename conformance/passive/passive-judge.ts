/**
 * The passive checks as one judge: fed exchanges one at a time (a client's, through the proxy;
 * or conform's own), it answers the findings each one shows at once and keeps, per rule, how
 * many exchanges judged it and its failures (bounded), for the report at the end.
 */
import type { ReportFailure } from "../../reports/conformance-report.ts";
import { makeFailure } from "../failure.ts";
import { isStrictOnly } from "../../sim/api/rules/index.ts";
import { specCatalog, type Rule, type RuleCatalog } from "../rule-catalog.ts";
import type { SeenExchange } from "./answer.ts";
import { operationOf } from "./classify.ts";
import type { Profile } from "./error-body.ts";
import { exchangeChecks } from "./exchange-checks.ts";
import { createJobFollower } from "./follow-jobs.ts";
import { createKeyFollower } from "./follow-keys.ts";
import { createPodFollower } from "./follow-pods.ts";
import type { Judgement, PassiveCheck, Side } from "./judgement.ts";
import { requestChecks } from "./request-checks.ts";
import { createRunsyncWaitCheck } from "./runsync-wait.ts";
import { createDelayFloorCheck } from "./delay-floor.ts";
import { createCpuMemoryCheck } from "./cpu-memory.ts";
import { createSoleClientCheck } from "./sole-client.ts";

export interface Finding {
  readonly rule: Rule;
  readonly side: Side;
  readonly exchange: SeenExchange;
  /** What the rule required and what came instead ("[client] " first on the client's side). */
  readonly expected: string;
  /** As every report holds a failure (evidence, a curl script that replays it): made for the failures the report keeps only. */
  readonly failure?: ReportFailure;
}

export interface RuleTally {
  /** Exchanges that judged the rule (on either side). */
  judged: number;
  failed: number;
  /** Failures by side: the proxy's gate counts the side --fail-on names. */
  readonly failedBySide: Record<Side, number>;
  /** The first failures of each side, up to the judge's bound per side. */
  readonly failures: ReportFailure[];
}

export interface PassiveOptions {
  readonly profile: Profile;
  /** Reads of a finished job before the client counts as polling forever (client.poll-finished-job). */
  readonly maxFinalPolls: number;
  /** Failures kept per rule for the report; the rest are counted. */
  readonly maxFailuresPerRule: number;
  /** The command line that reproduces the run, for each failure's reproduction. */
  readonly command: string;
  readonly catalog: RuleCatalog;
  /** Every job request to the target passes through here, from before the first one (`cpsim proxy --sole-client`): sole-client.ts's rules are judged. */
  readonly soleClient: boolean;
}

export const defaultPassiveOptions: PassiveOptions = {
  profile: "lenient",
  maxFinalPolls: 10,
  maxFailuresPerRule: 20,
  command: "cpsim proxy",
  catalog: specCatalog,
  soleClient: false,
};

/** The passive checks, in the order they judge; the followers hold state, so each judge has its own. */
export function passiveChecks(options: Pick<PassiveOptions, "maxFinalPolls"> & Partial<Pick<PassiveOptions, "soleClient">>, exercised: (key: string) => void): PassiveCheck[] {
  return [
    ...requestChecks, ...exchangeChecks, createPodFollower(exercised), createJobFollower(exercised, { maxFinalPolls: options.maxFinalPolls }), createRunsyncWaitCheck(),
    createDelayFloorCheck(), createCpuMemoryCheck(), createKeyFollower(), ...(options.soleClient ? [createSoleClientCheck()] : []),
  ];
}

/** Every rule the passive checks can judge (with `soleClient`, also the ones --sole-client adds), with the sides they judge it on. */
export function judgeableRules(options: { readonly soleClient?: boolean } = {}): ReadonlyMap<string, readonly Side[]> {
  const out = new Map<string, Side[]>();
  for (const c of passiveChecks({ ...defaultPassiveOptions, soleClient: options.soleClient ?? false }, () => {})) {
    for (const r of c.rules) out.set(r.id, [...new Set([...(out.get(r.id) ?? []), r.side])]);
  }
  return out;
}

export class PassiveJudge {
  readonly options: PassiveOptions;
  readonly tallies = new Map<string, RuleTally>();
  readonly transitions = new Set<string>();
  exchanges = 0;
  private readonly checks: PassiveCheck[];

  constructor(options: Partial<PassiveOptions> = {}) {
    this.options = { ...defaultPassiveOptions, ...options };
    this.checks = passiveChecks(this.options, (key) => this.transitions.add(key));
  }

  /** The rules the traffic can judge (a choices.md rule only under strict). */
  judgeable(ruleId: string): boolean {
    const rule = this.options.catalog.get(ruleId);
    return rule !== undefined && (!isStrictOnly(rule) || this.options.profile === "strict") && judgeableRules(this.options).has(ruleId);
  }

  /** Judges one exchange; answers its findings (the failures), which the tallies also keep. */
  judge(exchange: SeenExchange): Finding[] {
    this.exchanges++;
    const op = operationOf(exchange);
    const judgements: Judgement[] = [];
    for (const check of this.checks) judgements.push(...check.judge({ exchange, op, profile: this.options.profile }));
    return this.record(judgements, exchange);
  }

  /** The findings only the whole traffic shows; call once, at the end. */
  finish(): Finding[] {
    const out: Finding[] = [];
    for (const check of this.checks) {
      const js = check.finish?.(this.options.profile) ?? [];
      for (const j of js) if (j.exchange) out.push(...this.record([j], j.exchange, false));
    }
    return out;
  }

  private record(judgements: readonly Judgement[], exchange: SeenExchange, count = true): Finding[] {
    const findings: Finding[] = [];
    // The rules this exchange judged so far: a few, so a list.
    const counted: string[] = [];
    for (const j of judgements) {
      const rule = this.options.catalog.get(j.ruleId);
      if (!rule || (isStrictOnly(rule) && this.options.profile !== "strict")) continue;
      const tally = this.tallies.get(j.ruleId) ?? { judged: 0, failed: 0, failedBySide: { target: 0, client: 0 }, failures: [] };
      this.tallies.set(j.ruleId, tally);
      if (count && !counted.includes(j.ruleId)) {
        counted.push(j.ruleId);
        tally.judged++;
      }
      if (j.problem === undefined) continue;
      const shown = j.exchange ?? exchange;
      const expected = `${j.side === "client" ? "[client] " : ""}${j.problem}`;
      tally.failed++;
      tally.failedBySide[j.side]++;
      let failure: ReportFailure | undefined;
      // A repeated failure is counted, not described again: the curl script costs more than judging.
      // The first ones of each side are kept, so neither side's crowd the other's out of the report.
      if (tally.failedBySide[j.side] <= this.options.maxFailuresPerRule) {
        const base = makeFailure(
          { rule, seed: 0, command: this.options.command, redactions: [] },
          { expected, exchange: shown.recorded, ...(j.sequence?.length ? { sequence: j.sequence.map((s) => s.recorded) } : {}) },
        );
        failure = { ...base, side: j.side };
        tally.failures.push(failure);
      }
      findings.push({ rule, side: j.side, exchange: shown, expected, ...(failure ? { failure } : {}) });
    }
    return findings;
  }
}
