/** A worker thread's task: one seed of one scenario point (see pool.ts). */
import { runSeed } from "./run-seed.ts";
import type { LoadedScenario } from "./scenario.ts";
import type { SeedResult } from "./seed-result.ts";

export interface PlanTask {
  readonly loaded: LoadedScenario;
  readonly point: number;
  readonly seed: number;
  readonly hours?: number;
}

/** The seed's figures and the task's own wall time in its thread. */
export default function runTask(task: PlanTask): SeedResult & { readonly taskMs: number } {
  const start = performance.now();
  const result = runSeed(task.loaded, { point: task.point, seed: task.seed, hours: task.hours });
  return { ...result, taskMs: performance.now() - start };
}
