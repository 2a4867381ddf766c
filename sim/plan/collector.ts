/**
 * Collects a planning run's figures through the serverless observer hooks: every job submitted
 * after the warm-up is counted once in a final state or as unfinished at the horizon; queue length,
 * workers and throttled workers are integrated exactly between the events that change them; GPU
 * leases are costed from the second they are taken to the second they are given back.
 */
import type { GpuLease } from "../domain/gpu-pool.ts";
import type { JobStatus, ServerlessObserver, TransitionCause } from "../domain/serverless/index.ts";
import { LogHistogram } from "./log-histogram.ts";
import type { BuiltModel, PlannedEndpoint } from "./build-model.ts";
import type { Dist, EndpointSeedResult } from "./seed-result.ts";

const US_PER_S = 1_000_000;
/** Time-series points per endpoint at most; the step is the window over this, in whole seconds. */
export const SERIES_POINTS = 240;

class EndpointFigures {
  submitted = 0;
  completed = 0;
  failed = 0;
  timedOut = 0;
  cancelled = 0;
  expired = 0;
  placementFailures = 0;
  coldStarts = 0;
  readonly delay = new LogHistogram();
  readonly execution = new LogHistogram();
  readonly coldStart = new LogHistogram();
  // Current state.
  queued = 0;
  total = 0;
  initializing = 0;
  throttled = 0;
  last = 0;
  // Integrals over the window, in state-microseconds.
  queueIntegral = 0;
  workerIntegral = 0;
  throttledIntegral = 0;
  heldGpu = 0;
  heldCold = 0;
  heldCap = 0;
  heldScaler = 0;
  maxQueue = 0;
  maxWorkers = 0;
  gpuUs = 0;
  costUsdUs = 0;
  readonly leases = new Map<GpuLease, number>();
  nextSample: number;
  readonly seriesQueued: number[] = [];
  readonly seriesWorkers: number[] = [];
  readonly seriesThrottled: number[] = [];
  /** The endpoint's description; set by bind() once the model is built. */
  plan: PlannedEndpoint | undefined;
  workersMax = Infinity;
  constructor(start: number) {
    this.nextSample = start;
  }
}

export class PlanCollector implements ServerlessObserver {
  // Every endpoint is watched from the model's construction (its minimum workers start then);
  // bind() names the ones reported, once the model exists.
  private readonly byIndex: EndpointFigures[] = [];
  private figures: EndpointFigures[] = [];
  private priceOf: (lease: GpuLease) => number = () => 0;
  readonly stepUs: number;

  constructor(
    private readonly windowStart: number,
    private readonly windowEnd: number,
    endpointCount: number,
  ) {
    for (let i = 0; i < endpointCount; i++) this.byIndex.push(new EndpointFigures(windowStart));
    this.stepUs = Math.max(1, Math.ceil((windowEnd - windowStart) / US_PER_S / SERIES_POINTS)) * US_PER_S;
  }

  bind(endpoints: readonly PlannedEndpoint[], priceOf: (lease: GpuLease) => number): void {
    this.priceOf = priceOf;
    this.figures = endpoints.map((p) => {
      const f = this.byIndex[p.index];
      f.plan = p;
      f.workersMax = p.workersMax;
      return f;
    });
  }

  /** Integrates the state in force from the last change up to `now` (clipped to the window). */
  private advance(f: EndpointFigures, now: number): void {
    // Several hooks in one event: the state in force before it was integrated by the first.
    if (now === f.last) return;
    while (f.nextSample <= now && f.nextSample <= this.windowEnd) {
      f.seriesQueued.push(f.queued);
      f.seriesWorkers.push(f.total - f.throttled);
      f.seriesThrottled.push(f.throttled);
      f.nextSample += this.stepUs;
    }
    const from = f.last > this.windowStart ? f.last : this.windowStart;
    const to = now < this.windowEnd ? now : this.windowEnd;
    f.last = now;
    if (to <= from) return;
    const dt = to - from;
    const holding = f.total - f.throttled;
    if (holding > f.maxWorkers) f.maxWorkers = holding;
    f.workerIntegral += holding * dt;
    if (f.throttled > 0) f.throttledIntegral += f.throttled * dt;
    if (f.queued > 0) {
      const q = f.queued * dt;
      f.queueIntegral += q;
      if (f.throttled > 0) f.heldGpu += q;
      else if (f.initializing > 0) f.heldCold += q;
      else if (f.total >= f.workersMax) f.heldCap += q;
      else f.heldScaler += q;
    }
  }

  jobQueued(endpoint: number, now: number): void {
    const f = this.byIndex[endpoint];
    this.advance(f, now);
    f.queued++;
    if (now >= this.windowStart) {
      f.submitted++;
      if (f.queued > f.maxQueue) f.maxQueue = f.queued;
    }
  }

  jobStarted(endpoint: number, enqueuedAt: number, now: number): void {
    const f = this.byIndex[endpoint];
    this.advance(f, now);
    f.queued--;
    if (enqueuedAt >= this.windowStart) f.delay.record(now - enqueuedAt);
  }

  jobEnded(endpoint: number, status: JobStatus, enqueuedAt: number, startedAt: number, now: number): void {
    const f = this.byIndex[endpoint];
    if (startedAt < 0) {
      this.advance(f, now);
      f.queued--;
    }
    if (enqueuedAt < this.windowStart) return;
    if (status === "COMPLETED") f.completed++;
    else if (status === "FAILED") f.failed++;
    else if (status === "TIMED_OUT") f.timedOut++;
    else f.cancelled++;
    if (startedAt >= 0 && status !== "CANCELLED") f.execution.record(now - startedAt);
  }

