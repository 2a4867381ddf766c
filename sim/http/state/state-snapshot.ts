/**
 * The snapshot files of `--state DIR`: the model's state captured whole (model-graph.ts), which
 * the journal's start record names with its size and SHA-256. A snapshot is written under a
 * temporary name, fsync'ed and renamed to `snapshot-<sha256 prefix>.bin` before the journal that
 * names it replaces the old one, and the old snapshot is removed only after that: a crash at any
 * point leaves a journal whose snapshot is there. Files no journal names are removed on start.
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileDurably } from "./durable-file.ts";
import type { SnapshotRef } from "./journal-file.ts";
import { JournalDamagedError, JournalError, describeFsError } from "./state-errors.ts";

/** The largest snapshot kept (a model this big is restarted from its journal instead). */
export const MAX_SNAPSHOT_BYTES = 1536 << 20;
const PREFIX = "snapshot-";
const SUFFIX = ".bin";

/** Writes `bytes` as a snapshot file in `dir` (durably) and returns the reference a start record holds. */
export function writeSnapshot(dir: string, bytes: Buffer): SnapshotRef {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const file = `${PREFIX}${sha256.slice(0, 16)}${SUFFIX}`;
  writeFileDurably(join(dir, file), [bytes]);
  return { file, bytes: bytes.length, sha256 };
}

/** The snapshot a start record names, checked against its size and SHA-256; damage is JournalDamagedError. */
export function readSnapshot(dir: string, ref: SnapshotRef): Buffer {
  const path = join(dir, ref.file);
  if (typeof ref.file !== "string" || !ref.file.startsWith(PREFIX) || ref.file.includes("/")) {
    throw new JournalDamagedError(`${join(dir, "journal.ndjson")}: its start record names ${JSON.stringify(ref.file)}, not a snapshot file; move the directory away to start afresh`);
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new JournalDamagedError(`${describeFsError(path, err, "read the snapshot the journal starts from")}; without it the state cannot be rebuilt: move the directory away to start afresh`);
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (bytes.length !== ref.bytes || sha256 !== ref.sha256) {
    throw new JournalDamagedError(
      `${path} is damaged: ${bytes.length} bytes with SHA-256 ${sha256.slice(0, 16)}…, the journal expects ${ref.bytes} bytes with ${ref.sha256.slice(0, 16)}…; ` +
        `nothing was changed: move the directory away to start afresh`,
    );
  }
  return bytes;
}

/** Removes snapshot files (and temporary ones) other than `keep`, as a crash or a compaction leaves them. */
export function removeOtherSnapshots(dir: string, keep: string | undefined): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new JournalError(describeFsError(dir, err, "list the --state directory"));
  }
  for (const name of names) {
    if (name.startsWith(PREFIX) && name !== keep && (name.endsWith(SUFFIX) || name.endsWith(`${SUFFIX}.tmp`))) {
      rmSync(join(dir, name), { force: true });
    }
  }
}
