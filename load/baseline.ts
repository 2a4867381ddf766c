/**
 * The CI gate: compare this run's figures with an earlier report.json (or a k6 handleSummary
 * file that an exported script wrote) and list every figure more than maxRegressionPct worse.
 * Throughput is compared only between closed-model runs (an open model's rate is set, not
 * measured); latency p50 and p99 always.
 */
import { readFile } from "node:fs/promises";
import type { LoadComparison, LoadRegression, LoadScenarioResult } from "../reports/index.ts";
import { LoadConfigError } from "./options.ts";

export interface BaselineFigures {
  readonly name: string;
  readonly model: string;
  readonly rps: number;
  readonly p50Us: number;
  readonly p99Us: number;
}

interface K6Summary {
  readonly cpsim?: { readonly scenario?: string };
  readonly metrics?: Record<string, { readonly values?: Record<string, number> }>;
}

/** Reads a cpsim report.json or a k6 summary written by an exported script's handleSummary. */
export function baselineFigures(value: unknown, file: string): BaselineFigures[] {
  const v = value as { tool?: string; scenarios?: LoadScenarioResult[] } & K6Summary;
  if (v?.tool === "cpsim load" && Array.isArray(v.scenarios)) {
    return v.scenarios.map((s) => ({ name: s.name, model: s.model, rps: s.rps, p50Us: s.latency.p50Us, p99Us: s.latency.p99Us }));
  }
  const d = v?.metrics?.http_req_duration?.values;
  if (v?.cpsim?.scenario && d) {
    return [{ name: v.cpsim.scenario, model: "k6", rps: v.metrics?.http_reqs?.values?.rate ?? 0, p50Us: (d.med ?? 0) * 1000, p99Us: (d["p(99)"] ?? 0) * 1000 }];
  }
  throw new LoadConfigError(`--baseline ${file}: neither a cpsim load report.json nor a k6 summary written by an exported cpsim script`);
}

export async function readBaseline(file: string): Promise<BaselineFigures[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new LoadConfigError(`--baseline ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); pass an earlier reports/load/report.json`);
  }
  try {
    return baselineFigures(JSON.parse(text), file);
  } catch (err) {
    if (err instanceof LoadConfigError) throw err;
    throw new LoadConfigError(`--baseline ${file}: not JSON (${(err as Error).message})`);
  }
}

/**
 * Every figure beside its baseline value (`comparisons`, passing or not) and those more than
 * maxRegressionPct worse (`regressions`). A skipped scenario has no figures: it is listed as missing.
 */
export function compareWithBaseline(
  current: readonly LoadScenarioResult[],
  baseline: readonly BaselineFigures[],
  maxRegressionPct: number,
): { regressions: LoadRegression[]; missing: string[]; comparisons: LoadComparison[] } {
  const byName = new Map(baseline.map((b) => [b.name, b]));
  const regressions: LoadRegression[] = [];
  const comparisons: LoadComparison[] = [];
  const missing: string[] = [];
  for (const s of current) {
    const b = byName.get(s.name);
    if (!b || s.skipped) {
      missing.push(s.name);
      continue;
    }
    const compare = (figure: string, base: number, now: number, higherIsBetter: boolean, judged: boolean): void => {
      if (!Number.isFinite(now) || !Number.isFinite(base)) return;
      const changePct = base > 0 ? ((now - base) / base) * 100 : now === 0 ? 0 : Infinity;
      const worsePct = higherIsBetter ? -changePct : changePct;
      const regressed = judged && base > 0 && worsePct > maxRegressionPct;
      comparisons.push({ scenario: s.name, figure, baseline: base, current: now, changePct, judged, regressed });
      if (regressed) regressions.push({ scenario: s.name, figure, baseline: base, current: now, worsePct });
    };
    compare("rps", b.rps, s.rps, true, s.model === "closed" && b.model === "closed");
    compare("p50_us", b.p50Us, s.latency.p50Us, false, true);
    compare("p99_us", b.p99Us, s.latency.p99Us, false, true);
  }
  return { regressions, missing, comparisons };
}
