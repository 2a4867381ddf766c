/**
 * Measures a job endpoint at one offered rate: Poisson submissions (seeded) for a bounded time,
 * each job followed with status-sync until it is final, /health sampled all along. Before the
 * first job it waits for the endpoint to settle (no worker initializing, nothing queued), sampling
 * /health, so that cold starts of the workers kept running are seen. The target's RateLimit-Policy
 * is read from the answers, and the offered rate is refused when it would spend more than half of
 * the tightest window's quota (the calibration must not be throttled, nor starve other callers).
 */
import { Agent, request } from "undici";
import { Rng } from "../../core/index.ts";
import { parseRateLimitPolicyHeader } from "../../../load/rate-limit-watch.ts";
import { ScenarioError } from "../scenario.ts";
import type { HealthSample, JobMeasurement, JobSample, RateLimitSeen } from "./measurement.ts";

export interface MeasureOptions {
  /** {serverless_url}: the job endpoints live under /v2/{endpoint}/. */
  readonly serverlessUrl: string;
  readonly apiKey: string;
  readonly endpoint: string;
  readonly perSecond: number;
  readonly durationS: number;
  readonly seed: number;
  /** Job inputs with weights; `{}` when absent. */
  readonly inputs?: ReadonlyArray<{ readonly weight: number; readonly input: Record<string, unknown> }>;
  /** Longest wait for the endpoint to settle before the first job, s (default 120). */
  readonly settleTimeoutS?: number;
  /** Longest wait for the last jobs after the submissions stop, s (default 120). */
  readonly drainTimeoutS?: number;
  readonly healthEveryMs?: number;
  /**
   * After the last job, how long at most to keep sampling /health for idle workers to stop, s
   * (default 60; 0: not at all). It stops sooner when the workers are back to the count the
   * endpoint settled at, or when, after a stop, the count has held for max(5 s, the wait until
   * that first stop).
   */
  readonly idleWatchS?: number;
  /** At most this many jobs (default 20,000). */
  readonly maxJobs?: number;
  readonly onProgress?: (text: string) => void;
}

const FINAL = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

interface Health {
  jobs?: { inQueue?: number; inProgress?: number };
  workers?: { idle?: number; running?: number; initializing?: number; throttled?: number };
}

export async function measureJobs(o: MeasureOptions): Promise<JobMeasurement> {
  if (!(o.perSecond > 0 && o.durationS > 0)) throw new ScenarioError("the measuring rate and duration must be above 0");
  // An agent of its own, closed at the end: no kept-alive socket outlives the measurement.
  const agent = new Agent({ keepAliveTimeout: 2000 });
  try {
    return await measureWith(o, agent);
  } finally {
    await agent.close();
  }
}

