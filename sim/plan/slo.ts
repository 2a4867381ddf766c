/**
 * Service-level objectives for --find: `p99 delay < 2s`, `mean execution < 800ms`,
 * `cost per 1000 < $0.50`, joined with `and`. Delay means the queue wait of every job, counting a
 * job still queued at the horizon by its age (so a growing backlog cannot meet a delay SLO).
 */
import { UsageError } from "../cli/args.ts";

export interface SloTerm {
  readonly text: string;
  readonly metric: "delay" | "execution" | "costPer1000";
  readonly stat: "p50" | "p90" | "p99" | "mean" | "max" | "value";
  /** ms for times, USD for cost. */
  readonly limit: number;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

export function parseSlo(text: string): SloTerm[] {
  const terms = text.split(/\s+and\s+|,/i).map((t) => t.trim()).filter((t) => t !== "");
  if (terms.length === 0) throw new UsageError(`--slo "${text}": empty; for example --slo 'p99 delay < 2s'`);
  return terms.map((t): SloTerm => {
    const time = /^(p50|p90|p99|mean|max)\s+(delay|execution)\s*<\s*([0-9]*\.?[0-9]+)\s*(ms|s|m|min|h)$/i.exec(t);
    if (time !== null) {
      return {
        text: t,
        metric: time[2].toLowerCase() as "delay" | "execution",
        stat: time[1].toLowerCase() as SloTerm["stat"],
        limit: Number(time[3]) * UNITS[time[4].toLowerCase()],
      };
    }
    const cost = /^cost\s+per\s+1,?000\s*<\s*\$?([0-9]*\.?[0-9]+)$/i.exec(t);
    if (cost !== null) return { text: t, metric: "costPer1000", stat: "value", limit: Number(cost[1]) };
    throw new UsageError(
      `--slo: cannot read "${t}"; write STAT METRIC < VALUE with STAT p50|p90|p99|mean|max, METRIC delay|execution, VALUE like 2s or 500ms, ` +
        `or "cost per 1000 < $0.50"; join terms with "and"`,
    );
  });
}
