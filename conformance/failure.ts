/**
 * A failure is data: the rule it breaks (id, title, severity, spec sentence), the evidence
 * (the request, what was expected, what came back) and a reproduction (the seed, fast-check's
 * path, the command that replays it and a curl script). `makeFailure` is pure: the same
 * exchanges give the same failure, byte for byte, which keeps reports comparable across runs.
 */
import type { ReportFailure } from "../reports/conformance-report.ts";
import { toCurl, type CurlCapture } from "./curl.ts";
import { redactText, type Redaction } from "./keys.ts";
import type { Exchange } from "./recorder.ts";
import type { Rule } from "./rule-catalog.ts";

export type Failure = ReportFailure;

export interface FailureSource {
  readonly rule: Rule;
  /** The run's seed: `--seed` replays it. */
  readonly seed: number;
  /** The cpsim command line that replays the rule. */
  readonly command: string;
  readonly redactions: readonly Redaction[];
}

export interface FailureEvidence {
  readonly expected: string;
  readonly exchange: Exchange;
  readonly sequence?: readonly Exchange[];
  readonly captures?: readonly CurlCapture[];
  readonly path?: string;
}

export function makeFailure(source: FailureSource, evidence: FailureEvidence): Failure {
  const { rule, redactions } = source;
  const response = evidence.exchange.response;
  const got = response
    ? {
        status: response.status,
        headers: Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k, redactText(v, redactions)])),
        body: redactText(response.body, redactions),
      }
    : { status: 0, headers: {}, body: "(no response)" };
  const requests = [...(evidence.sequence ?? []).map((e) => e.request), evidence.exchange.request];
  const curl = toCurl(requests, {
    redactKeys: redactions,
    captures: evidence.captures,
    title: `${rule.id} (seed ${source.seed}${evidence.path ? `, path ${evidence.path}` : ""}): ${rule.title}`,
    expected: evidence.expected,
    got: `HTTP ${got.status}`,
  });
  return {
    ruleId: rule.id,
    title: rule.title,
    severity: rule.severity,
    spec: rule.spec,
    evidence: {
      request: evidence.exchange.request,
      expected: redactText(evidence.expected, redactions),
      got,
      ...(evidence.sequence?.length ? { sequence: evidence.sequence.map((e) => e.request) } : {}),
    },
    reproduction: {
      seed: source.seed,
      ...(evidence.path ? { path: evidence.path } : {}),
      command: source.command,
      curl,
    },
  };
}
