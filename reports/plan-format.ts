/** Number formatting shared by the planner's text, CSV and HTML reports. */
import type { PlanEstimate } from "./plan-report.ts";

/** A count or amount with thousands separators and sensible precision. */
export function num(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "n/a";
  const a = Math.abs(x);
  if (a >= 1000 || Number.isInteger(x)) return Math.round(x).toLocaleString("en-US");
  if (a >= 100) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  if (a === 0) return "0";
  return x.toPrecision(2);
}

/** Milliseconds as ms, s, min or h. */
export function dur(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "n/a";
  if (ms < 1000) return `${num(ms)} ms`;
  if (ms < 120_000) return `${num(ms / 1000)} s`;
  if (ms < 7_200_000) return `${num(ms / 60_000)} min`;
  return `${num(ms / 3_600_000)} h`;
}

export function usd(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "n/a";
  return x >= 100 ? `$${Math.round(x).toLocaleString("en-US")}` : x >= 1 ? `$${x.toFixed(2)}` : `$${x.toPrecision(3)}`;
}

/** `mean [lo, hi]`, or the mean alone without an interval. */
export function est(e: PlanEstimate | null, f: (x: number) => string = num): string {
  if (e === null) return "n/a";
  if (e.lo === null || e.hi === null || e.lo === e.hi) return f(e.mean);
  return `${f(e.mean)} [${f(e.lo)}, ${f(e.hi)}]`;
}
