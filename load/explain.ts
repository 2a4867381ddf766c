/**
 * Says why a scenario's figures are what they are when they measure nothing useful: no answer at
 * all (refused, timed out, reset, or still running when the scenario's time ran out), or every
 * answer the same refusal (404: the route is missing; 429: the quota; 401/403: the key). Each
 * explanation names the flag to change.
 */
import type { LoadScenarioResult } from "../reports/index.ts";
import { describeQuota, type Quota } from "./quota.ts";
import type { Scenario } from "./scenario.ts";

export interface ExplainInput {
  readonly scenario: Scenario;
  readonly result: Pick<LoadScenarioResult, "statuses" | "errors" | "durationS">;
  /** The scenario's own time bound and the per-request timeout, in seconds. */
  readonly durationS: number;
  readonly timeoutS: number;
  /** Requests written (open model); undefined when the generator does not count them. */
  readonly sent?: number;
  readonly origin: string;
  readonly quota?: Quota;
}

const sum = (o: Readonly<Record<string, number>>): number => Object.values(o).reduce((a, b) => a + b, 0);

export function explainResult(x: ExplainInput): string[] {
  const answered = sum(x.result.statuses);
  const e = x.result.errors;
  const routes = [...new Set(x.scenario.requests.map((r) => `${r.method} ${r.path}`))].join(", ");
  if (answered === 0) {
    if ((e.refused ?? 0) > 0) return [`no answer: connection refused (${e.refused} time(s)) at ${x.origin}; is the target running there? check --target and --serverless-url`];
    if ((e.timeout ?? 0) > 0) return [`no answer: every request timed out after ${x.timeoutS} s (--timeout); the target held them longer: raise --timeout (and --duration)`];
    if ((e.reset ?? 0) > 0) return [`no answer: the target closed the connection ${e.reset} time(s) before answering (${routes})`];
    if ((e.other ?? 0) > 0) return [`no answer: ${e.other} request(s) failed before an answer came (${routes})`];
    const runsync = x.scenario.requests.some((r) => r.path.includes("/runsync"));
    const sent = x.sent !== undefined ? `${x.sent} request(s) sent, ` : "";
    return [
      `no answer within the scenario's duration (${x.durationS} s): ${sent}none answered before it ended` +
        `${runsync ? "; the target's runsync outlasted it (it holds the request until the job is done)" : "; the target held every request longer"}: raise --duration (and --timeout, now ${x.timeoutS} s)`,
    ];
  }
  const only = (pred: (status: number) => boolean) => Object.entries(x.result.statuses).every(([s, n]) => n === 0 || pred(Number(s)));
  if (only((s) => s === 404)) return [`every answer was 404: the target has no route ${routes} (route missing); check --endpoint, --target and --serverless-url, or --target-profile for its paths`];
  if (only((s) => s === 429)) return [`every answer was 429: the key's quota was already spent (${describeQuota(x.quota)}); --respect-rate-limit paces the run to it`];
  if (only((s) => s === 401 || s === 403)) return [`every answer was 401/403: the target refused the key; check --api-key`];
  if (only((s) => s >= 500)) return [`every answer was a 5xx: the target failed every request (${routes})`];
  return [];
}