  jobDropped(endpoint: number, wasRunning: boolean, enqueuedAt: number, _cause: TransitionCause, now: number): void {
    const f = this.byIndex[endpoint];
    if (!wasRunning) {
      this.advance(f, now);
      f.queued--;
    }
    if (enqueuedAt >= this.windowStart) f.expired++;
  }

  workersChanged(endpoint: number, total: number, initializing: number, throttled: number, now: number): void {
    const f = this.byIndex[endpoint];
    this.advance(f, now);
    f.total = total;
    f.initializing = initializing;
    f.throttled = throttled;
  }

  coldStart(endpoint: number, lease: GpuLease, delayUs: number, now: number): void {
    const f = this.byIndex[endpoint];
    f.leases.set(lease, now);
    if (now >= this.windowStart) {
      f.coldStarts++;
      f.coldStart.record(delayUs);
    }
  }

  leaseReleased(endpoint: number, lease: GpuLease, now: number): void {
    const f = this.byIndex[endpoint];
    const since = f.leases.get(lease);
    f.leases.delete(lease);
    if (since !== undefined) this.chargeLease(f, lease, since, now);
  }

  placementFailed(endpoint: number, now: number): void {
    if (now >= this.windowStart) this.byIndex[endpoint].placementFailures++;
  }

  private chargeLease(f: EndpointFigures, lease: GpuLease, from: number, to: number): void {
    const a = Math.max(from, this.windowStart);
    const b = Math.min(to, this.windowEnd);
    if (b <= a) return;
    const gpuUs = (b - a) * lease.count;
    f.gpuUs += gpuUs;
    f.costUsdUs += gpuUs * this.priceOf(lease);
  }

  /** Closes the window at the horizon (the model has run to windowEnd) and returns the figures. */
  finish(model: BuiltModel): EndpointSeedResult[] {
    const windowS = (this.windowEnd - this.windowStart) / US_PER_S;
    return this.figures.map((f) => {
      this.advance(f, this.windowEnd);
      for (const [lease, since] of f.leases) this.chargeLease(f, lease, since, this.windowEnd);
      let queued = 0;
      let running = 0;
      const ages = new LogHistogram();
      const all = f.delay.clone();
      const plan = f.plan as PlannedEndpoint;
      model.platform.serverless.forEachUnfinished(plan.index, (isRunning, enqueuedAt) => {
        if (enqueuedAt < this.windowStart) return;
        if (isRunning) running++;
        else queued++;
        ages.record(this.windowEnd - enqueuedAt);
        if (!isRunning) all.record(this.windowEnd - enqueuedAt);
      });
      const costUsd = f.costUsdUs / 3600 / US_PER_S;
      const delay = dist(f.delay);
      return {
        endpoint: plan.id,
        config: {
          gpuTypeIds: plan.gpuTypeIds,
          gpuCount: plan.gpuCount,
          workersMin: plan.workersMin,
          workersMax: plan.workersMax,
          scaler: plan.scaler,
          idleTimeoutMs: plan.idleTimeoutMs,
        },
        mmc: plan.mmc ?? null,
        submitted: f.submitted,
        completed: f.completed,
        failed: f.failed,
        timedOut: f.timedOut,
        cancelled: f.cancelled,
        expired: f.expired,
        unfinished: { queued, running, ageMs: dist(ages) },
        delayMs: delay,
        delayAllMs: dist(all),
        executionMs: dist(f.execution),
        coldStarts: { count: f.coldStarts, p99Ms: ms(f.coldStart.percentiles([99])[0]), meanMs: ms(f.coldStart.mean) },
        placementFailures: f.placementFailures,
        throttledWorkerMinutes: round3(f.throttledIntegral / 60 / US_PER_S),
        gpuSeconds: round3(f.gpuUs / US_PER_S),
        costUsd: round6(costUsd),
        costPer1000: f.completed === 0 ? null : round6((costUsd / f.completed) * 1000),
        queue: { mean: round6(f.queueIntegral / (windowS * US_PER_S) || 0), max: f.maxQueue },
        workers: { mean: round6(f.workerIntegral / (windowS * US_PER_S) || 0), max: f.maxWorkers },
        heldBy: {
          gpuStock: round3(f.heldGpu / US_PER_S),
          coldStart: round3(f.heldCold / US_PER_S),
          workerCap: round3(f.heldCap / US_PER_S),
          scaler: round3(f.heldScaler / US_PER_S),
        },
        little: {
          L: round6(f.queueIntegral / (windowS * US_PER_S) || 0),
          lambda: round6(windowS > 0 ? f.submitted / windowS : 0),
          W: round6(delay.mean / 1000),
        },
        series: { queued: f.seriesQueued, workers: f.seriesWorkers, throttled: f.seriesThrottled },
        delayBins: f.delay.coarse(),
      };
    });
  }
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;
/** µs → ms, to the microsecond. */
const ms = (us: number): number => Math.round(us) / 1000;

function dist(h: LogHistogram): Dist {
  if (h.count === 0) return { count: 0, mean: 0, p50: 0, p90: 0, p99: 0, max: 0 };
  const [p50, p90, p99] = h.percentiles([50, 90, 99]);
  return { count: h.count, mean: round6(h.mean / 1000), p50: ms(p50), p90: ms(p90), p99: ms(p99), max: ms(h.max) };
}
