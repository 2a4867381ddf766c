/**
 * `cpsim serve --state DIR`: the session survives a crash or a restart. The model is
 * deterministic, so what is kept is the inputs that changed it (after a snapshot of its state,
 * once the journal has been folded: state-session.ts, state-snapshot.ts): one record per
 * applied change (a request the model accepted, with the virtual time it saw it at), per clock
 * advance and per reset, in `DIR/journal.ndjson` (format: journal-file.ts). On start the model
 * replays them from the seed and reaches the same state, in one pass over the file: each line's
 * checksum is checked as it is read and replayed. Reads and refused requests are not
 * kept, so only accepted changes cost disk and restart time. A reset makes everything before it
 * dead: the journal is then folded into a new one holding only the new start, written whole
 * under a temporary name, fsync'ed and renamed over the old one (a crash leaves one or the other).
 *
 * Journal before answer, by group commit: the records are encoded, written and fdatasync'ed in
 * batches on a thread of their own (journal-writer.ts), and every answer waits until everything
 * appended before it is durable. So whatever a client was told has happened is on disk, and no
 * record's size costs the event loop more than the copy that posts it.
 *
 * A failed write (a full disk) keeps its batch and retries it; meanwhile the journal is
 * `unavailable` (the transport refuses new changes with 507, reads go on) and becomes available
 * again by itself once a retry succeeds.
 *
 * A crash can tear only the last line (no newline): it is dropped and reported. A complete line
 * whose checksum fails is damage, not a crash: the start is refused (JournalDamagedError) unless
 * the caller asks to keep the valid prefix, and then the dropped tail is copied aside first. A
 * file that does not begin with a start record is not a journal and is never written to.
 */
import { closeSync, copyFileSync, fdatasyncSync, ftruncateSync, lstatSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { workerModule } from "../../package-root.ts";
import { FORMAT, FORMAT_SNAPSHOT, JOURNAL_FILE, type JournalRecord, type Line, type SnapshotRef, checksumMatches, decodeLine, encodeLine, excerpt, parseCheckedLine, readLines } from "./journal-file.ts";
import { type FoldOutcome, type WriterCommand, type WriterReport, writeWhole } from "./journal-writer.ts";
import type { WriterThreadData } from "./journal-writer-thread.ts";
import { readSnapshot, removeOtherSnapshots } from "./state-snapshot.ts";
import { JournalDamagedError, JournalError, describeFsError } from "./state-errors.ts";
import { StateLock } from "./state-lock.ts";

export { JOURNAL_FILE, type JournalRecord } from "./journal-file.ts";
export { JournalError, JournalDamagedError } from "./state-errors.ts";
export { MAX_FOLD_TAIL } from "./journal-writer.ts";

export interface JournalOptions {
  /** Keep the records before a damaged one (`--state-keep-prefix`) instead of refusing to start. */
  readonly keepValidPrefix?: boolean;
  /** For tests: a module whose `createWritev(dir)` replaces the journal's write (one that fails as a full disk does). */
  readonly writeModule?: string;
}

export interface OpenedJournal {
  /** The seed the journal started from (the one to replay from), when it held records. */
  readonly seed: number | undefined;
  /** The model's state the records follow (state-snapshot.ts), checked; undefined: they follow the seed alone. */
  readonly snapshot: Buffer | undefined;
  /**
   * The records to replay after the start record, read and checked as they are consumed: one pass
   * over the file, whatever its size. A torn last line ends them; a damaged complete line ends
   * them with `--state-keep-prefix` and throws JournalDamagedError otherwise (the file is left as
   * it is either way until finish()).
   */
  records(): Generator<JournalRecord>;
  /**
   * Once records() has run to its end: cuts off a torn (or, kept, damaged) tail, after copying a
   * damaged journal aside, and opens the journal for appending.
   */
  finish(): { readonly journal: StateJournal; readonly count: number; readonly warnings: readonly string[] };
  /** Closes the file and releases the lock, when the replay failed. */
  abandon(): void;
}

/** Opens (or creates) the journal in `dir`, taking the directory's lock; a new journal starts with `seed`. */
export function openJournal(dir: string, seed: number, options: JournalOptions = {}): OpenedJournal {
  ensureDirectory(dir);
  const lock = StateLock.acquire(dir);
  try {
    return openLocked(dir, seed, lock, options);
  } catch (err) {
    lock.release();
    if (err instanceof JournalError) throw err;
    throw new JournalError(describeFsError(join(dir, JOURNAL_FILE), err, "use the state journal"));
  }
}

function ensureDirectory(dir: string): void {
  let isDir: boolean;
  try {
    isDir = lstatSync(dir).isDirectory() || (lstatSync(dir).isSymbolicLink() && lstatSync(join(dir, ".")).isDirectory());
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new JournalError(describeFsError(dir, err, "use it as the --state directory"));
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err2) {
      throw new JournalError(describeFsError(dir, err2, "create the --state directory"));
    }
    return;
  }
  if (!isDir) throw new JournalError(`${dir} is a file, not a directory; --state needs a directory (it holds ${JOURNAL_FILE} and a lock)`);
}

