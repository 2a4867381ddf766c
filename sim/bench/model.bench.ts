/**
 * Model benchmark: the whole serverless model on one endpoint receiving 100 jobs/s (Poisson) at
 * 90% worker utilization (90 fixed workers, exponential service with mean 810 ms: rho = 100 x
 * 0.81 / 90) over 24 virtual hours, every job kept for its retention (30 minutes after
 * completion), and in the same process the bare-heap hold model of sim/core's engine bench as the
 * reference. Figures only: nothing here asserts on time.
 *
 * Prints progress, then last exactly one line:
 *   model_events_per_s=N jobs_per_s=J peak_rss_mb=M model_vs_bare=R
 * where N counts engine events (arrivals, finishes, worker boots, sweeps), J submitted jobs, M the
 * process's peak resident set, and R = N / bare-heap events per second.
 *
 * Run with `npm run bench:model`. Environment: BENCH_HOURS (default 24), BENCH_ROUNDS (bare-heap
 * rounds, default 3).
 */
import { Engine, Rng } from "../core/index.ts";
import type { HandlerPlan, JobHandler } from "../domain/handlers/index.ts";
import { Serverless } from "../domain/serverless/index.ts";
import { TestPool } from "../domain/serverless/test-pool.ts";
import { mix32 } from "../domain/serverless/job-id.ts";

const SEED = "bench";
const HOURS = Number(process.env.BENCH_HOURS ?? 24);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ARRIVALS_PER_S = 100;
const WORKERS = 90;
const UTILIZATION = 0.9;
const MEAN_SERVICE_MS = (UTILIZATION * WORKERS * 1000) / ARRIVALS_PER_S;
/** As in sim/core/bench/engine.bench.ts: 10k pending events, 100 ms mean gap. */
const BARE_PENDING = 10_000;
const BARE_MEAN_DELAY_US = 100_000;
const BARE_EVENTS = 5_000_000;
const US_PER_S = 1_000_000;

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

const fmt = (n: number): string => Math.round(n).toLocaleString("en-US");

/**
 * An exponential-service handler: pure in (input, seed) as handlers must be. The duration comes
 * from the job's seed, so the model's own seeding drives the service times.
 */
const expHandler: JobHandler = {
  name: "bench-exponential",
  streaming: false,
  plan(_input, ctx): HandlerPlan {
    const u = (mix32(ctx.seed ^ 0x2545f491) + 0.5) / 4294967296;
    return { kind: "complete", durationMs: Math.round(-MEAN_SERVICE_MS * Math.log(u)), output: null };
  },
};

function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

interface ModelResult {
  events: number;
  jobs: number;
  ms: number;
  meanPending: number;
}

