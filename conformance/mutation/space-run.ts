/**
 * The lenient suite across seeds of the open-choice space (sim/conventions/): one whole-suite run
 * on the emulator's conventions (seed 0), then one per seed, in worker threads (the mutation
 * matrix's suite worker), each judged as space-judged.ts says. Behind `npm run bench:space` and
 * the suite's own test across the space.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Piscina } from "piscina";
import { describeDifferences, drawConventions } from "../../sim/conventions/index.ts";
import { workerExecArgv, workerModule } from "../../sim/package-root.ts";
import type { SuiteOutcome, SuiteTask } from "./run-suite.ts";
import { judgedOf, unjudgedWithoutReason } from "./space-judged.ts";

export interface SeedVerdict {
  readonly seed: number;
  /** The seed's conventions where they differ from the emulator's, as `id=value` words. */
  readonly conventions: string;
  readonly failing: readonly string[];
  readonly targetErrors: number;
  readonly judged: number;
  /** Rules judged on the emulator's conventions, not under the seed's, without a reason. */
  readonly unjudged: readonly string[];
  readonly wallTimeMs: number;
  readonly error?: string;
  /** What each failure expected, and the first target errors. */
  readonly details: readonly string[];
}

export interface SpaceRun {
  readonly reference: SeedVerdict;
  readonly seeds: readonly SeedVerdict[];
}

/** A seed passes: no failure, no target error, every rule judged on the emulator judged. */
export const seedPassed = (v: SeedVerdict): boolean => v.error === undefined && v.failing.length === 0 && v.targetErrors === 0 && v.unjudged.length === 0;

/** One line about a seed; a failing one names the dimension values that broke it. */
export function seedLine(v: SeedVerdict): string {
  const head = `seed ${v.seed}: ${seedPassed(v) ? "pass" : "FAIL"}, ${v.judged} judged, ${(v.wallTimeMs / 1000).toFixed(1)} s`;
  if (seedPassed(v)) return head;
  const why = [
    ...(v.error ? [`error: ${v.error}`] : []),
    ...(v.failing.length ? [`failing: ${v.failing.join(", ")}`] : []),
    ...(v.targetErrors ? [`${v.targetErrors} target error(s)`] : []),
    ...(v.unjudged.length ? [`judged on the emulator, not here: ${v.unjudged.join(", ")}`] : []),
  ];
  return `${head}; ${why.join("; ")}; conventions: ${v.conventions}${v.details.map((d) => `\n    ${d.slice(0, 600)}`).join("")}`;
}

export async function runSpace(options: { readonly seeds: readonly number[]; readonly workers: number; readonly runTimeoutMs: number; readonly suiteSeed?: number }, progress: (line: string) => void = () => {}): Promise<SpaceRun> {
  const runsDir = await mkdtemp(join(tmpdir(), "cpsim-space-"));
  const pool = new Piscina<SuiteTask, SuiteOutcome>({ execArgv: workerExecArgv(),
    filename: workerModule(import.meta.url, "suite-worker").href,
    minThreads: options.workers,
    maxThreads: options.workers,
    idleTimeout: 1000,
  });
  const run = async (seed: number): Promise<{ outcome?: SuiteOutcome; error?: string; wallTimeMs: number }> => {
    const t0 = performance.now();
    try {
      const outcome = await pool.run(
        { defects: [], seed: options.suiteSeed ?? 1, profile: "lenient", reportDir: join(runsDir, String(seed)), family: seed },
        { signal: AbortSignal.timeout(options.runTimeoutMs) },
      );
      return { outcome, wallTimeMs: outcome.wallTimeMs };
    } catch (err) {
      return { error: (err as Error).message, wallTimeMs: performance.now() - t0 };
    }
  };
  const verdict = (seed: number, r: Awaited<ReturnType<typeof run>>, onEmulator: ReadonlySet<string>): SeedVerdict => {
    const c = drawConventions(seed);
    const judged = r.outcome ? judgedOf(r.outcome.statuses) : new Set<string>();
    return {
      seed,
      conventions: describeDifferences(c),
      failing: r.outcome?.failing ?? [],
      targetErrors: r.outcome?.targetErrors ?? 0,
      judged: judged.size,
      unjudged: r.outcome ? unjudgedWithoutReason(c, onEmulator, judged) : [],
      wallTimeMs: r.wallTimeMs,
      details: [...Object.entries(r.outcome?.expected ?? {}).map(([id, e]) => `${id}: ${e}`), ...(r.outcome?.targetErrorSamples ?? []).map((e) => `target error: ${e}`)],
      ...(r.error !== undefined ? { error: r.error } : {}),
    };
  };
  try {
    // The reference runs beside the first seeds.
    const referenceRun = run(0).then((r) => {
      const v = verdict(0, r, new Set());
      progress(`reference (the emulator's conventions): ${seedLine(v)}`);
      return { v, judged: r.outcome ? judgedOf(r.outcome.statuses) : new Set<string>() };
    });
    const seeds: SeedVerdict[] = new Array(options.seeds.length);
    let next = 0;
    const lane = async () => {
      while (next < options.seeds.length) {
        const i = next++;
        const r = await run(options.seeds[i]!);
        const v = verdict(options.seeds[i]!, r, (await referenceRun).judged);
        seeds[i] = v;
        progress(seedLine(v));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.workers, options.seeds.length)) }, lane));
    return { reference: (await referenceRun).v, seeds };
  } finally {
    await pool.destroy();
    await rm(runsDir, { recursive: true, force: true });
  }
}
