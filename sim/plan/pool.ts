/**
 * Runs seed tasks: in this thread when one worker is asked for (or one task), else on a piscina
 * pool of worker threads. Results come back in task order whatever order they finish in, so the
 * report does not depend on the number of workers.
 */
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { workerModule, workerExecArgv } from "../package-root.ts";
import runTask, { type PlanTask } from "./plan-worker.ts";
import type { SeedResult } from "./seed-result.ts";

/**
 * The worker entry, resolved in this one place: from the TypeScript sources a loader that
 * registers tsx first; from a JavaScript build the compiled task itself.
 */
export function planWorkerFile(): string {
  return fileURLToPath(workerModule(import.meta.url, "plan-worker"));
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

/**
 * Runs task lists, keeping one pool of worker threads across calls (--find runs a list per step):
 * threads start once. close() ends them.
 */
export class TaskRunner {
  private pool: Piscina<PlanTask, SeedResult & { taskMs: number }> | undefined;

  constructor(private readonly workers: number) {}

  async run(tasks: readonly PlanTask[], onProgress?: (done: number, total: number) => void): Promise<TaskRun> {
    const results: SeedResult[] = new Array(tasks.length);
    let taskMs = 0;
    let done = 0;
    const strip = (r: SeedResult & { taskMs: number }): SeedResult => {
      taskMs += r.taskMs;
      const { taskMs: _t, ...rest } = r;
      return rest;
    };
    if (this.workers <= 1 || (tasks.length <= 1 && this.pool === undefined)) {
      for (let i = 0; i < tasks.length; i++) {
        results[i] = strip(runTask(tasks[i]));
        onProgress?.(++done, tasks.length);
        // Let the progress line reach the terminal between seeds.
        await new Promise<void>((r) => setImmediate(r));
      }
      return { results, taskMs };
    }
    // A small young generation per worker: each thread's garbage is short-lived job plans, and the
    // process's peak memory (every thread together) stays under the bench's 500 MB with 2 threads.
    this.pool ??= new Piscina({ execArgv: workerExecArgv(), filename: planWorkerFile(), minThreads: this.workers, maxThreads: this.workers, idleTimeout: 60_000, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    const pool = this.pool;
    await Promise.all(
      tasks.map(async (task, i) => {
        results[i] = strip(await pool.run(task));
        onProgress?.(++done, tasks.length);
      }),
    );
    return { results, taskMs };
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    if (pool !== undefined) await pool.destroy();
  }
}

/** Runs one task list on a runner of its own. */
export async function runTasks(tasks: readonly PlanTask[], options: RunTasksOptions): Promise<TaskRun> {
  const runner = new TaskRunner(Math.max(1, Math.min(options.workers, tasks.length)));
  try {
    return await runner.run(tasks, options.onProgress);
  } finally {
    await runner.close();
  }
}
