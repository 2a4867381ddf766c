/**
 * Runs seed tasks: in this thread when one worker is asked for (or one task), else on a piscina
 * pool of worker threads. Results come back in task order whatever order they finish in, so the
 * report does not depend on the number of workers.
 */
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import runTask, { type PlanTask } from "./plan-worker.ts";
import type { SeedResult } from "./seed-result.ts";

/**
 * The worker entry, resolved in this one place: from the TypeScript sources a loader that
 * registers tsx first; from a JavaScript build the compiled task itself.
 */
export function planWorkerFile(): string {
  const fromSources = import.meta.url.endsWith(".ts");
  return fileURLToPath(new URL(fromSources ? "./plan-worker-tsx.mjs" : "./plan-worker.js", import.meta.url));
}

export function defaultWorkers(): number {
  return availableParallelism();
}

export interface RunTasksOptions {
  readonly workers: number;
  /** Called after each task with (done, total). */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface TaskRun {
  readonly results: SeedResult[];
  /** Wall time of the tasks in their threads, summed. */
  readonly taskMs: number;
}

export async function runTasks(tasks: readonly PlanTask[], options: RunTasksOptions): Promise<TaskRun> {
  const results: SeedResult[] = new Array(tasks.length);
  let taskMs = 0;
  let done = 0;
  const strip = (r: SeedResult & { taskMs: number }): SeedResult => {
    taskMs += r.taskMs;
    const { taskMs: _t, ...rest } = r;
    return rest;
  };
  const workers = Math.max(1, Math.min(options.workers, tasks.length));
  if (workers === 1) {
    for (let i = 0; i < tasks.length; i++) {
      results[i] = strip(runTask(tasks[i]));
      options.onProgress?.(++done, tasks.length);
      // Let the progress line reach the terminal between seeds.
      await new Promise<void>((r) => setImmediate(r));
    }
    return { results, taskMs };
  }
  const pool = new Piscina<PlanTask, SeedResult & { taskMs: number }>({ filename: planWorkerFile(), minThreads: workers, maxThreads: workers, idleTimeout: 1000 });
  try {
    await Promise.all(
      tasks.map(async (task, i) => {
        results[i] = strip(await pool.run(task));
        options.onProgress?.(++done, tasks.length);
      }),
    );
  } finally {
    await pool.destroy();
  }
  return { results, taskMs };
}
