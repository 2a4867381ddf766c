/** The summaries calibrate, validate and `plan --arrival` print. */
import type { Calibration } from "./calibrate.ts";
import type { Band, Prediction } from "./predict.ts";
import type { UslFit } from "./usl.ts";
import type { Validation } from "./validate.ts";

const fmt = (x: unknown): string => (typeof x === "string" ? x : JSON.stringify(x));
const band = (b: Band) => `${b.median} ms [${b.lo}, ${b.hi}]`;

export function renderUslText(u: UslFit): string {
  const lines = [
    `USL: λ ${u.lambda}/s per unit of concurrency, σ ${u.sigma} (contention), κ ${u.kappa} (coherency); relative RMSE ${u.relativeRmse}`,
    Number.isFinite(u.peakConcurrency)
      ? `  predicted peak: ${u.peakThroughput} requests/s at concurrency ${u.peakConcurrency}`
      : `  no peak (κ = 0): throughput approaches ${u.peakThroughput}/s`,
    "  concurrency  measured (median of n, range, spread)        fitted  residual",
    ...u.points.map(
      (p) =>
        `  ${String(p.concurrency).padStart(11)}  ${`${p.throughput.toFixed(1)} (n ${p.n}, ${p.min.toFixed(1)}..${p.max.toFixed(1)}, ${(p.relSpread * 100).toFixed(1)}%)`.padEnd(42)}  ${String(p.fitted).padStart(6)}  ${p.residual}`,
    ),
  ];
  return lines.join("\n") + "\n";
}

export function renderCalibrationText(c: Calibration, usl?: UslFit): string {
  const lines = [`calibrated from ${c.sources.map((s) => `${s.source} (${s.jobs} jobs at ${s.offeredPerSecond}/s for ${s.durationS} s)`).join(", ")}`];
  for (const [k, v] of Object.entries(c.values)) {
    lines.push(`  ${k}: ${fmt(v.value)}${v.interval !== undefined ? ` (95%: ${v.interval[0]}..${v.interval[1]})` : ""}`);
    lines.push(`      from ${v.source}; ${v.method}${v.note !== undefined ? `; ${v.note}` : ""}`);
  }
  for (const r of c.runTimes) {
    lines.push(`  run times of "${r.op}" (${r.n} jobs): ${r.chosen}; ` + r.fits.map((f) => `${f.family} AIC ${f.aic} KS ${f.ks} p ${f.ksP}`).join("; "));
  }
  lines.push(`  measured: delay p50/p90/p99 ${c.measured.delayMs.p50}/${c.measured.delayMs.p90}/${c.measured.delayMs.p99} ms, latency ${c.measured.latencyMs.p50}/${c.measured.latencyMs.p90}/${c.measured.latencyMs.p99} ms`);
  return lines.join("\n") + "\n" + (usl !== undefined ? renderUslText(usl) : "");
}

export function renderPredictionText(p: Prediction): string {
  return [
    `${p.scenario}: ${p.endpoint} at ${p.perSecond} jobs/s, a ${p.windowS} s window${p.start === "cold" ? " from no workers" : " after the warm-up"}, ${p.runs} runs${p.fitUncertainty ? " (each a draw of the fit: its uncertainty is in the intervals)" : ""}; utilisation ${p.utilisation}`,
    "          median [95% interval]",
    `  delay   p50 ${band(p.delayMs.p50)}  p90 ${band(p.delayMs.p90)}  p99 ${band(p.delayMs.p99)}`,
    `  latency p50 ${band(p.latencyMs.p50)}  p90 ${band(p.latencyMs.p90)}  p99 ${band(p.latencyMs.p99)}`,
  ].join("\n") + "\n";
}

export function renderValidationText(v: Validation): string {
  const rows = v.rows.map((r) => `  ${r.metric.padEnd(12)} measured ${String(r.measured).padStart(8)} ms  predicted ${band(r.predicted).padEnd(30)} ${r.inside ? "inside" : "OUTSIDE"}  (error ${(r.error * 100).toFixed(1)}%)`);
  return renderPredictionText(v.prediction) + rows.join("\n") + `\n${v.inside} of ${v.total} measured percentiles inside their predicted 95% intervals\n`;
}
