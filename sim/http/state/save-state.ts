/**
 * A capture is checked and written off the event loop: restoring it into a second fresh model
 * (the check that it restarts to the same state) takes about ten times as long as the capture
 * (0.7 s for a model holding 90,000 jobs), and the snapshot's write and fsync are proportional to
 * it too. A worker thread builds the second model, restores, captures again and compares, and
 * writes the snapshot file only if the two agree. If the thread cannot run, the same is done in
 * this thread (slower for other requests, never different).
 */
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { workerModule } from "../../package-root.ts";
import { type SaveResult, type SaveTask, saveStateTask } from "./save-state-worker.ts";

let pool: Piscina<SaveTask, SaveResult> | undefined;
/** Saves done on the thread and in this thread (for tests and diagnostics). */
export const saves = { thread: 0, inline: 0 };

function savePool(): Piscina<SaveTask, SaveResult> {
  // One thread, started for a fold and let go when idle (folds are minutes apart).
  pool ??= new Piscina({ filename: fileURLToPath(workerModule(import.meta.url, "save-state-worker")), minThreads: 0, maxThreads: 1, idleTimeout: 5_000 });
  return pool;
}

export type { SaveResult } from "./save-state-worker.ts";

/**
 * Checks `bytes` against a model built with `options` (plain data: they cross to the thread)
 * from `seed`, and writes them as a snapshot file in `dir` when they restore faithfully.
 */
export async function saveState(options: SaveTask["options"], bytes: Buffer, seed: number, dir: string): Promise<SaveResult> {
  const task: SaveTask = { options, bytes, seed, dir };
  let result: SaveResult;
  try {
    result = await savePool().run(task);
  } catch {
    // The thread could not start, or the options could not cross to it: the same work, in this thread.
    saves.inline++;
    return saveStateTask(task);
  }
  saves.thread++;
  return result;
}