function openLocked(dir: string, seed: number, lock: StateLock, options: JournalOptions): OpenedJournal {
  const path = join(dir, JOURNAL_FILE);
  const writeModule = options.writeModule;
  let size: number;
  try {
    const st = lstatSync(path);
    if (st.isDirectory()) throw new JournalError(`${path} is a directory, not a journal; move it away to start afresh`);
    if (!st.isFile()) throw new JournalError(`${path} is not a regular file; move it away to start afresh`);
    size = st.size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    size = -1;
  }
  if (size <= 0) {
    // New (or empty: created, never written): a journal holding only its start, written whole.
    const start = encodeLine({ k: "start", v: FORMAT, seed });
    writeWhole(dir, [start]);
    removeOtherSnapshots(dir, undefined);
    return {
      seed: undefined,
      snapshot: undefined,
      records: function* () {},
      finish: () => ({ journal: new StateJournal({ dir, bytes: start.length, snapshotBytes: 0, snapshotFile: undefined, writeModule }, lock), count: 0, warnings: [] }),
      abandon: () => lock.release(),
    };
  }
  const fd = openSync(path, "r+");
  try {
    const lines = readLines(fd, 0, size);
    const first = lines.next();
    const head = first.done ? undefined : first.value;
    const start = head?.complete ? decodeLine(head.bytes) : undefined;
    if (head === undefined || start === undefined || start.k !== "start" || !(start.v === FORMAT || (start.v === FORMAT_SNAPSHOT && start.snap !== undefined)) || !Number.isSafeInteger(start.seed)) {
      throw new JournalError(
        `${path} is not a cpsim state journal (format ${FORMAT} or ${FORMAT_SNAPSHOT}): it begins with ${excerpt(head?.bytes ?? Buffer.alloc(0))}; ` +
          `it was left as it is: move it away, or give --state another directory`,
      );
    }
    const snapshot = start.snap === undefined ? undefined : readSnapshot(dir, start.snap);
    const scan: Scan = { count: 0, validBytes: head.offset + head.bytes.length + 1, damaged: false, warnings: [] };
    let done = false;
    return {
      seed: start.seed,
      snapshot,
      records: function* () {
        for (const line of lines) {
          if (!line.complete || !checksumMatches(line.bytes)) {
            endAtBadLine(scan, line, path, size, options.keepValidPrefix === true);
            break;
          }
          let record: JournalRecord;
          try {
            record = parseCheckedLine(line.bytes);
          } catch {
            throw new JournalDamagedError(`${path}: a record at byte ${line.offset} has a good checksum but is not JSON; move the directory away to start afresh`);
          }
          scan.count++;
          scan.validBytes = line.offset + line.bytes.length + 1;
          yield record;
        }
        done = true;
      },
      finish: () => {
        if (!done) throw new Error("state journal: finish() before the records were all read");
        if (scan.validBytes < size) {
          if (scan.damaged) copyFileSync(path, `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`);
          ftruncateSync(fd, scan.validBytes);
          fdatasyncSync(fd);
        }
        removeOtherSnapshots(dir, start.snap?.file);
        closeSync(fd);
        const journal = new StateJournal({ dir, bytes: scan.validBytes, snapshotBytes: snapshot?.length ?? 0, snapshotFile: start.snap?.file, writeModule }, lock);
        return { journal, count: scan.count, warnings: scan.warnings };
      },
      abandon: () => {
        closeSync(fd);
        lock.release();
      },
    };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

interface Scan {
  count: number;
  validBytes: number;
  damaged: boolean;
  warnings: string[];
}

/** A torn last line ends the records (a crash leaves it); a damaged complete one is refused, or with keepValidPrefix ends them too. */
function endAtBadLine(scan: Scan, line: Line, path: string, size: number, keepValidPrefix: boolean): void {
  if (!line.complete) {
    scan.warnings.push(`${path}: the last record (${size - line.offset} bytes) is torn, as a crash leaves it; it was never answered and is dropped`);
    return;
  }
  const n = scan.count + 1;
  const kept = `the ${n - 1} records before it`;
  if (!keepValidPrefix) {
    throw new JournalDamagedError(
      `${path}: record ${n} (at byte ${line.offset}) is damaged: its checksum does not match, and it is a complete line, ` +
        `so this is not a torn write; nothing was changed. Start with --state-keep-prefix to keep ${kept} ` +
        `(the rest is copied aside, then cut off), or move the directory away to start afresh`,
    );
  }
  scan.damaged = true;
  scan.warnings.push(`${path}: record ${n} (at byte ${line.offset}) is damaged; kept ${kept}, dropped ${size - line.offset} bytes from there (a copy is beside the journal)`);
}

interface Waiter {
  /** Resolved once this many commands are durable. */
  readonly seq: number;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

/** The event loop's side of the journal: commands to the writer's thread, in order, and what it reports back. */
export class StateJournal {
  private readonly worker: Worker;
  /** Commands (appends and restarts) posted, and how many of them the writer reports durable. */
  private seq = 0;
  private durable = 0;
  private waiters: Waiter[] = [];
  private foldAnswers: ((outcome: FoldOutcome) => void)[] = [];
  private closing: Promise<void> | undefined;
  private closedAnswer: ((left: number) => void) | undefined;
  /** Why the writer's thread stopped, if it did. */
  private broken: string | undefined;
  private referenced = false;
  /** Why the last write failed, while the journal cannot be written; undefined when it can. */
  unavailable: string | undefined;
  /** Records written since open. */
  written = 0;
  /** Failed writes since open. */
  failures = 0;
  /** Bytes in the journal file (as of the writer's last report). */
  bytes: number;
  /** Bytes of the snapshot the journal starts from (0: none). */
  snapshotBytes: number;
  /** Its file name in the directory. */
  snapshotFile: string | undefined;
  /** Whether a fold begun is still possible as far as this side knows (no reset since; the writer may still have given it up). */
  folding = false;
  /** Called after each report of the writer (the journal's size may have changed). */
  onProgress: () => void = () => {};

  constructor(
    data: WriterThreadData,
    private readonly lock: StateLock,
  ) {
    this.bytes = data.bytes;
    this.snapshotBytes = data.snapshotBytes;
    this.snapshotFile = data.snapshotFile;
    this.worker = new Worker(workerModule(import.meta.url, "journal-writer-thread"), { workerData: data });
    this.worker.unref();
    this.worker.on("message", (report: WriterReport) => this.received(report));
    this.worker.on("error", (err) => this.stopped(`the state journal's writer failed (${err.message}); this is a bug in cpsim`));
    this.worker.on("exit", () => this.stopped("the state journal's writer stopped"));
  }

  /** Queues a record; it is on disk once flushed() resolves. */
  append(record: JournalRecord): void {
    this.command({ op: "append", record }, true);
  }

  /**
   * A fold begins: the model's state was captured as of now, and the records appended from now
   * on are kept aside too, to follow the snapshot in the new journal (commitFold).
   */
  beginFold(): void {
    this.folding = true;
    this.command({ op: "beginFold" }, false);
  }

  /** The fold is given up: the journal goes on as it was. */
  abortFold(): void {
    this.folding = false;
    this.command({ op: "abortFold" }, false);
  }

  /**
   * Ends a fold: a journal holding a start record naming `snap` (written already, durably) and
   * the records appended since beginFold replaces the old one whole; then the old snapshot is
   * removed. Resolves to whether it did; if not (it cannot be written, a reset came, or too much
   * was appended meanwhile) the old journal goes on as it was.
   */
  commitFold(seed: number, snap: SnapshotRef): Promise<FoldOutcome> {
    this.folding = false;
    if (this.closing !== undefined || this.broken !== undefined) return Promise.resolve({ ok: false, why: this.broken ?? "the journal is closed", overflowed: false });
    return new Promise((resolve) => {
      this.foldAnswers.push(resolve);
      this.command({ op: "commitFold", seed, snap }, false);
      this.reference();
    });
  }

  /**
   * Starts afresh after a reset: everything before it is dead. The journal is replaced whole by
   * one holding only the new start (if it cannot be written, a reset record is appended to the
   * old one instead); flushed() resolves once either is on disk.
   */
  restart(seed: number): void {
    this.folding = false;
    this.command({ op: "restart", seed }, true);
  }

  /** Resolves when everything appended so far is on disk; while the disk refuses, it waits for a retry to succeed. */
  flushed(): Promise<void> {
    if (this.broken !== undefined) return Promise.reject(new JournalError(this.broken));
    if (this.durable >= this.seq) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ seq: this.seq, resolve, reject }));
  }

  /** Whether appended records wait to be written (or cannot be: the writer's thread is gone). */
  get busy(): boolean {
    return this.durable < this.seq || this.broken !== undefined;
  }

  /** Writes what is pending (what cannot be written was never answered), closes the file, stops the writer and releases the lock. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.broken === undefined) {
        this.worker.ref();
        const left = await new Promise<number>((resolve) => {
          this.closedAnswer = resolve;
          this.worker.postMessage({ op: "close" } satisfies WriterCommand);
        });
        if (left > 0) this.unavailable ??= `${left} records could not be written`;
      }
      await this.worker.terminate();
      this.lock.release();
      const why = new JournalError(this.unavailable ?? this.broken ?? "the state journal was closed");
      for (const w of this.waiters.splice(0)) (w.seq <= this.durable ? w.resolve() : w.reject(why));
      for (const answer of this.foldAnswers.splice(0)) answer({ ok: false, why: "the journal was closed", overflowed: false });
    })();
    return this.closing;
  }

  private command(command: WriterCommand, counted: boolean): void {
    if (this.closing !== undefined || this.broken !== undefined) return;
    if (counted) this.seq++;
    this.worker.postMessage(command);
    this.reference();
  }

  /** The writer's thread keeps the process alive while something waits for it, and only then. */
  private reference(): void {
    const needed = this.durable < this.seq || this.foldAnswers.length > 0 || this.closing !== undefined;
    if (needed === this.referenced) return;
    this.referenced = needed;
    if (needed) this.worker.ref();
    else this.worker.unref();
  }

  private received(report: WriterReport): void {
    switch (report.kind) {
      case "progress":
        this.durable = report.durable;
        this.bytes = report.bytes;
        this.written = report.written;
        this.failures = report.failures;
        this.unavailable = report.unavailable;
        this.snapshotBytes = report.snapshotBytes;
        this.snapshotFile = report.snapshotFile;
        if (this.waiters.length > 0 && this.waiters[0]!.seq <= this.durable) {
          // Waiters are in the order of their seq: the ones now durable are a prefix.
          let n = 1;
          while (n < this.waiters.length && this.waiters[n]!.seq <= this.durable) n++;
          for (const w of this.waiters.splice(0, n)) w.resolve();
        }
        break;
      case "fold":
        this.foldAnswers.shift()?.(report);
        break;
      case "closed":
        this.closedAnswer?.(report.left);
        return;
    }
    this.reference();
    this.onProgress();
  }

  /** The writer's thread is gone: nothing more can be kept; what waits is told so, and changes are refused. */
  private stopped(why: string): void {
    if (this.broken !== undefined || this.closing !== undefined) {
      this.closedAnswer?.(this.seq - this.durable);
      return;
    }
    this.broken = why;
    this.unavailable = why;
    for (const w of this.waiters.splice(0)) w.reject(new JournalError(why));
    for (const answer of this.foldAnswers.splice(0)) answer({ ok: false, why, overflowed: false });
    this.reference();
  }
}
