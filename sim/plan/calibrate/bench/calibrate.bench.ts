/**
 * `npm run bench:calibrate`: calibration against hidden truth, at full size. The emulator runs in
 * real time in a child process (`cpsim serve --scenario`) with endpoint settings the calibrator is
 * not given; the calibrator measures it at one level (ρ ≈ 0.5) for --duration seconds, fits,
 * predicts a level 1.5 times higher, and that level is measured for as long. Then `cpsim load`
 * runs status-poll at 1, 2, 4, 8 and 16 connections, interleaved as `--sweep-connections` does
 * (a warm-up, then 7 rounds of 2 s per count, the order rotated each round: machine-load drift hits
 * every count alike), the USL is fitted to the medians at 1..8 and its throughput predicted at 16
 * is compared with the median measured at 16.
 * Last line: calib_p50_error=E1 calib_p99_error=E2 usl_peak_error=E3 calib_cpu_s=C
 *   E1: p50 latency (delay + run time; the p50 delay is often 0), E2: p99 queueing delay,
 *   each |predicted median − measured| / measured at the 1.5× level; E3: |USL(16) − median(16)| / median(16);
 *   C: CPU seconds of the fit and the prediction (target: E2 ≤ 0.2, E3 ≤ 0.15, C < 30).
 * Options: --duration S (default 120) --seed N (default 1).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packagePath } from "../../../package-root.ts";
import { measureInterleaved } from "../../../../load/interleaved-rounds.ts";
import { calibrate, measuredPercentiles } from "../calibrate.ts";
import { measureJobs } from "../measure-jobs.ts";
import { predict } from "../predict.ts";
import { fitUsl, uslLevels, uslThroughput } from "../usl.ts";

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isFinite(n) || n < 0 || n > 3600) throw new Error(`--${name} must be a number in [0, 3600], got ${process.argv[i + 1]}`);
  return n;
}

const durationS = option("duration", 120);
const seed = option("seed", 1);
const KEY = "cpsim_load_exempt_5b0e8d3a6c1f9247";
// The hidden truth: 4 fixed workers, lognormal run times of mean 250 ms (cv 0.7), 2 s cold starts.
const hidden = {
  name: "bench-hidden",
  description: "the truth the calibrator must find",
  hours: 1,
  outsideDemand: { intensity: 0 },
  endpoints: [{ id: "hidden", gpuTypeIds: ["NVIDIA A100 80GB PCIe"], workersMin: 4, workersMax: 4, coldStartMs: { mean: 2000, cv: 0.3 }, executionMs: { dist: "lognormal", mean: 250, cv: 0.7 } }],
};
const rate1 = 8; // ρ = 8 × 0.25 / 4 = 0.5
const rate2 = rate1 * 1.5;

const dir = mkdtempSync(join(tmpdir(), "cpsim-bench-calib-"));
writeFileSync(join(dir, "hidden.json"), JSON.stringify(hidden));
const ready = join(dir, "ready.json");
const child = spawn(process.execPath, [packagePath("bin", "cpsim.js"), "serve", "--port", "0", "--clock", "real", "--scenario", join(dir, "hidden.json"), "--ready-file", ready], { stdio: "ignore" });
const stop = () => child.kill("SIGTERM");
process.on("exit", stop);
for (let i = 0; i < 600 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 100));
const { baseUrl, serverlessUrl } = JSON.parse(readFileSync(ready, "utf8")) as { baseUrl: string; serverlessUrl: string };

console.log(`measuring ${durationS} s at ${rate1} jobs/s...`);
const m1 = await measureJobs({ serverlessUrl, apiKey: KEY, endpoint: "hidden", perSecond: rate1, durationS, seed });
const cpu0 = process.cpuUsage();
const { scenario, calibration } = calibrate([m1], { seed });
const p = predict({ scenario, label: "calibrated", traces: {} }, { perSecond: rate2, windowS: durationS, seed });
const cpu = process.cpuUsage(cpu0);
const cpuS = (cpu.user + cpu.system) / 1e6;
console.log(`fitted: ${JSON.stringify(scenario.endpoints)}; run times ${calibration.runTimes[0].chosen}`);
console.log(`measuring ${durationS} s at ${rate2} jobs/s...`);
const m2 = await measureJobs({ serverlessUrl, apiKey: KEY, endpoint: "hidden", perSecond: rate2, durationS, seed: seed + 1 });
const measured = measuredPercentiles([m2]);
const e50 = Math.abs(p.latencyMs.p50.median - measured.latencyMs.p50) / measured.latencyMs.p50;
const e99 = Math.abs(p.delayMs.p99.median - measured.delayMs.p99) / measured.delayMs.p99;
console.log(`at ${rate2}/s: p50 latency predicted ${JSON.stringify(p.latencyMs.p50)} measured ${measured.latencyMs.p50}; p99 delay predicted ${JSON.stringify(p.delayMs.p99)} measured ${measured.delayMs.p99}`);

const io = { stdout: () => {}, stderr: () => {} };
const loadOptions = { target: baseUrl, apiKey: KEY, scenarios: ["status-poll"], durationS: 14, seed, progress: false };
const swept = await measureInterleaved({ ...loadOptions, reportDir: join(dir, "sweep") }, [1, 2, 4, 8, 16], { rounds: 7 }, { io });
const points = swept.scenarios[0]?.points ?? [];
const levels = uslLevels(points);
const fit = fitUsl(points.filter((p) => p.concurrency <= 8));
const x16 = levels.find((l) => l.concurrency === 16)?.throughput ?? Number.NaN;
const predicted16 = uslThroughput(fit, 16);
const eUsl = Math.abs(predicted16 - x16) / x16;
console.log(`sweep (${swept.method}): ${levels.map((l) => `c${l.concurrency} median ${l.throughput.toFixed(0)}/s [${l.min.toFixed(0)}..${l.max.toFixed(0)}] spread ${(l.relSpread * 100).toFixed(1)}%`).join("; ")}`);
console.log(`USL: ${JSON.stringify({ lambda: fit.lambda, sigma: fit.sigma, kappa: fit.kappa, peak: fit.peakThroughput, at: fit.peakConcurrency })}; at 16 predicted ${predicted16.toFixed(0)}/s, measured median ${x16.toFixed(0)}/s`);
stop();
console.log(`calib_p50_error=${e50.toFixed(3)} calib_p99_error=${e99.toFixed(3)} usl_peak_error=${eUsl.toFixed(3)} calib_cpu_s=${cpuS.toFixed(2)}`);
// Keep-alive sockets to the stopped server would hold the process a few seconds more.
process.exit(0);