async function measureWith(o: MeasureOptions, dispatcher: Agent): Promise<JobMeasurement> {
  const base = `${o.serverlessUrl.replace(/\/+$/, "")}/v2/${encodeURIComponent(o.endpoint)}`;
  const headers = { authorization: `Bearer ${o.apiKey}`, "content-type": "application/json" };
  const errors: Record<string, number> = {};
  const count = (k: string) => (errors[k] = (errors[k] ?? 0) + 1);
  const policies = new Map<string, RateLimitSeen>();
  const notePolicy = (h: Record<string, string | string[] | undefined>) => {
    const v = h["ratelimit-policy"];
    for (const p of parseRateLimitPolicyHeader(Array.isArray(v) ? v.join(", ") : v)) policies.set(p.name, { name: p.name, quota: p.quota, windowS: p.windowS ?? null });
  };
  const health = async (t0: number): Promise<HealthSample | undefined> => {
    try {
      const res = await request(`${base}/health`, { dispatcher, headers, headersTimeout: 10_000, bodyTimeout: 10_000 });
      notePolicy(res.headers);
      const body = (await res.body.json()) as Health;
      if (res.statusCode !== 200) {
        count(`health ${res.statusCode}`);
        return undefined;
      }
      const w = body.workers ?? {};
      const j = body.jobs ?? {};
      return {
        tMs: Math.round(performance.now() - t0),
        idle: w.idle ?? 0, running: w.running ?? 0, initializing: w.initializing ?? 0, throttled: w.throttled ?? 0,
        inQueue: j.inQueue ?? 0, inProgress: j.inProgress ?? 0,
      };
    } catch (err) {
      throw new ScenarioError(`${base}/health is unreachable (${(err as Error).message}); check the serverless URL and the endpoint id`);
    }
  };
  const every = o.healthEveryMs ?? 200;

  // Settle: wait until nothing initializes and nothing is queued, sampling /health.
  const settle: HealthSample[] = [];
  const settleStart = performance.now();
  for (;;) {
    const h = await health(settleStart);
    if (h !== undefined) settle.push(h);
    if (h !== undefined && h.initializing === 0 && h.inQueue === 0 && h.inProgress === 0) break;
    if (performance.now() - settleStart > (o.settleTimeoutS ?? 120) * 1000) break;
    await sleep(every);
  }
  const settleMs = performance.now() - settleStart;
  for (const s of settle) (s as { tMs: number }).tMs = Math.round(s.tMs - settleMs);
  checkRate(o.perSecond, [...policies.values()], o.durationS, 1000 / every);

  // Measure.
  const rng = new Rng(o.seed, "calibrate-arrivals");
  const inputs = o.inputs ?? [{ weight: 1, input: {} }];
  const totalWeight = inputs.reduce((a, b) => a + b.weight, 0);
  const pick = () => {
    let u = rng.next() * totalWeight;
    for (const i of inputs) if ((u -= i.weight) < 0) return i.input;
    return inputs[inputs.length - 1].input;
  };
  const jobs: JobSample[] = [];
  const samples: HealthSample[] = [];
  const t0 = performance.now();
  const endMs = o.durationS * 1000;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const h = await health(t0);
      if (h !== undefined) samples.push(h);
      await sleep(every);
    }
  })();
  const inflight = new Set<Promise<void>>();
  const maxJobs = o.maxJobs ?? 20_000;
  let at = rng.exponential(1000 / o.perSecond);
  let drainDeadline = Infinity;
  while (at < endMs && jobs.length + inflight.size < maxJobs) {
    await sleep(at - (performance.now() - t0));
    const input = pick();
    const op = typeof input.op === "string" ? input.op : "job";
    const submitMs = performance.now() - t0;
    const p = followJob(dispatcher, base, headers, input, notePolicy, count, () => drainDeadline).then((r) => {
      jobs.push({ op, submitMs: Math.round(submitMs * 1000) / 1000, ...r });
    });
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
    at += rng.exponential(1000 / o.perSecond);
    if (o.onProgress !== undefined && jobs.length % 50 === 0) o.onProgress(`measuring at ${o.perSecond}/s: ${Math.round((performance.now() - t0) / 1000)} of ${o.durationS} s`);
  }
  drainDeadline = performance.now() + (o.drainTimeoutS ?? 120) * 1000;
  await Promise.all([...inflight]);
  sampling = false;
  await sampler;
  const floor = settle.length > 0 ? total(settle[settle.length - 1]) : 0;
  const watched = await watchIdle(() => health(t0), floor, o.idleWatchS ?? 60, every);
  jobs.sort((a, b) => a.submitMs - b.submitMs);
  return {
    format: "cpsim-job-measurement/1",
    target: o.serverlessUrl,
    endpoint: o.endpoint,
    startedAt: new Date(Date.now() - (performance.now() - t0)).toISOString(),
    seed: o.seed,
    offeredPerSecond: o.perSecond,
    durationS: o.durationS,
    jobs,
    settle,
    health: samples,
    idle: watched.samples,
    idleWatch: { stopped: watched.stopped, boundS: o.idleWatchS ?? 60 },
    rateLimits: [...policies.values()],
    errors,
  };
}

const total = (h: HealthSample) => h.idle + h.running + h.initializing;

/**
 * After the last job: samples /health until the workers are back to `floor`, or have held still
 * after a stop for max(5 s, the wait until the first stop), or `boundS` passed. A count that never
 * moved above the floor ends it at once (a fixed pool has nothing to watch).
 */
