/**
 * The proxy's report, in the very shape of conform's (report.json, junit.xml, report.html from
 * the same writers): every rule of the catalog, passed or failed when the traffic judged it (with
 * the number of exchanges that did), skipped with the reason otherwise: not judgeable from
 * traffic (it needs requests of its own), choices.md's under the lenient profile, or no exchange
 * of the traffic concerned it.
 */
import type { ClientFindingsRecord, ConformanceReport, ReportFailure, RuleResult, ShadowRecord, TargetErrorRecord } from "../../reports/conformance-report.ts";
import { summarize } from "../../reports/conformance-report.ts";
import { packageVersion } from "../../sim/package-root.ts";
import { isStrictOnly, lenientReading } from "../../sim/api/rules/index.ts";
import { SPEC_TRANSITIONS, transitionKey } from "../spec-transitions.ts";
import { judgeableRules, type PassiveJudge } from "../passive/passive-judge.ts";

export const NOT_JUDGEABLE = "not judgeable from traffic: judging it takes requests of its own (run `cpsim conform`)";
export const NOT_SEEN = "judgeable from traffic, but no exchange of this traffic concerned it";
export const SOLE_CLIENT_ONLY = "judged only with --sole-client: others' jobs would explain what the traffic shows";
export const CHOICES_ONLY = "judged only under --profile strict: the emulator's choice where the spec is silent (docs/choices.md)";

export interface ProxyReportMeta {
  readonly target: string;
  readonly serverlessUrl: string;
  readonly profile: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly targetErrors: readonly TargetErrorRecord[];
  readonly clients?: readonly ClientFindingsRecord[];
  readonly shadow?: ShadowRecord;
}

function version(): string {
  try {
    return packageVersion();
  } catch {
    return "unknown";
  }
}

export function proxyReport(judge: PassiveJudge, meta: ProxyReportMeta): ConformanceReport {
  const judgeable = judgeableRules(judge.options);
  const withSoleClient = judgeableRules({ soleClient: true });
  const catalog = judge.options.catalog.rules;
  const rules: RuleResult[] = catalog.map((rule) => {
    const tally = judge.tallies.get(rule.id);
    const base = { id: rule.id, title: rule.title, spec: rule.spec, section: rule.section, severity: rule.severity, durationMs: 0, lenient: rule.lenient ?? lenientReading(rule) };
    const failures: ReportFailure[] = tally?.failures ?? [];
    if (tally && tally.failed > 0) return { ...base, status: "fail" as const, requests: tally.judged, failures, ...(tally.failed > failures.length ? { reason: `${tally.failed} failures, the first ${failures.length} kept` } : {}) };
    if (tally && tally.judged > 0) return { ...base, status: "pass" as const, requests: tally.judged, failures: [] };
    const reason = !judgeable.has(rule.id) ? (withSoleClient.has(rule.id) ? SOLE_CLIENT_ONLY : NOT_JUDGEABLE) : isStrictOnly(rule) && meta.profile !== "strict" ? CHOICES_ONLY : NOT_SEEN;
    return { ...base, status: "skip" as const, reason, requests: 0, failures: [] };
  });
  const checked = rules.filter((r) => r.status !== "skip");
  return {
    tool: { name: "cpsim", version: version() },
    target: meta.target,
    serverlessUrl: meta.serverlessUrl,
    seed: 0,
    profile: meta.profile,
    startedAt: new Date(meta.startedAt).toISOString(),
    wallTimeMs: meta.endedAt - meta.startedAt,
    requests: judge.exchanges,
    rules,
    coverage: {
      rules: { checked: checked.length, total: catalog.length, unchecked: rules.filter((r) => r.status === "skip").map((r) => r.id), selected: catalog.length },
      transitions: SPEC_TRANSITIONS.map((t) => ({ ...t, exercised: judge.transitions.has(transitionKey(t.machine, t.from, t.to)) })),
    },
    summary: summarize(rules, meta.targetErrors.length),
    targetErrors: meta.targetErrors,
    ...(meta.clients ? { clients: meta.clients } : {}),
    ...(meta.shadow ? { shadow: meta.shadow } : {}),
  };
}
