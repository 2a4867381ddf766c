/**
 * The journal's writer, run on a thread of its own (journal-writer-thread.ts) so that no
 * record's cost lands on the event loop: encoding a 9.9 MB upload's record (its JSON and
 * checksum), writing it and fdatasync'ing it took about 40 ms there, and a group of four held
 * every other request up for 200 ms. The event loop posts commands (state-journal.ts); this side
 * encodes, writes and syncs them in order and reports how many are durable.
 *
 * Group commit: the records that arrive while a batch is written form the next batch (at most
 * MAX_BATCH records or MAX_BATCH_BYTES, one write and one fdatasync for all of it). A failed
 * write (a full disk) keeps its batch and retries it at the same file position, with a growing
 * wait; meanwhile the journal reports itself unavailable, and available again once a retry
 * succeeds.
 *
 * Commands are counted in the order they come: each `append` and `restart` is one; `durable`
 * says how many of them are on disk (or dead: a restart makes everything before it dead).
 */
import { closeSync, fdatasyncSync, fstatSync, openSync, writevSync } from "node:fs";
import { join } from "node:path";
import { writeFileDurably } from "./durable-file.ts";
import { FORMAT, FORMAT_SNAPSHOT, JOURNAL_FILE, type JournalRecord, type SnapshotRef, encodeLine } from "./journal-file.ts";
import { describeFsError } from "./state-errors.ts";
import { removeOtherSnapshots } from "./state-snapshot.ts";

/** Records written by one batch at most; beyond it the next batch writes the rest. */
const MAX_BATCH = 512;
/** Bytes written by one batch at most (one record at least): a wait for the batch before stays short. */
const MAX_BATCH_BYTES = 16 << 20;
/**
 * Bytes appended while a fold runs past which the fold is given up (the journal goes on as it
 * was, and the fold is tried again later): the records kept for the new journal are held in
 * memory, and changes wait while the new journal is written with them.
 */
export const MAX_FOLD_TAIL = 32 << 20;
/** Wait before retrying a failed write, doubling up to the maximum. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 2_000;

/** `writevSync`'s positional form; a test passes one that fails (a full disk) to see what follows. */
export type WritevFn = (fd: number, buffers: readonly Buffer[], position: number) => number;

export type WriterCommand =
  | { readonly op: "append"; readonly record: JournalRecord }
  /** Everything before is dead: the journal is replaced by one holding only a start from `seed`. */
  | { readonly op: "restart"; readonly seed: number }
  /** The model's state was captured as of now: the records appended from now on are kept for the new journal too. */
  | { readonly op: "beginFold" }
  | { readonly op: "abortFold" }
  /** The snapshot `snap` (written, durably) and the records since beginFold replace the journal: answered by a `fold` report. */
  | { readonly op: "commitFold"; readonly seed: number; readonly snap: SnapshotRef }
  /** Write what is pending (once), close the file: answered by a `closed` report. */
  | { readonly op: "close" };

export interface WriterProgress {
  readonly kind: "progress";
  /** Commands (appends and restarts) on disk or dead, counted from 1 since open. */
  readonly durable: number;
  /** Bytes in the journal file. */
  readonly bytes: number;
  /** Records written since open. */
  readonly written: number;
  /** Failed writes since open. */
  readonly failures: number;
  /** Why the last write failed, while the journal cannot be written. */
  readonly unavailable: string | undefined;
  readonly snapshotBytes: number;
  readonly snapshotFile: string | undefined;
}

/** How a fold's end went (commitFold). */
export type FoldOutcome = { readonly ok: true } | { readonly ok: false; readonly why: string; readonly overflowed: boolean };

export type WriterReport =
  | WriterProgress
  | ({ readonly kind: "fold" } & FoldOutcome)
  /** `left`: records that could not be written (never answered). */
  | { readonly kind: "closed"; readonly left: number };

export interface WriterInit {
  readonly dir: string;
  /** The journal's length (it is opened here: a thread closes only the files it opened). */
  readonly bytes: number;
  readonly snapshotBytes: number;
  readonly snapshotFile: string | undefined;
}

interface Pending {
  readonly line: Buffer;
  /** The command it belongs to. */
  readonly seq: number;
}

/** Drives a journal from commands; `post` sends reports back. */
export class JournalWriter {
  /** DIR/journal.ndjson. */
  private readonly path: string;
  private fd: number;
  private position: number;
  private received = 0;
  private durable = 0;
  private pending: Pending[] = [];
  private scheduled = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_FIRST_MS;
  private closed = false;
  private written = 0;
  private failures = 0;
  private unavailable: string | undefined;
  private snapshotBytes: number;
  private snapshotFile: string | undefined;
  private tail: Buffer[] | undefined;
  private tailBytes = 0;
  private overflowed = false;

  constructor(
    private readonly init: WriterInit,
    private readonly post: (report: WriterReport) => void,
    private readonly writev: WritevFn = writevSync,
  ) {
    this.path = join(init.dir, JOURNAL_FILE);
    this.fd = openSync(this.path, "r+");
    this.position = init.bytes;
    this.snapshotBytes = init.snapshotBytes;
    this.snapshotFile = init.snapshotFile;
  }

  handle(command: WriterCommand): void {
    if (this.closed) return;
    switch (command.op) {
      case "append":
        this.received++;
        this.queue(encodeLine(command.record), this.received);
        return;
      case "restart":
        this.received++;
        this.restart(command.seed);
        return;
      case "beginFold":
        this.tail = [];
        this.tailBytes = 0;
        this.overflowed = false;
        return;
      case "abortFold":
        this.tail = undefined;
        return;
      case "commitFold":
        this.commitFold(command.seed, command.snap);
        return;
      case "close":
        this.close();
        return;
    }
  }