function runModel(): ModelResult {
  const engine = new Engine({ seed: SEED });
  const pool = new TestPool({ "NVIDIA A100 80GB PCIe": WORKERS });
  const model = new Serverless(
    engine,
    {
      accounts: [{ id: "bench-account" }],
      endpoints: [
        {
          id: "bench",
          accountId: "bench-account",
          handler: expHandler.name,
          gpuTypeIds: ["NVIDIA A100 80GB PCIe"],
          gpuCount: 1,
          workersMin: WORKERS,
          workersMax: WORKERS,
          idleTimeoutMs: 5000,
          scalerType: "RequestCount",
          scalerValue: 1,
          executionTimeoutMs: 600_000,
          coldStartMs: { mean: 2000, cv: 0.3 },
          slug: null,
        },
      ],
    },
    engine.rng.fork("serverless"),
    pool,
    { resolveHandler: (name) => (name === expHandler.name ? expHandler : undefined) },
  );
  const arrivals = engine.rng.fork("workload");
  const input = Object.freeze({});
  const meanGapUs = US_PER_S / ARRIVALS_PER_S;
  let jobs = 0;
  const arrive = engine.defineKind("workload.arrival", () => {
    model.submitFast(0, 0, input);
    jobs++;
    engine.after(Math.round(arrivals.exponential(meanGapUs)), arrive, 0);
  });
  engine.after(Math.round(arrivals.exponential(meanGapUs)), arrive, 0);

  const end = HOURS * 3600 * US_PER_S;
  const slice = 3600 * US_PER_S;
  let pendingSum = 0;
  let pendingSamples = 0;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  for (let t = slice; t <= end; t += slice) {
    // Sixty sub-steps per slice give a mean of the pending-event count without touching the hot loop.
    for (let k = 1; k <= 60; k++) {
      engine.runUntil(t - slice + (slice / 60) * k);
      pendingSum += engine.pending;
      pendingSamples++;
    }
    const wall = performance.now() - start;
    const st = model.stats();
    const h = model.healthOf(0);
    log(
      `  t=${String(t / slice).padStart(2)}h jobs=${fmt(jobs)} events=${fmt(engine.steps)} wall=${fmt(wall)}ms ` +
        `jobs/s=${fmt((jobs / wall) * 1000)} held=${fmt(st.heldJobs)} inQueue=${h.jobs.inQueue} running=${h.workers.running} ` +
        `rss=${fmt(process.memoryUsage().rss / 2 ** 20)}MB heap=${fmt(process.memoryUsage().heapUsed / 2 ** 20)}MB buffers=${fmt(process.memoryUsage().arrayBuffers / 2 ** 20)}MB`,
    );
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  log(`  cpu ${fmt(cpuMs)} ms for ${fmt(ms)} ms wall: ${fmt((jobs / cpuMs) * 1000)} jobs per cpu-second (the machine is shared; wall time is the figure)`);
  log(`  log hash ${engine.log.hash()} after ${fmt(engine.steps)} events`);
  return { events: engine.steps, jobs, ms, meanPending: pendingSum / pendingSamples };
}

/** The hold model of sim/core's engine bench on the plainest heap: two typed arrays, one sift per event. */
function holdBare(pending: number, events: number): number {
  const rng = new Rng(SEED, "bare");
  const time = new Float64Array(pending);
  const target = new Int32Array(pending);
  let size = 0;
  for (let i = 0; i < pending; i++) {
    const t = Math.round(rng.exponential(BARE_MEAN_DELAY_US));
    let j = size++;
    while (j > 0) {
      const parent = (j - 1) >> 1;
      if (time[parent] <= t) break;
      time[j] = time[parent];
      target[j] = target[parent];
      j = parent;
    }
    time[j] = t;
    target[j] = i;
  }
  const start = performance.now();
  for (let e = 0; e < events; e++) {
    const now = time[0];
    const who = target[0];
    const t = now + Math.round(rng.exponential(BARE_MEAN_DELAY_US));
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      let ct = time[child];
      const right = child + 1;
      if (right < size && time[right] < ct) {
        child = right;
        ct = time[right];
      }
      if (t <= ct) break;
      time[i] = ct;
      target[i] = target[child];
      i = child;
    }
    time[i] = t;
    target[i] = who;
  }
  return (events / (performance.now() - start)) * 1000;
}

log(`model benchmark: seed=${SEED} hours=${HOURS} arrivals=${ARRIVALS_PER_S}/s workers=${WORKERS} mean service=${MEAN_SERVICE_MS}ms rho=${UTILIZATION}`);
holdBare(BARE_PENDING, 1_000_000); // warm-up
let bare = 0;
for (let r = 0; r < ROUNDS; r++) {
  const rate = holdBare(BARE_PENDING, BARE_EVENTS);
  log(`bare heap round ${r + 1}: ${fmt(rate)} events/s (pending ${fmt(BARE_PENDING)})`);
  bare = Math.max(bare, rate);
}
log("model:");
const m = runModel();
const modelRate = (m.events / m.ms) * 1000;
const jobRate = (m.jobs / m.ms) * 1000;
const bareSmall = holdBare(Math.max(1, Math.round(m.meanPending)), BARE_EVENTS);
log(
  `model: ${fmt(m.jobs)} jobs, ${fmt(m.events)} events in ${fmt(m.ms)} ms; mean pending ${m.meanPending.toFixed(1)}; ` +
    `bare heap at that pending size: ${fmt(bareSmall)} events/s (ratio ${(modelRate / bareSmall).toFixed(3)}, for reference)`,
);
log(
  `model_events_per_s=${Math.round(modelRate)} jobs_per_s=${Math.round(jobRate)} peak_rss_mb=${Math.round(peakRssMb())} model_vs_bare=${(modelRate / bare).toFixed(3)}`,
);
