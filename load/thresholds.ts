/**
 * k6 threshold expressions ("p(99)<500", "rate>0.99", "count>0", "avg<200", "max<=1000") judged
 * against a run's figures. The same strings go into exported k6 scripts, so a threshold means
 * the same thing in both engines. Durations are in milliseconds, as in k6.
 */

/** The figure of `stat` ("p(99)", "rate", "count", "avg", ...) of `metric`, or undefined when the run has none. */
export type MetricLookup = (metric: string, stat: string) => number | undefined;

export interface ThresholdResult {
  readonly metric: string;
  readonly expression: string;
  readonly ok: boolean;
  /** The figure it was judged on; undefined when the run has no such figure. */
  readonly actual?: number;
}

const EXPRESSION = /^\s*(avg|min|med|max|count|rate|value|p\((\d+(?:\.\d+)?)\))\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/;

export class ThresholdSyntaxError extends Error {
  override readonly name = "ThresholdSyntaxError";
  readonly code = "CPSIM_ERR_LOAD_THRESHOLD";
  readonly exitCode = 2;
}

export interface ParsedThreshold {
  readonly stat: string;
  readonly op: string;
  readonly value: number;
}

export function parseThreshold(expression: string): ParsedThreshold {
  const m = EXPRESSION.exec(expression);
  if (!m) {
    throw new ThresholdSyntaxError(`threshold "${expression}" is not understood; write it like k6: "p(99)<500", "rate>0.99", "count>0", "avg<200"`);
  }
  return { stat: m[2] !== undefined ? `p(${m[2]})` : m[1], op: m[3], value: Number(m[4]) };
}

function compare(a: number, op: string, b: number): boolean {
  switch (op) {
    case "<":
      return a < b;
    case "<=":
      return a <= b;
    case ">":
      return a > b;
    case ">=":
      return a >= b;
    case "==":
      return a === b;
    default:
      return a !== b;
  }
}

/** Judges every threshold; a metric or statistic the run does not have fails (it cannot be shown to hold). */
export function judgeThresholds(thresholds: Readonly<Record<string, readonly string[]>>, lookup: MetricLookup): ThresholdResult[] {
  const out: ThresholdResult[] = [];
  for (const [metric, expressions] of Object.entries(thresholds)) {
    for (const expression of expressions) {
      const t = parseThreshold(expression);
      const actual = lookup(metric, t.stat);
      out.push({ metric, expression, ok: actual !== undefined && Number.isFinite(actual) && compare(actual, t.op, t.value), actual });
    }
  }
  return out;
}
