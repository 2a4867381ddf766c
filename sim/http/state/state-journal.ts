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
 * Journal before answer, by group commit: records are written and fdatasync'ed in small batches
 * (each event-loop turn, at most MAX_BATCH records), and every answer waits for the batch holding
 * everything before it. So whatever a client was told has happened is on disk.
 *
 * A failed write (a full disk) keeps its batch in memory and retries it; meanwhile the journal is
 * `unavailable` (the transport refuses new changes with 507, reads go on) and becomes available
 * again by itself once a retry succeeds.
 *
 * A crash can tear only the last line (no newline): it is dropped and reported. A complete line
 * whose checksum fails is damage, not a crash: the start is refused (JournalDamagedError) unless
 * the caller asks to keep the valid prefix, and then the dropped tail is copied aside first. A
 * file that does not begin with a start record is not a journal and is never written to.
 */
import { closeSync, copyFileSync, fdatasyncSync, fsyncSync, ftruncateSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { FORMAT, FORMAT_SNAPSHOT, JOURNAL_FILE, type JournalRecord, type Line, type SnapshotRef, checksumMatches, decodeLine, encodeRecord, excerpt, parseCheckedLine, readLines } from "./journal-file.ts";
import { readSnapshot, removeOtherSnapshots } from "./state-snapshot.ts";
import { JournalDamagedError, JournalError, describeFsError } from "./state-errors.ts";
import { StateLock } from "./state-lock.ts";

export { JOURNAL_FILE, type JournalRecord } from "./journal-file.ts";
export { JournalError, JournalDamagedError } from "./state-errors.ts";

/**
 * Bytes appended while a fold runs past which the fold is given up: the new journal is written
 * with them on the event loop, so this bounds how long a fold's end can hold requests up (under
 * a stream of large uploads a fold waits for a quieter moment).
 */
const MAX_FOLD_TAIL = 1 << 20;
/** Records written by one flush at most; beyond it the next turn writes the rest. */
const MAX_BATCH = 512;
/** Wait before retrying a failed write, doubling up to the maximum. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 2_000;

/** `writeSync`'s positional form; a test passes one that fails (a full disk) to see what follows. */
export type WriteFn = (fd: number, buffer: Buffer, offset: number, length: number, position: number) => number;

export interface JournalOptions {
  /** Keep the records before a damaged one (`--state-keep-prefix`) instead of refusing to start. */
  readonly keepValidPrefix?: boolean;
  readonly write?: WriteFn;
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
  const write = options.write ?? writeSync;
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
    const content = encodeRecord({ k: "start", v: FORMAT, seed });
    writeWhole(dir, content);
    removeOtherSnapshots(dir, undefined);
    const fd = openSync(path, "r+");
    const journal = new StateJournal(dir, fd, Buffer.byteLength(content), lock, write);
    return { seed: undefined, snapshot: undefined, records: function* () {}, finish: () => ({ journal, count: 0, warnings: [] }), abandon: () => journal.close() };
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
        const journal = new StateJournal(dir, fd, scan.validBytes, lock, write);
        journal.snapshotBytes = snapshot?.length ?? 0;
        journal.snapshotFile = start.snap?.file;
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

/** Writes DIR/journal.ndjson whole: a temporary file, fsync'ed, renamed over it, and the directory fsync'ed. */
function writeWhole(dir: string, content: string): void {
  const path = join(dir, JOURNAL_FILE);
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, "w");
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
  syncDirectory(dir);
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some file systems cannot sync a directory; the rename is then as durable as they make it.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

export class StateJournal {
  private pending: string[] = [];
  private waiters: Waiter[] = [];
  private scheduled = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_FIRST_MS;
  private closed = false;
  /** Why the last write failed, while the journal cannot be written; undefined when it can. */
  unavailable: string | undefined;
  /** Records written since open. */
  written = 0;
  /** Failed writes since open. */
  failures = 0;
  /** Bytes of the snapshot the journal starts from (0: none). */
  snapshotBytes = 0;
  /** Its file name in the directory. */
  snapshotFile: string | undefined;
  /** While a fold runs: the records appended since its capture (see beginFold). */
  private tail: string[] | undefined;
  private tailBytes = 0;
  /** Whether the last fold was given up because too much was appended while it ran. */
  foldOverflowed = false;

  constructor(
    private readonly dir: string,
    private fd: number,
    private position: number,
    private readonly lock: StateLock,
    private readonly write: WriteFn,
  ) {}

  /** Bytes in the journal file. */
  get bytes(): number {
    return this.position;
  }

  /** Queues a record; it is on disk once flushed() resolves. */
  append(record: JournalRecord): void {
    if (this.closed) return;
    const line = encodeRecord(record);
    this.pending.push(line);
    if (this.tail !== undefined) {
      this.tail.push(line);
      this.tailBytes += line.length;
      // A fold that takes this long is given up: the journal goes on as it was.
      if (this.tailBytes > MAX_FOLD_TAIL) {
        this.tail = undefined;
        this.foldOverflowed = true;
      }
    }
    this.schedule();
  }

  /**
   * A fold begins: the model's state was captured as of now, and the records appended from now
   * on are kept aside too, to follow the snapshot in the new journal (commitFold).
   */
  beginFold(): void {
    this.tail = [];
    this.tailBytes = 0;
    this.foldOverflowed = false;
  }

  /** Whether a fold begun is still possible (no reset or overflow since). */
  get folding(): boolean {
    return this.tail !== undefined;
  }

  /** The fold is given up: the journal goes on as it was. */
  abortFold(): void {
    this.tail = undefined;
  }

  /**
   * Ends a fold: a journal holding a start record naming `snap` (written already, durably) and
   * the records appended since beginFold replaces the old one whole; then the old snapshot is
   * removed. Every record appended so far is then on disk (in the snapshot or after it). Throws,
   * leaving the old journal as it was, when the new one cannot be written or the fold was given up.
   */
  commitFold(seed: number, snap: SnapshotRef): void {
    if (this.closed || this.tail === undefined) throw new JournalError("the fold was given up (a reset, or too many records meanwhile)");
    const content = encodeRecord({ k: "start", v: FORMAT_SNAPSHOT, seed, snap }) + this.tail.join("");
    this.tail = undefined;
    writeWhole(this.dir, content);
    this.startedAfresh(Buffer.byteLength(content), snap);
  }

  /** Resolves when every record appended so far is on disk; while the disk refuses, it waits for a retry to succeed. */
  flushed(): Promise<void> {
    if (this.pending.length === 0 && this.waiters.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Whether appended records wait to be written. */
  get busy(): boolean {
    return this.pending.length > 0 || this.waiters.length > 0;
  }

  /**
   * Starts afresh after a reset: everything before it is dead. The journal is replaced whole by
   * one holding only the new start, and records still pending are dropped with it (if the new
   * journal cannot be written, this throws and the old one is left as it was).
   */
  restart(seed: number): void {
    if (this.closed) return;
    const content = encodeRecord({ k: "start", v: FORMAT, seed });
    writeWhole(this.dir, content);
    this.tail = undefined;
    this.startedAfresh(Buffer.byteLength(content), undefined);
  }

  /** After the journal was replaced whole: what was pending is in it (or dead), the old snapshot goes, appends go on at its end. */
  private startedAfresh(bytes: number, snap: SnapshotRef | undefined): void {
    removeOtherSnapshots(this.dir, snap?.file);
    this.snapshotBytes = snap?.bytes ?? 0;
    this.snapshotFile = snap?.file;
    // A retry waiting for space has nothing left to write.
    this.pending.length = 0;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.unavailable = undefined;
    this.retryMs = RETRY_FIRST_MS;
    closeSync(this.fd);
    this.fd = openSync(join(this.dir, JOURNAL_FILE), "r+");
    this.position = bytes;
    for (const w of this.waiters.splice(0)) w.resolve();
  }

  private schedule(): void {
    if (this.scheduled || this.retryTimer !== undefined) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /**
   * Writes one batch synchronously: the write and the sync are short next to what a batch waits
   * for, and a synchronous write cannot interleave with the next batch. A failed batch stays
   * pending, at the same file position, and is retried.
   */
  private flush(): boolean {
    this.scheduled = false;
    if (this.closed) return false;
    const count = Math.min(this.pending.length, MAX_BATCH);
    if (count > 0) {
      const data = Buffer.from(this.pending.slice(0, count).join(""));
      try {
        let done = 0;
        while (done < data.length) done += this.write(this.fd, data, done, data.length - done, this.position + done);
        fdatasyncSync(this.fd);
      } catch (err) {
        this.failures++;
        this.unavailable = describeFsError(join(this.dir, JOURNAL_FILE), err, "write the state journal");
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.flush();
        }, this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
        return false;
      }
      this.position += data.length;
      this.pending.splice(0, count);
      this.written += count;
      this.unavailable = undefined;
      this.retryMs = RETRY_FIRST_MS;
    }
    if (this.pending.length === 0) for (const w of this.waiters.splice(0)) w.resolve();
    else this.schedule();
    return true;
  }

  /** Writes what is pending (what cannot be written was never answered), closes the file and releases the lock. */
  close(): void {
    if (this.closed) return;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    while (this.pending.length > 0 && this.flush());
    this.closed = true;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    const left = new JournalError(this.unavailable ?? "the state journal was closed");
    for (const w of this.waiters.splice(0)) (this.pending.length === 0 ? w.resolve() : w.reject(left));
    closeSync(this.fd);
    this.lock.release();
  }
}
