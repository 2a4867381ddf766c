/** A worker thread's task (save-state.ts): check a capture by restoring it into a fresh model, and write it as a snapshot file. */
import { type PlatformBackendOptions, checkCapture } from "../platform-backend.ts";
import type { SnapshotRef } from "./journal-file.ts";
import { joinCapture } from "./model-graph.ts";
import { describeFsError } from "./state-errors.ts";
import { writeSnapshot } from "./state-snapshot.ts";

export interface SaveTask {
  readonly options: PlatformBackendOptions;
  /** A split capture (model-graph.ts): its table, and its long strings each written with v8.serialize. */
  readonly table: Uint8Array;
  readonly texts: readonly Uint8Array[];
  readonly seed: number;
  readonly dir: string;
}

export type SaveResult =
  | { readonly kind: "saved"; readonly ref: SnapshotRef }
  /** The capture does not restore to the same state: snapshots cannot be trusted for this model. */
  | { readonly kind: "differs"; readonly why: string }
  /** The file could not be written (a full disk): try again later. */
  | { readonly kind: "unwritable"; readonly why: string };

export function saveStateTask(task: SaveTask): SaveResult {
  let bytes: Buffer;
  try {
    bytes = joinCapture(task.table, task.texts);
  } catch (err) {
    return { kind: "differs", why: `the capture cannot be joined: ${(err as Error).message}` };
  }
  let why: string | undefined;
  try {
    why = checkCapture(task.options, bytes, task.seed);
  } catch (err) {
    why = (err as Error).message;
  }
  if (why !== undefined) return { kind: "differs", why };
  try {
    return { kind: "saved", ref: writeSnapshot(task.dir, bytes) };
  } catch (err) {
    return { kind: "unwritable", why: describeFsError(task.dir, err, "write a snapshot") };
  }
}

export default saveStateTask;
