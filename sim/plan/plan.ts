/**
 * `cpsim plan` as a library: seeded what-if experiments on a scenario. Every (point, seed) pair
 * is a task; tasks run on worker threads, or a share of them per shard (`shard`), and the report
 * is aggregated from the seed results alone, so one run, any number of workers and merged shards
 * give the same report byte for byte.
 */
import { createHash } from "node:crypto";
import type { PlanReport } from "../../reports/plan-report.ts";
import { UsageError } from "../cli/args.ts";
import { aggregate, type ReportMeta } from "./aggregate.ts";
import { applyParam, checkValue, parseSweep, resolveParam, type ParamRef } from "./params.ts";
import type { PlanTask } from "./plan-worker.ts";
import { runTasks, TaskRunner } from "./pool.ts";
import { ScenarioError, type LoadedScenario, type Scenario } from "./scenario.ts";
import type { SeedResult } from "./seed-result.ts";
import { checkPlanArguments } from "./library-arguments.ts";
import { parseSlo, type SloTerm } from "./slo.ts";

/** At most this many (point, seed) runs in one plan: a limit on everything. */
export const MAX_RUNS = 100_000;
/** At most this many points a --find evaluates. */
export const MAX_FIND_STEPS = 24;

export interface FindOptions {
  readonly param: string;
  readonly slo: string;
  /** Search range; the parameter's default when absent. */
  readonly range?: readonly [number, number];
}

