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
import { serialize } from "node:v8";
import { workerModule, workerExecArgv } from "../../package-root.ts";
import type { SplitCapture } from "./model-graph.ts";
import { type SaveResult, type SaveTask, saveStateTask } from "./save-state-worker.ts";

let pool: Piscina<SaveTask, SaveResult> | undefined;
/** Saves done on the thread and in this thread (for tests and diagnostics). */
export const saves = { thread: 0, inline: 0 };

function savePool(): Piscina<SaveTask, SaveResult> {
  // One thread, started for a fold and let go when idle (folds are minutes apart).
  pool ??= new Piscina({ execArgv: workerExecArgv(), filename: fileURLToPath(workerModule(import.meta.url, "save-state-worker")), minThreads: 0, maxThreads: 1, idleTimeout: 5_000 });
  return pool;
}

export type { SaveResult } from "./save-state-worker.ts";

/** Text buffers past this many bytes are copied in one event-loop turn at most (a long string is copied whole). */
const COPY_PER_TURN = 8 << 20;

/**
 * Checks a capture against a model built with `options` (plain data: they cross to the thread)
 * from `seed`, and writes it as a snapshot file in `dir` when it restores faithfully. Its long
 * strings are copied here a few a turn, so requests go on between them; then every buffer is
 * handed to the thread without a copy.
 */
export async function saveState(options: SaveTask["options"], split: SplitCapture, seed: number, dir: string): Promise<SaveResult> {
  const texts: Buffer[] = [];
  let copied = 0;
  for (const text of split.texts) {
    if (copied >= COPY_PER_TURN) {
      await new Promise((resolve) => setImmediate(resolve));
      copied = 0;
    }
    const bytes = serialize(text);
    texts.push(bytes);
    copied += bytes.length;
  }
  const task: SaveTask = { options, table: split.table, texts, seed, dir };
  let result: SaveResult;
  try {
    result = await savePool().run(task, { transferList: [split.table, ...texts].filter(ownsMemory).map((b) => b.buffer as ArrayBuffer) });
  } catch (err) {
    // Handed over, then lost with the thread: tried again at the next fold.
    if (task.table.byteLength === 0) return { kind: "unwritable", why: `the snapshot's thread failed (${(err as Error).message})` };
    // The thread could not start, or the options could not cross to it: the same work, in this thread.
    saves.inline++;
    return saveStateTask(task);
  }
  saves.thread++;
  return result;
}

/** Whether a buffer is the whole of its memory (one from Node's shared pool must not be handed over). */
function ownsMemory(b: Buffer): boolean {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && !(b.buffer instanceof SharedArrayBuffer);
}