  private queue(line: Buffer, seq: number): void {
    this.pending.push({ line, seq });
    if (this.tail !== undefined) {
      this.tail.push(line);
      this.tailBytes += line.length;
      if (this.tailBytes > MAX_FOLD_TAIL) {
        this.tail = undefined;
        this.overflowed = true;
      }
    }
    this.schedule();
  }

  /** A journal holding only the new start replaces the old one; if it cannot be written, a reset record is appended instead (and retried like any record). */
  private restart(seed: number): void {
    this.tail = undefined;
    try {
      writeWhole(this.init.dir, [encodeLine({ k: "start", v: FORMAT, seed })]);
    } catch {
      this.queue(encodeLine({ k: "reset", seed }), this.received);
      return;
    }
    this.startedAfresh(undefined);
  }

  private commitFold(seed: number, snap: SnapshotRef): void {
    if (this.tail === undefined) {
      const why = this.overflowed ? `more than ${MAX_FOLD_TAIL >> 20} MiB of changes came while it ran` : "it was given up (a reset)";
      this.post({ kind: "fold", ok: false, why, overflowed: this.overflowed });
      return;
    }
    const tail = this.tail;
    this.tail = undefined;
    try {
      writeWhole(this.init.dir, [encodeLine({ k: "start", v: FORMAT_SNAPSHOT, seed, snap }), ...tail]);
    } catch (err) {
      this.post({ kind: "fold", ok: false, why: describeFsError(this.path, err, "replace the journal"), overflowed: false });
      return;
    }
    this.startedAfresh(snap);
    this.post({ kind: "fold", ok: true });
  }

  /** After the journal was replaced whole: what was pending is in it (or dead), the old snapshot goes, appends go on at its end. */
  private startedAfresh(snap: SnapshotRef | undefined): void {
    try {
      removeOtherSnapshots(this.init.dir, snap?.file);
    } catch {
      // Left for the next start, which removes the snapshots no journal names.
    }
    this.snapshotBytes = snap?.bytes ?? 0;
    this.snapshotFile = snap?.file;
    // A retry waiting for space has nothing left to write.
    this.pending.length = 0;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.unavailable = undefined;
    this.retryMs = RETRY_FIRST_MS;
    closeSync(this.fd);
    this.fd = openSync(this.path, "r+");
    this.position = fstatSync(this.fd).size;
    this.durable = this.received;
    this.report();
  }

  private schedule(): void {
    if (this.scheduled || this.retryTimer !== undefined || this.closed) return;
    this.scheduled = true;
    // After the commands that came meanwhile: they join this batch.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Writes one batch and syncs it; a failed batch stays pending, at the same file position, and is retried. Says whether it was written. */
  private flush(): boolean {
    if (this.pending.length === 0) return true;
    let count = 0;
    let bytes = 0;
    while (count < this.pending.length && count < MAX_BATCH && (count === 0 || bytes + this.pending[count]!.line.length <= MAX_BATCH_BYTES)) {
      bytes += this.pending[count]!.line.length;
      count++;
    }
    const batch = this.pending.slice(0, count).map((p) => p.line);
    try {
      writeAll(this.writev, this.fd, batch, bytes, this.position);
      fdatasyncSync(this.fd);
    } catch (err) {
      this.failures++;
      this.unavailable = describeFsError(this.path, err, "write the state journal");
      if (!this.closed) {
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.flush();
        }, this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      }
      this.report();
      return false;
    }
    this.position += bytes;
    this.durable = this.pending[count - 1]!.seq;
    this.pending.splice(0, count);
    this.written += count;
    this.unavailable = undefined;
    this.retryMs = RETRY_FIRST_MS;
    this.report();
    if (this.pending.length > 0) this.schedule();
    return true;
  }

  private report(): void {
    this.post({
      kind: "progress",
      durable: this.durable,
      bytes: this.position,
      written: this.written,
      failures: this.failures,
      unavailable: this.unavailable,
      snapshotBytes: this.snapshotBytes,
      snapshotFile: this.snapshotFile,
    });
  }

  /** Writes what is pending, one try per batch (what cannot be written was never answered), and closes the file. */
  private close(): void {
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.closed = true;
    while (this.pending.length > 0 && this.flush());
    closeSync(this.fd);
    this.post({ kind: "closed", left: this.pending.length });
  }
}

/** Writes `buffers` (`bytes` in all) at `position`, going on after a short write. */
function writeAll(writev: WritevFn, fd: number, buffers: Buffer[], bytes: number, position: number): void {
  let done = 0;
  let rest: readonly Buffer[] = buffers;
  while (done < bytes) {
    const n = writev(fd, rest, position + done);
    if (n <= 0) throw Object.assign(new Error("the write made no progress"), { code: "EIO" });
    done += n;
    if (done < bytes) rest = after(buffers, done);
  }
}

/** What is left of `buffers` after their first `skip` bytes. */
function after(buffers: readonly Buffer[], skip: number): Buffer[] {
  const rest: Buffer[] = [];
  for (const b of buffers) {
    if (skip >= b.length) skip -= b.length;
    else {
      rest.push(skip > 0 ? b.subarray(skip) : b);
      skip = 0;
    }
  }
  return rest;
}

/** Writes DIR/journal.ndjson whole (durable-file.ts): a crash leaves the old journal or the new one. */
export function writeWhole(dir: string, lines: readonly Buffer[]): void {
  writeFileDurably(join(dir, JOURNAL_FILE), lines);
}
