/**
 * Planner benchmark, in one process and one run:
 *  1. a day: 24 virtual hours of one endpoint at 100 jobs/s (Poisson; 90 fixed workers, exponential
 *     service of mean 810 ms: rho 0.9) with every planner metric collected (8.64 million jobs);
 *  2. an M/M/c: c = 8, rho = 0.9, exponential service of 1 s, 2 million jobs in 10 seeds of
 *     200,000, whose mean wait is compared with Erlang C (95% Student t interval across the seeds);
 *  3. a sweep of 8 points x 4 seeds (M/M/c at 20 jobs/s, c = 10..17, 8 hours each) on worker threads,
 *     one per core; its parallel efficiency is the
 *     serial time of the 32 runs (measured on 2 of them in this thread) over cores x wall time,
 *     thread start-up included.
 * Figures only: nothing here asserts on time. Prints progress, then last exactly one line:
 *   plan_jobs_per_s=N plan_day_s=D mmc_jobs_per_s=M mmc_wait_vs_erlang=E parallel_efficiency=P peak_rss_mb=R
 * Targets: D < 5, M >= 1,700,000, E's interval holding 1, P >= 0.8, R < 500.
 * Environment: BENCH_DAY_HOURS (default 24), BENCH_MMC_JOBS (default 2,000,000).
 */
import { loadCatalog } from "../catalog/index.ts";
import { runSeed } from "../plan/run-seed.ts";
import { plan } from "../plan/plan.ts";
import { defaultWorkers } from "../plan/pool.ts";
import type { LoadedScenario, Scenario } from "../plan/scenario.ts";
import { erlangCMeanWait, estimate } from "../plan/stats.ts";

const DAY_HOURS = Number(process.env.BENCH_DAY_HOURS ?? 24);
const MMC_JOBS = Number(process.env.BENCH_MMC_JOBS ?? 2_000_000);
const MMC_SEEDS = 10;
const log = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const rssNow = () => `rss ${fmt(process.memoryUsage().rss / 2 ** 20)} MB, peak ${fmt(process.resourceUsage().maxRSS / 1024)} MB`;

function fixedPool(name: string, c: number, perSecond: number, meanMs: number, hours: number, warmupMinutes: number): Scenario {
  return {
    name,
    description: `${c} fixed workers, Poisson ${perSecond}/s, exponential ${meanMs} ms`,
    hours,
    warmupMinutes,
    outsideDemand: { intensity: 0 },
    gpuSupply: { "NVIDIA A100 80GB PCIe": 256 },
    endpoints: [{ id: "bench", gpuTypeIds: ["NVIDIA A100 80GB PCIe"], workersMin: c, workersMax: c, coldStartMs: { mean: 0, cv: 0 }, executionMs: { dist: "exponential", mean: meanMs } }],
    jobs: [{ endpoint: "bench", perSecond }],
  };
}
const loaded = (scenario: Scenario): LoadedScenario => ({ scenario, label: scenario.name, traces: {} });
const catalog = loadCatalog();

// 1. The day.
log(`plan benchmark: day ${DAY_HOURS} h at 100 jobs/s; M/M/8 at rho 0.9 for ${fmt(MMC_JOBS)} jobs; sweep 8 x 4 on ${defaultWorkers()} cores`);
const cpuS = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};
const dayCpu = process.cpuUsage();
const dayStart = performance.now();
const day = runSeed(loaded(fixedPool("day", 90, 100, 810, DAY_HOURS, 0)), { seed: 1, catalog });
const dayS = (performance.now() - dayStart) / 1000;
const dayCpuS = cpuS(dayCpu);
const de = day.endpoints[0];
log(`day: ${fmt(day.jobsSubmitted)} jobs in ${dayS.toFixed(2)} s: completed ${fmt(de.completed)}, unfinished ${de.unfinished.queued + de.unfinished.running}, delay p99 ${de.delayMs.p99} ms, GPU-s ${fmt(de.gpuSeconds)}, cost $${de.costUsd.toFixed(2)}; ${rssNow()}`);

// 2. M/M/c.
const lambda = 7.2;
const perSeedHours = MMC_JOBS / MMC_SEEDS / lambda / 3600;
const mmcScenario = loaded(fixedPool("mmc", 8, lambda, 1000, perSeedHours + 1 / 6, 10));
let mmcJobs = 0;
const waits: number[] = [];
const mmcCpu = process.cpuUsage();
const mmcStart = performance.now();
for (let s = 0; s < MMC_SEEDS; s++) {
  const r = runSeed(mmcScenario, { seed: 100 + s, catalog });
  mmcJobs += r.jobsSubmitted;
  waits.push(r.endpoints[0].delayMs.mean / 1000);
}
const mmcS = (performance.now() - mmcStart) / 1000;
const mmcCpuS = cpuS(mmcCpu);
const erlang = erlangCMeanWait(8, lambda, 1);
const w = estimate(waits);
const ratio = w.mean / erlang;
const inside = (w.lo as number) <= erlang && erlang <= (w.hi as number);
log(
  `mmc: ${fmt(mmcJobs)} jobs in ${mmcS.toFixed(2)} s; mean wait ${w.mean.toFixed(4)} s, 95% interval [${(w.lo as number).toFixed(4)}, ${(w.hi as number).toFixed(4)}] ` +
    `(ratio [${((w.lo as number) / erlang).toFixed(4)}, ${((w.hi as number) / erlang).toFixed(4)}]); Erlang C ${erlang.toFixed(4)} s: ${inside ? "inside" : "OUTSIDE"} the interval; ${rssNow()}`,
);

// 3. Sweep on worker threads. This thread's garbage from the runs above goes first: the peak RSS
// is of the whole process, this thread and the workers together.
(globalThis as { gc?: () => void }).gc?.();
// 20 jobs/s for 8 hours per run (576,000 jobs): as many jobs as the day's 100/s for 1.6 hours, with
// a fifth of the jobs held for their 30-minute retention at a time, so 2 threads stay well within memory.
const sweepScenario = loaded(fixedPool("sweep", 10, 20, 400, 8, 0));
const cores = defaultWorkers();
const serialStart = performance.now();
runSeed(sweepScenario, { seed: 7, catalog });
runSeed(sweepScenario, { seed: 8, catalog });
const serialPerRun = (performance.now() - serialStart) / 2;
const sweepStart = performance.now();
await plan({ loaded: sweepScenario, seed: 1, seeds: 4, sweep: ["workers=10,11,12,13,14,15,16,17"], workers: cores });
const sweepS = (performance.now() - sweepStart) / 1000;
const efficiency = (32 * serialPerRun) / 1000 / (cores * sweepS);
log(`sweep: 32 runs in ${sweepS.toFixed(2)} s on ${cores} threads; one run alone ${(serialPerRun / 1000).toFixed(2)} s; ${rssNow()}`);
log(
  `cpu time (the machine may be shared; wall time is the figure): day ${dayCpuS.toFixed(2)} cpu-s for ${dayS.toFixed(2)} s wall, ` +
    `M/M/8 ${fmt(mmcJobs / mmcCpuS)} jobs per cpu-second`,
);

const rss = process.resourceUsage().maxRSS / 1024;
log(
  `plan_jobs_per_s=${Math.round(day.jobsSubmitted / dayS)} plan_day_s=${dayS.toFixed(2)} mmc_jobs_per_s=${Math.round(mmcJobs / mmcS)} ` +
    `mmc_wait_vs_erlang=${ratio.toFixed(4)} parallel_efficiency=${efficiency.toFixed(2)} peak_rss_mb=${Math.round(rss)}`,
);