export interface PlanOptions {
  readonly loaded: LoadedScenario;
  /** The first seed; seeds are seed, seed+1, ... */
  readonly seed: number;
  readonly seeds: number;
  readonly hours?: number;
  /** `PARAM=v1,v2,...`; several give their cartesian product. */
  readonly sweep?: readonly string[];
  readonly find?: FindOptions;
  readonly workers: number;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface ShardFile {
  readonly format: "cpsim-plan-shard/1";
  /** Equal for every shard of one plan: a hash of the scenario and the options that shape results. */
  readonly planKey: string;
  readonly shard: { readonly index: number; readonly count: number };
  readonly totalRuns: number;
  readonly meta: ReportMeta;
  readonly results: SeedResult[];
}

interface Experiment {
  readonly meta: ReportMeta;
  readonly tasks: PlanTask[];
}

function seedList(o: PlanOptions): number[] {
  if (!(Number.isSafeInteger(o.seeds) && o.seeds >= 1)) throw new UsageError(`--seeds must be a whole number >= 1, got ${o.seeds}`);
  return Array.from({ length: o.seeds }, (_, i) => (o.seed + i) >>> 0);
}

function withScenario(loaded: LoadedScenario, scenario: Scenario): LoadedScenario {
  return { ...loaded, scenario };
}

/** The points of a sweep (the cartesian product of its parameters) and their tasks. */
function experiment(o: PlanOptions): Experiment {
  const s = o.loaded.scenario;
  const seeds = seedList(o);
  const sweeps = (o.sweep ?? []).map((text) => parseSweep(s, text));
  let points: Array<{ params: Record<string, number>; scenario: Scenario }> = [{ params: {}, scenario: s }];
  for (const { param, values } of sweeps) {
    points = points.flatMap((p) => values.map((v) => ({ params: { ...p.params, [param.name]: v }, scenario: applyParam(p.scenario, param, v) })));
  }
  const runs = points.length * seeds.length;
  if (runs > MAX_RUNS) throw new UsageError(`${points.length} points × ${seeds.length} seeds = ${runs} runs; at most ${MAX_RUNS}: fewer values or seeds`);
  const tasks: PlanTask[] = [];
  points.forEach((p, point) => {
    for (const seed of seeds) tasks.push({ loaded: withScenario(o.loaded, p.scenario), point, seed, hours: o.hours ?? p.scenario.hours });
  });
  return {
    meta: {
      scenario: s.name,
      description: s.description,
      seeds,
      hours: o.hours ?? s.hours,
      warmupMinutes: s.warmupMinutes ?? 0,
      sweep: sweeps.map(({ param, values }) => ({ param: param.name, values })),
      pointParams: points.map((p) => p.params),
    },
    tasks,
  };
}

function planKey(loaded: LoadedScenario, meta: ReportMeta): string {
  return createHash("sha256").update(JSON.stringify({ scenario: loaded.scenario, traces: loaded.traces, meta })).digest("hex").slice(0, 32);
}

/** Runs the whole plan (a sweep, or one point) and returns its report. */
export async function plan(o: PlanOptions): Promise<PlanReport> {
  checkPlanArguments(o);
  if (o.find !== undefined) return findPlan(o, o.find);
  const { meta, tasks } = experiment(o);
  const { results } = await runTasks(tasks, { workers: o.workers, onProgress: o.onProgress });
  return aggregate(meta, results);
}

/** Runs shard `index` of `count`: runs whose number modulo count is index. */
export async function planShard(o: PlanOptions, index: number, count: number): Promise<ShardFile> {
  checkPlanArguments(o, "planShard(options, index, count)");
  if (o.find !== undefined) throw new UsageError("--find searches step by step and cannot be sharded; shard a --sweep instead");
  if (!(Number.isSafeInteger(count) && count >= 1 && Number.isSafeInteger(index) && index >= 0 && index < count)) {
    throw new UsageError(`shard ${index}/${count}: the index must be in 0..${count - 1}`);
  }
  const { meta, tasks } = experiment(o);
  const mine = tasks.filter((_, i) => i % count === index);
  const { results } = await runTasks(mine, { workers: o.workers, onProgress: o.onProgress });
  return { format: "cpsim-plan-shard/1", planKey: planKey(o.loaded, meta), shard: { index, count }, totalRuns: tasks.length, meta, results };
}

/** Shard files of one plan → the report a single run gives. Checks that they belong together and that none is missing. */
export function mergeShards(files: ReadonlyArray<{ readonly name: string; readonly shard: ShardFile }>): PlanReport {
  if (files.length === 0) throw new UsageError("--merge found no shard files (plan-shard-*.json); run cpsim plan --shard i/n --out DIR first");
  const first = files[0];
  for (const f of files) {
    if (f.shard.format !== "cpsim-plan-shard/1") throw new ScenarioError(`${f.name}: not a cpsim plan shard file`);
    if (f.shard.planKey !== first.shard.planKey) {
      throw new ScenarioError(`${f.name} belongs to another plan than ${first.name} (scenario, seeds, hours or sweep differ)`);
    }
  }
  const count = first.shard.shard.count;
  const seen = new Set<number>();
  for (const f of files) {
    if (f.shard.shard.count !== count) throw new ScenarioError(`${f.name} is shard ${f.shard.shard.index}/${f.shard.shard.count}, ${first.name} one of ${count}`);
    if (seen.has(f.shard.shard.index)) throw new ScenarioError(`shard ${f.shard.shard.index}/${count} given twice (${f.name})`);
    seen.add(f.shard.shard.index);
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length > 0) throw new ScenarioError(`missing shard(s) ${missing.map((i) => `${i}/${count}`).join(", ")}: every shard is needed for the report`);
  const results = files.flatMap((f) => f.shard.results);
  if (results.length !== first.shard.totalRuns) throw new ScenarioError(`the shards hold ${results.length} runs, the plan has ${first.shard.totalRuns}`);
  return aggregate(first.shard.meta, results);
}

// ---------------------------------------------------------------- --find

interface Evaluated {
  readonly value: number;
  readonly results: SeedResult[];
  readonly pass: boolean;
  readonly cost: number;
  readonly figures: Array<{ metric: string; bound: number; limit: number }>;
}

function grid(param: ParamRef, range: readonly [number, number]): number[] {
  const [lo, hi] = range;
  checkValue(param, lo);
  checkValue(param, hi);
  if (!(lo < hi)) throw new UsageError(`--range ${lo}..${hi}: the low end must be below the high end`);
  if (param.info.integer && hi - lo <= 4096) return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  const n = 64;
  const values = Array.from({ length: n + 1 }, (_, i) => lo + ((hi - lo) * i) / n);
  return [...new Set(values.map((v) => (param.info.integer ? Math.round(v) : Number(v.toPrecision(6)))))];
}

/** The figure an SLO term judges, at its upper 95% bound (the mean with one seed). */
function judge(report: PlanReport, endpoints: readonly string[], terms: readonly SloTerm[]): Pick<Evaluated, "pass" | "figures" | "cost"> {
  const point = report.points[0];
  const figures: Evaluated["figures"] = [];
  let pass = true;
  let cost = 0;
  for (const e of point.endpoints) {
    cost += e.costUsd.mean;
    if (endpoints.length > 0 && !endpoints.includes(e.endpoint)) continue;
    for (const t of terms) {
      let est;
      if (t.metric === "costPer1000") est = e.costPer1000;
      else est = (t.metric === "delay" ? e.delayAllMs : e.executionMs)[t.stat as "p50"];
      const bound = est === null ? Infinity : (est.hi ?? est.mean);
      figures.push({ metric: `${e.endpoint} ${t.text.split("<")[0].trim()}`, bound, limit: t.limit });
      if (!(bound < t.limit)) pass = false;
    }
  }
  return { pass, figures, cost };
}

async function findPlan(o: PlanOptions, find: FindOptions): Promise<PlanReport> {
  const s = o.loaded.scenario;
  const param = resolveParam(s, find.param);
  const terms = parseSlo(find.slo);
  if ((o.sweep ?? []).length > 0) throw new UsageError("--find and --sweep do not combine: --find chooses the values itself");
  const range = find.range ?? param.info.range;
  if (range === undefined) throw new UsageError(`--find ${param.name}: give --range LO..HI (no default range for this parameter)`);
  const values = grid(param, range);
  const seeds = seedList(o);
  const runner = new TaskRunner(Math.max(1, Math.min(o.workers, seeds.length)));
  try {
    return await search(o, find, param, terms, range, values, seeds, runner);
  } finally {
    await runner.close();
  }
}

async function search(
  o: PlanOptions,
  find: FindOptions,
  param: ParamRef,
  terms: readonly SloTerm[],
  range: readonly [number, number],
  values: readonly number[],
  seeds: readonly number[],
  runner: TaskRunner,
): Promise<PlanReport> {
  const s = o.loaded.scenario;
  const cache = new Map<number, Evaluated>();
  const order: number[] = [];
  const evaluate = async (i: number): Promise<Evaluated> => {
    const v = values[i];
    const hit = cache.get(v);
    if (hit !== undefined) return hit;
    if (order.length >= MAX_FIND_STEPS) throw new ScenarioError(`--find stopped after ${MAX_FIND_STEPS} evaluations`);
    const scenario = applyParam(s, param, v);
    const tasks = seeds.map((seed) => ({ loaded: withScenario(o.loaded, scenario), point: 0, seed, hours: o.hours ?? scenario.hours }));
    const { results } = await runner.run(tasks, o.onProgress);
    const one = aggregate(metaOf(o, [{ [param.name]: v }]), results);
    const e: Evaluated = { value: v, results, ...judge(one, param.endpoint === "" ? [] : [param.endpoint], terms) };
    cache.set(v, e);
    order.push(v);
    return e;
  };
  const lo = await evaluate(0);
  const hi = await evaluate(values.length - 1);
  let boundary = -1;
  if (lo.pass !== hi.pass) {
    // Bisection for the first index whose verdict equals hi's (the SLO assumed monotone in the parameter).
    let a = 0;
    let b = values.length - 1;
    while (b - a > 1) {
      const mid = (a + b) >> 1;
      if ((await evaluate(mid)).pass === hi.pass) b = mid;
      else a = mid;
    }
    boundary = hi.pass ? b : a;
    // Neighbours of the answer, so the margin shows.
    if (boundary - 1 >= 0) await evaluate(boundary - 1);
    if (boundary + 1 < values.length) await evaluate(boundary + 1);
  }
  const passing = [...cache.values()].filter((e) => e.pass).sort((x, y) => x.cost - y.cost || x.value - y.value);
  const answer = passing.length > 0 ? passing[0].value : null;
  // Points in order of value; the report is aggregated from every evaluated run.
  const evaluatedSorted = [...cache.values()].sort((x, y) => x.value - y.value);
  const results = evaluatedSorted.flatMap((e, point) => e.results.map((r) => ({ ...r, point })));
  const report = aggregate(metaOf(o, evaluatedSorted.map((e) => ({ [param.name]: e.value }))), results);
  const bound = (e: Evaluated) => e.figures.map((f) => `${f.metric} ≤ ${fmtBound(f.bound, f.metric)}`).join(", ");
  const describe = (e: Evaluated) => `${param.name}=${e.value} ${e.pass ? "meets" : "misses"} it (${bound(e)}; $${e.cost.toFixed(2)})`;
  let text: string;
  if (answer === null) {
    text = `no value of ${param.name} in ${range[0]}..${range[1]} meets "${find.slo}" at the upper 95% bound; widest tried: ${describe(hi)}`;
  } else {
    const chosen = cache.get(answer) as Evaluated;
    const idx = values.indexOf(answer);
    const near = [values[idx - 1], values[idx + 1]].map((v) => (v === undefined ? undefined : cache.get(v))).filter((e): e is Evaluated => e !== undefined);
    text = `cheapest ${param.name} meeting "${find.slo}" at the upper 95% bound: ${answer} (${bound(chosen)}; $${chosen.cost.toFixed(2)} for the run)` +
      (near.length > 0 ? `; neighbours: ${near.map(describe).join("; ")}` : "");
  }
  const points = report.points.map((p, i) => ({ ...p, slo: { pass: evaluatedSorted[i].pass, figures: evaluatedSorted[i].figures.map((f) => ({ ...f, bound: Number.isFinite(f.bound) ? f.bound : -1 })) } }));
  const notes = [...report.notes];
  if (seeds.length < 2) notes.push("--find with 1 seed judges the mean, not an upper bound: run --seeds 5 or more");
  return { ...report, points, notes, find: { param: param.name, slo: find.slo, range: [range[0], range[1]], answer, evaluated: order, text } };
}

function fmtBound(x: number, metric: string): string {
  if (!Number.isFinite(x)) return "n/a";
  if (metric.includes("cost")) return `$${x.toFixed(4)}`;
  return x >= 1000 ? `${(x / 1000).toPrecision(4)} s` : `${x.toPrecision(4)} ms`;
}

function metaOf(o: PlanOptions, pointParams: Array<Record<string, number>>): ReportMeta {
  const s = o.loaded.scenario;
  return {
    scenario: s.name,
    description: s.description,
    seeds: seedList(o),
    hours: o.hours ?? s.hours,
    warmupMinutes: s.warmupMinutes ?? 0,
    sweep: [],
    pointParams,
  };
}
