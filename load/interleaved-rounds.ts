/**
 * Throughput at several connection counts, measured so that a busy machine does not bias it: one
 * discarded warm-up run at the largest count (the target's and the client's JIT, connection
 * pools), then R rounds, each running every count once for a short while, the order rotated one
 * place each round (each count takes each place in the round as often as the others). Drift of the
 * machine's load over the sweep then hits every count alike, and the median of a count's rounds
 * shrugs off a round that another process disturbed. The embedded emulator (no --target) is
 * started once for all the runs. Bounded: (R + 1 warm-up) × counts runs of --duration / R each.
 */
import { join } from "node:path";
import type { UslPoint } from "../sim/plan/calibrate/usl.ts";
import { startChildEmulator, type ChildEmulator } from "./emulator-child.ts";
import { load, type LoadDeps, type LoadResult } from "./load.ts";
import type { LoadOptions } from "./options.ts";

export interface RoundOptions {
  /** Rounds (default 5); each count is measured once per round. */
  readonly rounds: number;
  /** Discard one run at the largest count first (default true). */
  readonly warmup: boolean;
}

export interface InterleavedRun {
  readonly connections: number;
  /** 1..R; 0 for the warm-up. */
  readonly round: number;
  readonly result: LoadResult;
}

export const DEFAULT_ROUNDS = 5;
/** Each count's measuring time over all rounds when --duration is not given, s. */
export const DEFAULT_SWEEP_S = 10;

/** Round r's order: the counts rotated r places (a Latin square over the rounds when R = counts). */
export function roundOrder(counts: readonly number[], round: number): number[] {
  const k = round % counts.length;
  return [...counts.slice(k), ...counts.slice(0, k)];
}

export async function measureInterleaved(
  options: Partial<LoadOptions>,
  counts: readonly number[],
  o: Partial<RoundOptions> = {},
  deps: LoadDeps = {},
): Promise<{
  exitCode: number;
  runs: InterleavedRun[];
  scenarios: Array<{ scenario: string; points: UslPoint[] }>;
  rounds: number;
  runSeconds: number;
  warmup: boolean;
  method: string;
}> {
  const rounds = Math.max(1, Math.floor(o.rounds ?? DEFAULT_ROUNDS));
  const warmup = o.warmup ?? true;
  const runSeconds = Math.max(0.1, (options.durationS ?? DEFAULT_SWEEP_S) / rounds);
  const dir = options.reportDir ?? ".";
  const method =
    `interleaved: ${warmup ? `a discarded warm-up at ${Math.max(...counts)} connections, then ` : ""}${rounds} round(s) of ${runSeconds} s per count, ` +
    "the order rotated each round; per count the median of its rounds, the USL fitted on the medians weighted by their spread";
  // One embedded emulator for every run, stopped at the end (each load() would start its own).
  let shared: ChildEmulator | undefined;
  const start = deps.startEmulator ?? startChildEmulator;
  const runDeps: LoadDeps = options.target !== undefined ? deps : {
    ...deps,
    startEmulator: async (seed) => {
      shared ??= await start(seed);
      return { ...shared, stop: async () => {} };
    },
  };
  const runs: InterleavedRun[] = [];
  let exitCode = 0;
  try {
    const plan: Array<{ connections: number; round: number }> = warmup ? [{ connections: Math.max(...counts), round: 0 }] : [];
    for (let r = 1; r <= rounds; r++) for (const n of roundOrder(counts, r - 1)) plan.push({ connections: n, round: r });
    for (const step of plan) {
      const reportDir = step.round === 0 ? join(dir, "warmup") : join(dir, `c${step.connections}`, `round-${step.round}`);
      const result = await load({ ...options, connections: step.connections, durationS: runSeconds, reportDir, json: false }, runDeps);
      runs.push({ ...step, result });
      if (result.exitCode === 2) return { exitCode: 2, runs, scenarios: [], rounds, runSeconds, warmup, method };
      if (step.round > 0) exitCode = Math.max(exitCode, result.exitCode);
    }
  } finally {
    await shared?.stop();
  }
  const measuredRuns = runs.filter((r) => r.round > 0);
  const names = [...new Set(measuredRuns.flatMap((r) => (r.result.report?.scenarios ?? []).map((s) => s.name)))];
  const scenarios = names.map((scenario) => ({
    scenario,
    points: measuredRuns.flatMap((r) => (r.result.report?.scenarios ?? []).filter((s) => s.name === scenario && s.skipped === undefined).map((s) => ({ concurrency: r.connections, throughput: s.rps }))),
  }));
  return { exitCode, runs, scenarios, rounds, runSeconds, warmup, method };
}