async function watchIdle(sample: () => Promise<HealthSample | undefined>, floor: number, boundS: number, every: number): Promise<{ samples: HealthSample[]; stopped: "floor" | "quiet" | "bound" | "off" }> {
  if (!(boundS > 0)) return { samples: [], stopped: "off" };
  const samples: HealthSample[] = [];
  const start = performance.now();
  let firstStopAfterMs: number | undefined;
  let changedAt = start;
  for (;;) {
    const h = await sample();
    const now = performance.now();
    if (h !== undefined) {
      const prev = samples[samples.length - 1];
      samples.push(h);
      if (total(h) <= floor && h.initializing === 0) return { samples, stopped: "floor" };
      if (prev !== undefined && total(h) !== total(prev)) {
        changedAt = now;
        if (total(h) < total(prev)) firstStopAfterMs ??= now - start;
      }
      if (firstStopAfterMs !== undefined && now - changedAt > Math.max(5000, firstStopAfterMs)) return { samples, stopped: "quiet" };
    }
    if (now - start > boundS * 1000) return { samples, stopped: "bound" };
    await sleep(every);
  }
}

/**
 * Refuses a rate that would spend more than half of any announced window: a job costs two calls at
 * least (run and status-sync) and /health is read `healthPerSecond` times a second, over the part
 * of the window the measurement lasts.
 */
export function checkRate(perSecond: number, limits: readonly RateLimitSeen[], durationS = Infinity, healthPerSecond = 0): void {
  for (const l of limits) {
    if (l.windowS === null || !(l.windowS > 0)) continue;
    const span = Math.min(l.windowS, durationS);
    const calls = (perSecond * 2 + healthPerSecond) * span;
    if (calls > l.quota / 2) {
      const fits = Math.max(0, (l.quota / 2 / span - healthPerSecond) / 2);
      throw new ScenarioError(
        `measuring at ${perSecond} jobs/s for ${sigText(span)} s makes about ${Math.round(calls)} calls in the "${l.name}" window of ${l.windowS} s, more than half its quota of ${l.quota}: ` +
          `measure below ${fits.toPrecision(3)} jobs/s or for less time, or use a key with a higher limit`,
      );
    }
  }
}

const sigText = (x: number) => String(Number(x.toPrecision(4)));

async function followJob(
  dispatcher: Agent,
  base: string,
  headers: Record<string, string>,
  input: Record<string, unknown>,
  notePolicy: (h: Record<string, string | string[] | undefined>) => void,
  count: (k: string) => void,
  deadline: () => number,
): Promise<Omit<JobSample, "op" | "submitMs">> {
  let id: string;
  const sent = performance.now();
  let runMs = 0;
  try {
    const res = await request(`${base}/run`, { dispatcher, method: "POST", headers, body: JSON.stringify({ input }), headersTimeout: 30_000, bodyTimeout: 30_000 });
    notePolicy(res.headers);
    const body = (await res.body.json()) as { id?: string };
    if (res.statusCode !== 200 || typeof body.id !== "string") {
      count(`run ${res.statusCode}`);
      return { status: `HTTP ${res.statusCode}` };
    }
    id = body.id;
    runMs = Math.round((performance.now() - sent) * 1000) / 1000;
  } catch (err) {
    count(`run ${(err as { code?: string }).code ?? "error"}`);
    return { status: "ERROR" };
  }
  while (performance.now() < deadline()) {
    try {
      const res = await request(`${base}/status-sync/${encodeURIComponent(id)}?wait=20000`, { dispatcher, headers, headersTimeout: 60_000, bodyTimeout: 60_000 });
      const body = (await res.body.json()) as { status?: string; delayTime?: number; executionTime?: number };
      if (res.statusCode !== 200) {
        count(`status ${res.statusCode}`);
        if (res.statusCode === 429) {
          await sleep(1000);
          continue;
        }
        return { status: `HTTP ${res.statusCode}` };
      }
      if (body.status !== undefined && FINAL.has(body.status)) {
        return {
          status: body.status,
          runMs,
          ...(typeof body.delayTime === "number" ? { delayMs: body.delayTime } : {}),
          ...(typeof body.executionTime === "number" ? { executionMs: body.executionTime } : {}),
        };
      }
    } catch (err) {
      count(`status ${(err as { code?: string }).code ?? "error"}`);
      await sleep(200);
    }
  }
  return { status: "UNFINISHED" };
}
